"""tests/batch_corpus.py GLANCE SHARED PYTHON_DIR: the 181 pages of the
scrapinghub benchmark (SHARED/bench/scrapinghub/html, read-only, never
copied here) through `glance batch --jobs 2` give, record by record, the
texts and titles `glance extract` gives page by page: as JSON lines, and as
a WARC file (gzip per record, written by this test in a temporary folder).
Exit 77 (skipped) when the corpus is not beside the checkout."""
import concurrent.futures
import glob
import gzip
import json
import os
import subprocess
import sys
import tempfile

glance_bin, shared, python_dir = sys.argv[1:4]
sys.path.insert(0, python_dir)
from glance.records import write_warc  # noqa: E402  (pure Python: no library loaded)

paths = sorted(glob.glob(os.path.join(shared, "bench", "scrapinghub", "html", "*.html.gz")))
if not paths:
    print("batch_corpus: skipped: no %s/bench/scrapinghub/html beside the checkout" % shared)
    sys.exit(77)


def page_alone(path):
    r = subprocess.run([glance_bin, "extract", "--offline", "--format", "json", path],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    o = json.loads(r.stdout) if r.stdout.strip() else {"status": "exit %d" % r.returncode}
    return os.path.basename(path)[:-len(".html.gz")], o


with concurrent.futures.ThreadPoolExecutor(2) as pool:
    alone = dict(pool.map(page_alone, paths))

fails = []
with tempfile.TemporaryDirectory() as tmp:
    pages = []
    jsonl = os.path.join(tmp, "pages.jsonl")
    with open(jsonl, "w") as f:
        for p in paths:
            with gzip.open(p, "rb") as g:
                html = g.read()
            pid = os.path.basename(p)[:-len(".html.gz")]
            pages.append({"id": pid, "url": "https://example.org/%s.html" % pid, "html": html,
                          "charset": "utf-8"})
            f.write(json.dumps({"id": pid, "html": html.decode("utf-8")}) + "\n")
    warc = os.path.join(tmp, "pages.warc.gz")
    write_warc(warc, pages)
    for name, path in (("JSON lines", jsonl), ("WARC", warc)):
        r = subprocess.run([glance_bin, "batch", "--offline", "--jobs", "2", path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
        if r.returncode != 0:
            fails.append("%s: glance batch exit %d: %s" % (name, r.returncode, r.stderr.decode()[-300:]))
            continue
        lines = [json.loads(line) for line in r.stdout.splitlines()]
        if [o["id"] for o in lines] != [os.path.basename(p)[:-len(".html.gz")] for p in paths]:
            fails.append("%s: ids not in input order" % name)
        same = 0
        for o in lines:
            a = alone.get(o["id"], {})
            if (o["status"], o["title"], o["text"]) != (a.get("status"), a.get("title"), a.get("text")):
                fails.append("%s: %s: batch %s, extract %s" % (name, o["id"], o["status"], a.get("status")))
            else:
                same += 1
        print("batch_corpus: %s: %d of %d records as glance extract gives them" % (name, same, len(paths)))

for f in fails[:20]:
    print("batch_corpus: FAILED: " + f)
sys.exit(1 if fails else 0)
