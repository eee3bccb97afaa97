"""Records as glance batch reads them: JSON lines and WARC files.

read_records(path) yields one dict per record, {"id", "url", "html",
"charset", "status", "message"}, by the rules of glance batch (tools/batch.c):
a JSON line's id, url and html; a WARC response record's WARC-Record-ID
(without its angle brackets), WARC-Target-URI and HTTP payload, with its
transfer and content encodings undone and the charset of its Content-Type.
A record that is no page (an HTTP status other than 2xx, a type other than
HTML, a broken line) carries the status glance batch gives it ("fetch",
"badinput", ...) and a message; its html is None.

write_warc(path, pages) writes pages as a WARC file, gzip per record, as
Common Crawl publishes them (the tests make theirs with it).
"""
from __future__ import annotations

import gzip
import io
import json
import os
import uuid
import zlib
from typing import IO, Any, Dict, Iterable, Iterator, List, Mapping, Optional, Tuple, Union

__all__ = ["read_records", "read_jsonl", "read_warc", "write_warc"]


Record = Dict[str, Any]
Path = Union[str, "os.PathLike[str]"]


def _open(path: Path) -> IO[bytes]:
    f = open(path, "rb")
    head = f.read(2)
    f.seek(0)
    if head == b"\x1f\x8b":
        return gzip.GzipFile(fileobj=f)  # type: ignore[return-value]  # every member, one after another
    return f


def read_records(path: Path) -> Iterator[Record]:
    """The records of a JSON-lines or WARC file (either may be gzip data),
    told apart by their first bytes as glance batch tells them."""
    with _open(path) as f:
        first = f.peek(5)[:5] if hasattr(f, "peek") else b""
        if not first:
            pos = f.tell()
            first = f.read(5)
            f.seek(pos)
        reader = _warc if first.startswith(b"WARC/") else _jsonl
        yield from reader(f)


def read_jsonl(path: Path) -> Iterator[Record]:
    with _open(path) as f:
        yield from _jsonl(f)


def read_warc(path: Path) -> Iterator[Record]:
    with _open(path) as f:
        yield from _warc(f)


def _jsonl(f: IO[bytes]) -> Iterator[Record]:
    n = 0
    for line_no, raw in enumerate(f, 1):
        if not raw.strip():
            continue
        n += 1
        rec: Record = {"id": n, "url": None, "html": None, "charset": None, "status": None, "message": None}
        try:
            o = json.loads(raw)
        except ValueError:
            o = None
        if not isinstance(o, dict):
            rec.update(status="badinput", message="line %d: not a JSON object" % line_no)
            yield rec
            continue
        if o.get("id") is not None:
            rec["id"] = o["id"]
        if isinstance(o.get("url"), str):
            rec["url"] = o["url"]
        if isinstance(o.get("html"), str):
            rec["html"] = o["html"]
        elif rec["url"] is None:
            rec.update(status="badinput", message='line %d: a record needs "html" or "url"' % line_no)
        yield rec


def _headers(lines: Iterable[bytes]) -> Dict[str, str]:
    h: Dict[str, str] = {}
    for line in lines:
        name, sep, value = line.partition(b":")
        if sep:
            h.setdefault(name.strip().lower().decode("latin-1"), value.strip().decode("latin-1"))
    return h


def _charset(content_type: str) -> Optional[str]:
    for part in content_type.split(";")[1:]:
        part = part.strip()
        if part[:8].lower() == "charset=":
            v = part[8:].strip("\"'")
            v = v.split(" ")[0]
            return v or None
    return None


def _dechunk(body: bytes) -> Optional[bytes]:
    out, i = bytearray(), 0
    while True:
        nl = body.find(b"\n", i)
        if nl < 0:
            return None
        size = body[i:nl].split(b";")[0].strip()
        try:
            n = int(size, 16)
        except ValueError:
            return None
        i = nl + 1
        if n == 0:
            return bytes(out)
        if n > len(body) - i:
            return None
        out += body[i:i + n]
        i += n
        if body[i:i + 1] == b"\r":
            i += 1
        if body[i:i + 1] == b"\n":
            i += 1


