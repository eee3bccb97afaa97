"""glance: the main content of a web page, found where a reader's eye lands.

A thin binding over libglance.so (ctypes; nothing to compile):

    import glance
    page = glance.extract(html, url="https://example.org/a", method="auto")
    print(page["title"], page["text"])
    page = glance.extract_url("https://example.org/a", timeout=10)

Each returns the dict of `glance extract --format json` (title, text, html,
method, chosen, timings_ms, each method's details, ...). A status other
than "ok" raises GlanceError (NoContent for "nocontent", with the reasoning
in .result).

Options are the library's keys (glance_options_set, `glance options`):
keyword arguments with '_' for the '.' of a method's options
(gce_alpha=2 is "gce.alpha"), or a dict, options={"gce.alpha": "2"}.
True and False are "on" and "off". isolate=True works on each page in a
child process the library forks, killed past time_budget and a second and
bounded by max_memory (a GlanceError "costly" or "nomem"), rather than in
this process, where a page costly within the layout runs to its end.

The library, the first of: $GLANCE_LIBRARY when set (a path; nothing else
is tried then); libglance.so.0.2 as the dynamic loader finds it (an
installed glance: the Debian package libglance0.2, cmake --install); a build
folder beside this package (../../build/lib of a source tree's python/glance,
or $GLANCE_BUILD_DIR/lib). The ImportError says what was tried. Each thread gets its own
glance context (fonts), made on first use; ctypes lets go of the GIL
during an extraction, so threads extract in parallel.
"""
from __future__ import annotations

import ctypes
import json
import os
import threading
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from . import records  # noqa: F401  (glance.records: JSON lines and WARC)

__all__ = ["extract", "extract_url", "extract_record", "GlanceError", "NoContent",
           "options", "methods", "library_version", "STATUS_NAMES"]

_SONAME = "libglance.so.0.2"


class GlanceError(Exception):
    """A status other than "ok": .status (the number, GLANCE_E*), .name
    ("badinput", "toobig", "fetch", ...; glance_status_name), .message (the
    library's one line) and .result (the JSON as a dict when the page got
    that far, else None)."""

    def __init__(self, status: int, name: str, message: Optional[str],
                 result: Optional[Dict[str, Any]] = None) -> None:
        super().__init__("%s: %s" % (name, message))
        self.status = status
        self.name = name
        self.message = message
        self.result = result


class NoContent(GlanceError):
    """The page was laid out, but no main content was found."""


def _candidates() -> List[str]:
    """Where libglance.so is looked for, in order (GLANCE_LIBRARY alone when
    set)."""
    env = os.environ.get("GLANCE_LIBRARY")
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    builds = [os.environ["GLANCE_BUILD_DIR"]] if os.environ.get("GLANCE_BUILD_DIR") else []
    builds.append(os.path.join(here, "..", "..", "build"))
    return [_SONAME] + [os.path.normpath(os.path.join(b, "lib", _SONAME)) for b in builds]


def _open_library() -> ctypes.CDLL:
    tried = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            where = "GLANCE_LIBRARY=" + path if path == os.environ.get("GLANCE_LIBRARY") else \
                path + (" (the system's library path)" if path == _SONAME else " (a build folder)")
            tried.append("%s: %s" % (where, e))
    raise ImportError("glance: cannot load libglance.so; tried:\n  " + "\n  ".join(tried) +
                      "\nInstall libglance0.2 (Debian) or glance (cmake --install), or set "
                      "GLANCE_LIBRARY to the path of libglance.so")


def _load() -> ctypes.CDLL:
    lib = _open_library()
    c_char_p, c_void_p, c_int, c_size_t = ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t
    sig = {
        "glance_version": (c_char_p, []),
        "glance_status_name": (c_char_p, [c_int]),
        "glance_strerror": (c_char_p, [c_int]),
        "glance_context_new": (c_void_p, []),
        "glance_context_free": (None, [c_void_p]),
        "glance_options_new": (c_void_p, []),
        "glance_options_free": (None, [c_void_p]),
        "glance_options_set": (c_int, [c_void_p, c_char_p, c_char_p]),
        "glance_options_error": (c_char_p, [c_void_p]),
        "glance_option_count": (c_int, []),
        "glance_method_count": (c_int, []),
        "glance_method_name": (c_char_p, [c_int]),
        "glance_extract_page": (c_int, [c_void_p, c_char_p, c_size_t, c_char_p, c_char_p, c_void_p,
                                        ctypes.POINTER(c_void_p)]),
        "glance_extract_url": (c_int, [c_void_p, c_char_p, c_void_p, ctypes.POINTER(c_void_p)]),
        "glance_result_json": (c_char_p, [c_void_p]),
        "glance_result_message": (c_char_p, [c_void_p, c_int]),
        "glance_result_free": (None, [c_void_p]),
    }
    for name, (res, args) in sig.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    return lib


