"""python/glance against the build's libglance.so: the dict is the JSON of
glance extract, options by keyword and by dict, errors as exceptions with
their status, bytes in their charset, a page from a URL, threads, the
option isolate, and records answered as glance batch answers them."""
import http.server
import json
import os
import subprocess
import sys
import threading

import pytest

import glance
from conftest import FIXTURES, GLANCE_BIN


def fixture(name, mode="r"):
    with open(os.path.join(FIXTURES, name), mode) as f:
        return f.read()


def glance_json(*args):
    out = subprocess.run([GLANCE_BIN, "extract", "--offline", "--format", "json", *args],
                         stdout=subprocess.PIPE, check=False).stdout
    return json.loads(out)


def test_the_library_loaded_is_the_build():
    assert glance.library_version() == glance.__version__
    # the build's library, not an installed one: the one mapped in this process
    want = os.path.realpath(os.environ["GLANCE_LIBRARY"])
    with open("/proc/self/maps") as maps:
        mapped = {line.split()[-1] for line in maps if "libglance" in line}
    assert mapped == {want}
    assert "gce" in glance.methods() and "auto" in glance.methods()


def test_the_package_is_the_installed_one():
    """Run by tests/python-venv.sh: the package imported is the one pip
    installed into the virtual environment, with its type information, not
    the source tree's."""
    venv = os.environ.get("GLANCE_EXPECT_VENV")
    if not venv:
        pytest.skip("not run from tests/python-venv.sh")
    here = os.path.realpath(glance.__file__)
    assert here.startswith(os.path.realpath(venv) + os.sep), here
    assert os.path.isfile(os.path.join(os.path.dirname(here), "py.typed"))