def _payload(rec: Record, block: bytes) -> None:
    if not block.startswith(b"HTTP/"):
        rec["html"] = block
        return
    end, skip = block.find(b"\r\n\r\n"), 4
    lf = block.find(b"\n\n")
    if end < 0 or (0 <= lf < end):
        end, skip = lf, 2
    if end < 0:
        rec.update(status="badinput", message="an HTTP response without the end of its headers")
        return
    head = block[:end].split(b"\n")
    try:
        code = int(head[0].split(b" ")[1])
    except (IndexError, ValueError):
        code = 0
    h = _headers(l.rstrip(b"\r") for l in head[1:])
    ct = h.get("content-type")
    body = block[end + skip:]
    mime = (ct or "").split(";")[0].strip().lower()
    if not 200 <= code <= 299:
        rec.update(status="fetch", message="HTTP %d" % code)
        return
    if ct and mime not in ("text/html", "application/xhtml+xml"):
        rec.update(status="badinput", message="not HTML: %s" % ct)
        return
    if "chunked" in h.get("transfer-encoding", "").lower():
        plain = _dechunk(body)
        if plain is not None:
            body = plain
    ce = h.get("content-encoding", "").lower()
    try:
        if ce in ("gzip", "x-gzip"):
            body = gzip.decompress(body)
        elif ce == "deflate":
            try:
                body = zlib.decompress(body)
            except zlib.error:
                body = zlib.decompress(body, -zlib.MAX_WBITS)
        elif ce and ce != "identity":
            rec.update(status="badinput", message="Content-Encoding %s is not read" % ce)
            return
    except (OSError, zlib.error, EOFError):
        rec.update(status="badinput", message="broken %s payload" % ce)
        return
    rec["html"] = body
    rec["charset"] = _charset(ct) if ct else None


def _warc(f: IO[bytes]) -> Iterator[Record]:
    n = 0
    while True:
        line = f.readline()
        while line in (b"\r\n", b"\n"):
            line = f.readline()
        if not line:
            return
        if not line.startswith(b"WARC/"):
            raise ValueError("not a WARC record: %r" % line[:40])
        lines = []
        while True:
            line = f.readline()
            if not line:
                raise ValueError("a WARC header cut short")
            line = line.rstrip(b"\r\n")
            if not line:
                break
            lines.append(line)
        h = _headers(lines)
        length = int(h["content-length"])
        block = f.read(length)
        if len(block) != length:
            raise ValueError("a WARC record cut short")
        if h.get("warc-type", "").lower() != "response":
            continue
        n += 1
        rid = h.get("warc-record-id")
        if rid and rid.startswith("<") and rid.endswith(">"):
            rid = rid[1:-1]
        rec = {"id": rid if rid is not None else n, "url": h.get("warc-target-uri"),
               "html": None, "charset": None, "status": None, "message": None}
        _payload(rec, block)
        yield rec


def write_warc(path: Path, pages: Iterable[Mapping[str, Any]]) -> List[str]:
    """Writes `pages`, dicts {"url", "html" (bytes or str), "charset"?,
    "id"?, "status"? (HTTP, 200), "content_type"?, "headers"? (more HTTP
    headers, a list of (name, value))}, as WARC response records, one gzip
    member each, after a warcinfo record. Returns the record ids."""
    ids: List[str] = []
    with open(path, "wb") as out:
        def record(fields: List[Tuple[str, str]], block: bytes) -> None:
            head = "WARC/1.0\r\n" + "".join("%s: %s\r\n" % kv for kv in fields)
            head += "Content-Length: %d\r\n\r\n" % len(block)
            out.write(gzip.compress(head.encode("utf-8") + block + b"\r\n\r\n"))

        info = b"software: glance tests\r\nformat: WARC File Format 1.0\r\n"
        record([("WARC-Type", "warcinfo"), ("WARC-Record-ID", "<urn:uuid:%s>" % uuid.uuid4()),
                ("Content-Type", "application/warc-fields")], info)
        for p in pages:
            body = p["html"].encode(p.get("charset") or "utf-8") if isinstance(p["html"], str) else p["html"]
            ct = p.get("content_type") or "text/html" + ("; charset=%s" % p["charset"] if p.get("charset") else "")
            http = "HTTP/1.1 %d %s\r\nContent-Type: %s\r\n" % (p.get("status", 200), "OK", ct)
            for name, value in p.get("headers", ()):
                http += "%s: %s\r\n" % (name, value)
            http += "Content-Length: %d\r\n\r\n" % len(body)
            rid = p.get("id") or "urn:uuid:%s" % uuid.uuid4()
            ids.append(rid)
            record([("WARC-Type", "response"), ("WARC-Record-ID", "<%s>" % rid),
                    ("WARC-Target-URI", p["url"]), ("Content-Type", "application/http; msgtype=response")],
                   http.encode("latin-1") + body)
    return ids