_lib = _load()


class _OptionInfo(ctypes.Structure):
    _fields_ = [("size", ctypes.c_size_t), ("key", ctypes.c_char_p), ("alias", ctypes.c_char_p),
                ("group", ctypes.c_char_p), ("type", ctypes.c_char_p), ("def_", ctypes.c_char_p),
                ("choices", ctypes.c_char_p), ("doc", ctypes.c_char_p), ("min", ctypes.c_double),
                ("max", ctypes.c_double), ("above_min", ctypes.c_int), ("flags", ctypes.c_uint)]


_lib.glance_option_describe.restype = ctypes.c_int
_lib.glance_option_describe.argtypes = [ctypes.c_int, ctypes.POINTER(_OptionInfo)]


def _s(b: Optional[bytes]) -> Optional[str]:
    return None if b is None else b.decode("utf-8", "replace")


def library_version() -> str:
    """The version of the libglance.so loaded ("0.2.0")."""
    return _s(_lib.glance_version()) or ""


__version__ = library_version()

STATUS_NAMES: Dict[int, str] = {i: _s(_lib.glance_status_name(i)) or str(i) for i in range(17)}


def options() -> List[Dict[str, Optional[str]]]:
    """Every option of the library: a list of dicts {key, group, type,
    default, choices, doc}, as `glance options` prints them."""
    out = []
    for i in range(_lib.glance_option_count()):
        info = _OptionInfo()
        info.size = ctypes.sizeof(_OptionInfo)
        if _lib.glance_option_describe(i, ctypes.byref(info)) == 0:
            out.append({"key": _s(info.key), "alias": _s(info.alias), "group": _s(info.group),
                        "type": _s(info.type), "default": _s(info.def_),
                        "choices": _s(info.choices), "doc": _s(info.doc)})
    return out


def methods() -> List[str]:
    """The names "method" takes besides auto and all ("gce", "bte", ...)."""
    return [_s(_lib.glance_method_name(i)) or "" for i in range(_lib.glance_method_count())]


# A keyword's option key: "gce_alpha" is "gce.alpha" (a method's options
# are "METHOD.NAME"); a page's option is its own key ("max_depth").
_KEYS: Dict[str, str] = {}
for _o in options():
    _key = _o["key"] or ""
    _KEYS[_key.replace(".", "_")] = _key
    if _o["alias"]:
        _KEYS.setdefault(_o["alias"].replace("-", "_"), _key)


def _value(v: Any) -> str:
    if v is True:
        return "on"
    if v is False:
        return "off"
    if isinstance(v, (tuple, list)) and len(v) == 2:
        return "%sx%s" % tuple(v)  # window=(1280, 1024)
    return str(v)


class _Options:
    """A glance_options built from keywords, freed with the object."""

    def __init__(self, options: Optional[Mapping[str, Any]] = None,
                 kw: Optional[Mapping[str, Any]] = None) -> None:
        self.ptr = _lib.glance_options_new()
        if not self.ptr:
            raise MemoryError("glance_options_new")
        items = list((options or {}).items()) + [(_KEYS.get(k, k), v) for k, v in (kw or {}).items()]
        for key, value in items:
            st = _lib.glance_options_set(self.ptr, key.encode(), _value(value).encode())
            if st != 0:
                msg = _s(_lib.glance_options_error(self.ptr))
                raise GlanceError(st, STATUS_NAMES.get(st, str(st)), msg)

    def __del__(self) -> None:
        if getattr(self, "ptr", None):
            _lib.glance_options_free(self.ptr)
            self.ptr = None


