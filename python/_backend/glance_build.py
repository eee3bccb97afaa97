"""The build backend of the glance package (PEP 517 and PEP 660), with the
standard library alone.

The package is pure Python (ctypes over libglance.so), so a wheel is a zip
of glance/ with its metadata. Building it with nothing but the standard
library lets `pip install ./python` work in any fresh virtual environment,
offline: a build backend from a package index (setuptools and wheel) would
need the index, or, with --no-build-isolation, the wheel package, which a
virtual environment does not have and Debian's python3-venv does not give.

The name, version, summary and Python versions are read from
pyproject.toml's [project] table, the description from README.md.
"""
import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # python/
_PACKAGE = "glance"
_FILES = ("__init__.py", "records.py", "py.typed")


def _project():
    """name, version, description and requires-python of pyproject.toml
    (a regular expression per key: the table is ours and stays simple)."""
    with open(os.path.join(_HERE, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    table = text[text.index("[project]"):]
    table = table[:table.find("\n[", 1)] if "\n[" in table[1:] else table
    out = {}
    for key in ("name", "version", "description", "requires-python"):
        m = re.search(r'^%s\s*=\s*"([^"]*)"' % re.escape(key), table, re.M)
        if not m:
            raise ValueError("pyproject.toml: [project] has no %s" % key)
        out[key] = m.group(1)
    return out


def _metadata(p):
    with open(os.path.join(_HERE, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\nRequires-Python: %s\n"
            "Provides-Extra: test\nRequires-Dist: pytest ; extra == 'test'\n"
            "Provides-Extra: dask\nRequires-Dist: distributed ; extra == 'dask'\n"
            "Description-Content-Type: text/markdown\n\n%s"
            % (p["name"], p["version"], p["description"], p["requires-python"], readme))


def _wheel(directory, files):
    """A wheel of `files` ({path in the wheel: bytes}) in `directory`."""
    p = _project()
    dist = "%s-%s" % (p["name"], p["version"])
    info = dist + ".dist-info"
    files = dict(files)
    files[info + "/METADATA"] = _metadata(p).encode("utf-8")
    files[info + "/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: glance_build\n"
                              b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    files[info + "/top_level.txt"] = (_PACKAGE + "\n").encode()
    record = []
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append("%s,sha256=%s,%d" % (path, digest, len(data)))
    record.append(info + "/RECORD,,")
    files[info + "/RECORD"] = ("\n".join(record) + "\n").encode()
    name = dist + "-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(files):
            zi = zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0))
            zi.external_attr = 0o644 << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, files[path])
    return name


def _package_files():
    out = {}
    for f in _FILES:
        with open(os.path.join(_HERE, _PACKAGE, f), "rb") as fh:
            out["%s/%s" % (_PACKAGE, f)] = fh.read()
    return out


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _wheel(wheel_directory, _package_files())


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """pip install -e ./python: a .pth file that puts this folder on sys.path."""
    return _wheel(wheel_directory, {"_glance_editable.pth": (_HERE + "\n").encode()})


def build_sdist(sdist_directory, config_settings=None):
    p = _project()
    dist = "%s-%s" % (p["name"], p["version"])
    name = dist + ".tar.gz"
    paths = ["pyproject.toml", "README.md", "_backend/glance_build.py"]
    paths += ["%s/%s" % (_PACKAGE, f) for f in _FILES]
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as t:
        for rel in paths:
            t.add(os.path.join(_HERE, rel), arcname="%s/%s" % (dist, rel))
        data = _metadata(p).encode("utf-8")
        ti = tarfile.TarInfo("%s/PKG-INFO" % dist)
        ti.size = len(data)
        t.addfile(ti, io.BytesIO(data))
    return name