def test_the_library_is_looked_for_in_order():
    """GLANCE_LIBRARY alone when set; else the system's library path, then a
    build folder; the error names every place tried."""
    code = "import glance"
    env = dict(os.environ, GLANCE_LIBRARY="/nonexistent/libglance.so.0.2")
    r = subprocess.run([sys.executable, "-c", code], env=env, cwd="/",
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    assert r.returncode != 0
    err = r.stderr.decode()
    assert "ImportError" in err and "GLANCE_LIBRARY=/nonexistent/libglance.so.0.2" in err, err
    env = {k: v for k, v in os.environ.items() if k not in ("GLANCE_LIBRARY", "LD_LIBRARY_PATH")}
    env["GLANCE_BUILD_DIR"] = "/nonexistent-build"
    probe = "import glance, sys; sys.stdout.write(open('/proc/self/maps').read())"
    r = subprocess.run([sys.executable, "-c", probe], env=env, cwd="/",
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if r.returncode == 0:  # an installed libglance0.2 or cmake --install: the system's
        mapped = {line.split()[-1] for line in r.stdout.decode().splitlines() if "libglance" in line}
        assert len(mapped) == 1 and "/nonexistent-build/" not in next(iter(mapped)), mapped
    else:
        err = r.stderr.decode()
        lines = err.splitlines()
        start = next(i for i, line in enumerate(lines) if line.endswith("cannot load libglance.so; tried:"))
        tried = [line.strip() for line in lines[start + 1:] if line.startswith("  ")]
        assert tried[0].startswith("libglance.so.0.2 (the system's library path)"), err
        assert tried[1].startswith("/nonexistent-build/lib/libglance.so.0.2 (a build folder)"), err
        assert tried[2].split(" ")[0].endswith("/build/lib/libglance.so.0.2"), err
        assert "set GLANCE_LIBRARY" in err


def test_extract_is_glance_extract():
    page = glance.extract(fixture("news.html"), offline=True)
    alone = glance_json(os.path.join(FIXTURES, "news.html"))
    assert page["status"] == "ok"
    assert page["text"] == alone["text"]
    assert page["title"] == alone["title"]
    assert page["method"] == "score"
    # bytes alike
    assert glance.extract(fixture("news.html", "rb"), offline=True)["text"] == alone["text"]


def test_options_by_keyword_and_by_dict():
    html = fixture("news.html")
    a = glance.extract(html, method="gce", gce_alpha=2.5, window=(1280, 1024), offline=True)
    b = glance.extract(html, options={"method": "gce", "gce.alpha": "2.5", "window": "1280x1024",
                                      "offline": "on"})
    assert a["gce"]["params"]["alpha"] == 2.5
    assert a["window"] == {"w": 1280, "h": 1024}
    assert a["method"] == "gce"
    assert a["text"] == b["text"]
    assert glance.extract(html, classic_min_share=0.5, method="classic", offline=True)["classic"]["min_share"] == 0.5


def test_isolate_is_an_option_like_any():
    # the library's option isolate: the page in a child process, the same dict
    html = fixture("news.html")
    alone = glance.extract(html, offline=True)
    isolated = glance.extract(html, offline=True, isolate=True)
    assert isolated["text"] == alone["text"] and isolated["method"] == alone["method"]
    # a page costly within the layout: its process killed at the budget and a second
    floats = "<html><body><p>floats</p>" + "".join(
        '<div style="float:left;width:%dpx">w</div>' % (i % 300 + 1) for i in range(20000))
    with pytest.raises(glance.GlanceError) as e:
        glance.extract(floats, offline=True, isolate=True, time_budget=3, max_floats=100000)
    assert e.value.name == "costly" and "time_budget" in e.value.message


def test_a_bad_option_raises_with_its_status():
    with pytest.raises(glance.GlanceError) as e:
        glance.extract("<p>x</p>", gce_alpha=-1)
    assert e.value.status == 4 and e.value.name == "badoption"
    assert "gce.alpha" in e.value.message
    with pytest.raises(glance.GlanceError) as e:
        glance.extract("<p>x</p>", no_such_option=1)
    assert e.value.name == "badoption"


def test_errors_are_exceptions_with_the_status():
    with pytest.raises(glance.GlanceError) as e:
        glance.extract(b"", offline=True)
    assert (e.value.status, e.value.name) == (2, "badinput")
    with pytest.raises(glance.GlanceError) as e:
        glance.extract(b"\x00\x01\x02\xff" * 4096, offline=True)
    assert e.value.name == "badinput"
    with pytest.raises(glance.NoContent) as e:
        glance.extract("<html><body><div style='height:3000px'></div></body></html>", offline=True)
    assert e.value.status == 1
    assert e.value.result["status"] == "nocontent"  # the reasoning comes along
    with pytest.raises(glance.GlanceError) as e:
        glance.extract_url("https://example.org/", offline=True)
    assert e.value.name == "offline"
    with pytest.raises(TypeError):
        glance.extract(42)


def test_bytes_in_their_charset():
    html = "<title>Caf\u00e9</title><p>Le caf\u00e9 est tr\u00e8s bon, vraiment tr\u00e8s bon, " \
           "et tout le port y vient le matin.</p>"
    page = glance.extract(html.encode("iso-8859-1"), charset="ISO-8859-1", offline=True)
    assert page["title"] == "Caf\u00e9"
    assert "tr\u00e8s bon" in page["text"]
    assert page["source"]["charset_from"] == "http"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def test_extract_url_from_a_local_server():
    handler = lambda *a, **k: _Quiet(*a, directory=FIXTURES, **k)  # noqa: E731
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    try:
        url = "http://127.0.0.1:%d/news.html" % server.server_port
        page = glance.extract_url(url, timeout=10)
        assert page["source"]["final_url"] == url
        assert page["text"] == glance_json(os.path.join(FIXTURES, "news.html"))["text"]
        with pytest.raises(glance.GlanceError) as e:
            glance.extract_url("http://127.0.0.1:%d/missing.html" % server.server_port, timeout=10)
        assert e.value.name == "fetch"
    finally:
        server.shutdown()


def test_threads_each_with_a_context():
    names = ["news.html", "article-tag.html", "gallery.html"]
    want = {n: glance.extract(fixture(n), offline=True)["text"] for n in names}
    got, errors = {}, []

    def work(i):
        try:
            n = names[i % len(names)]
            got[i] = (n, glance.extract(fixture(n), offline=True)["text"])
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(text == want[n] for n, text in got.values()) and len(got) == 8


def test_records_answered_as_glance_batch_answers(tmp_path):
    pages = [{"id": "news", "url": "https://example.org/news", "html": fixture("news.html", "rb")},
             {"id": "cafe", "url": "https://example.org/cafe", "charset": "iso-8859-1",
              "html": "<title>Caf\u00e9</title><p>Le caf\u00e9 est tr\u00e8s bon, vraiment.</p>"},
             {"id": "gone", "url": "https://example.org/gone", "html": "<p>gone</p>", "status": 404},
             {"id": "img", "url": "https://example.org/i.png", "html": b"\x89PNG", "content_type": "image/png"}]
    warc = tmp_path / "pages.warc.gz"
    glance.records.write_warc(str(warc), pages)
    jsonl = tmp_path / "pages.jsonl"
    with open(jsonl, "w") as f:
        f.write(json.dumps({"id": "n", "html": fixture("news.html")}) + "\n\nnot json\n")
        f.write(json.dumps({"id": 5, "url": "https://example.org/"}) + "\n")
    for path in (warc, jsonl):
        mine = [glance.extract_record(r, fields=("title", "text", "url"), offline=True)
                for r in glance.records.read_records(str(path))]
        out = subprocess.run([GLANCE_BIN, "batch", "--offline", "--fields", "title,text,url", str(path)],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True).stdout
        theirs = [json.loads(line) for line in out.splitlines()]
        for m, t in zip(mine, theirs):
            # the messages of a broken line differ in wording; the rest is equal
            if m["status"] == "badinput" and "message" in m:
                m.pop("message"), t.pop("message")
            assert m == t
        assert len(mine) == len(theirs)