class _Context:
    def __init__(self) -> None:
        self.ptr = _lib.glance_context_new()
        if not self.ptr:
            raise GlanceError(8, "fonts", "cannot set up fonts (is fontconfig configured and a font installed?)")

    def __del__(self) -> None:
        if getattr(self, "ptr", None):
            _lib.glance_context_free(self.ptr)
            self.ptr = None


_local = threading.local()


def _context() -> int:
    ctx = getattr(_local, "ctx", None)
    if ctx is None:
        ctx = _local.ctx = _Context()
    return int(ctx.ptr)


def _finish(st: int, res: Optional[int]) -> Dict[str, Any]:
    try:
        text = _lib.glance_result_json(res) if res else None
        result: Optional[Dict[str, Any]] = json.loads(text) if text else None
        if st == 0:
            return result if result is not None else {}
        name = STATUS_NAMES.get(st, str(st))
        message = _s(_lib.glance_result_message(res, st))
        if st == 1:
            raise NoContent(st, name, message, result)
        raise GlanceError(st, name, message, result)
    finally:
        if res:
            _lib.glance_result_free(res)


def extract(html: Union[str, bytes, bytearray, memoryview], url: Optional[str] = None,
            charset: Optional[str] = None, options: Optional[Mapping[str, Any]] = None,
            **kw: Any) -> Dict[str, Any]:
    """The main content of a page: `html` as str (read as UTF-8) or bytes
    (in `charset`, the one its Content-Type named, else as a BOM, <meta> or
    detection say). `url` is where it came from (http or https: relative
    stylesheet links resolve against it and are fetched unless offline=True;
    another URL is ignored). Returns the dict of `glance extract --format
    json`; raises NoContent or GlanceError."""
    if isinstance(html, str):
        html = html.encode("utf-8")
    elif not isinstance(html, (bytes, bytearray, memoryview)):
        raise TypeError("html: str or bytes, not %s" % type(html).__name__)
    html = bytes(html)
    base = url if isinstance(url, str) and url[:7].lower() == "http://" or \
        isinstance(url, str) and url[:8].lower() == "https://" else None
    opts = _Options(options, kw)
    res = ctypes.c_void_p()
    st = _lib.glance_extract_page(_context(), html, len(html), charset.encode() if charset else None,
                                  base.encode() if base else None, opts.ptr, ctypes.byref(res))
    return _finish(st, res.value)


def extract_url(url: str, options: Optional[Mapping[str, Any]] = None, **kw: Any) -> Dict[str, Any]:
    """Fetches `url` (http or https) with its stylesheets and extracts it,
    as extract() does; a page that cannot be fetched raises GlanceError
    ("fetch", "timeout", "badurl", ...)."""
    opts = _Options(options, kw)
    res = ctypes.c_void_p()
    st = _lib.glance_extract_url(_context(), url.encode("utf-8"), opts.ptr, ctypes.byref(res))
    return _finish(st, res.value)


def extract_record(record: Mapping[str, Any], fields: Sequence[str] = ("title", "text"),
                   options: Optional[Mapping[str, Any]] = None, **kw: Any) -> Dict[str, Any]:
    """A record of glance.records (a JSON line's or a WARC response's) as
    `glance batch` answers it: {"id", "status", the fields asked for, and
    "message" when the status is not ok or nocontent}. Never raises for the
    page's sake: the status says what happened."""
    out: Dict[str, Any] = {"id": record.get("id")}
    result: Optional[Dict[str, Any]] = None
    status: Optional[str] = record.get("status")
    message: Optional[str] = record.get("message")
    if status is None:
        try:
            if record.get("html") is not None:
                result = extract(record["html"], url=record.get("url"), charset=record.get("charset"),
                                 options=options, **kw)
            else:
                result = extract_url(record["url"], options=options, **kw)
            status = "ok"
        except GlanceError as e:
            result, status, message = e.result, e.name, e.message
            if status == "badoption":
                raise
    out["status"] = status
    for f in fields:
        if f in ("id", "status", "message"):
            continue
        if f == "url":
            out[f] = record.get("url")
        else:
            out[f] = result.get(f) if result else None
    if "message" in fields or status not in ("ok", "nocontent"):
        out["message"] = message if status != "ok" else None
    return out
