"""A real distributed run: a Dask LocalCluster of two worker processes
extracts a WARC file and a JSON-lines file through python/glance, and every
record's text is the one `glance batch` gives. Skipped when Debian's
python3-distributed is not installed."""
import functools
import glob
import gzip
import json
import os
import subprocess

import pytest

import glance
from conftest import FIXTURES, GLANCE_BIN

distributed = pytest.importorskip("distributed", reason="python3-distributed (Dask) is not installed")


def _pages():
    """The fixtures' pages, and a few of the benchmark's where ../shared is
    beside the checkout."""
    paths = sorted(glob.glob(os.path.join(FIXTURES, "*.html")))
    shared = os.environ.get("GLANCE_SHARED", "")
    paths += sorted(glob.glob(os.path.join(shared, "bench", "scrapinghub", "html", "*.html.gz")))[:12]
    pages = []
    for p in paths:
        with (gzip.open if p.endswith(".gz") else open)(p, "rb") as f:
            html = f.read()
        name = os.path.basename(p).split(".")[0]
        pages.append({"id": name, "url": "https://example.org/%s" % name, "html": html})
    return pages


def _with_pid(record):
    out = glance.extract_record(record, fields=("title", "text"), options={"offline": "on"})
    out["pid"] = os.getpid()
    return out


def _batch(path):
    out = subprocess.run([GLANCE_BIN, "batch", "--offline", "--jobs", "2", path],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True).stdout
    return {json.dumps(o["id"]): o for o in map(json.loads, out.splitlines())}


def test_dask_cluster_gives_glance_batch_texts(tmp_path):
    pages = _pages()
    warc = str(tmp_path / "pages.warc.gz")
    glance.records.write_warc(warc, pages)
    jsonl = str(tmp_path / "pages.jsonl")
    with open(jsonl, "w") as f:
        for p in pages:
            f.write(json.dumps({"id": p["id"], "html": p["html"].decode("utf-8", "replace")}) + "\n")

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        pids = set()
        for path in (warc, jsonl):
            records = list(glance.records.read_records(path))
            assert len(records) == len(pages)
            answers = client.gather(client.map(_with_pid, records, pure=False))
            want = _batch(path)
            assert len(want) == len(answers)
            for a in answers:
                w = want[json.dumps(a["id"])]
                assert a["status"] == w["status"], a["id"]
                assert a["text"] == w["text"], a["id"]
                assert a["title"] == w["title"], a["id"]
                pids.add(a.pop("pid"))
        assert os.getpid() not in pids
        assert len(pids) == 2  # both worker processes extracted
