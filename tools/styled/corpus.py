#!/usr/bin/python3
"""The styled documentation corpus: pages of Debian's documentation
packages, each with the stylesheets it links, and the text of each
generator's main container as truth.

Offline tooling, run by tools/styled/build.sh with Debian's python3 and
python3-lxml; the product never runs Python.

    corpus.py packages                 the packages, one a line
    corpus.py build SRC OUT            SRC/PKG/ holds each package unpacked
                                       (dpkg-deb -x), SRC/PKG.version its
                                       version; writes OUT/html/GEN/PKG/...
                                       and OUT/ground-truth.json
    corpus.py text GENERATOR PAGE      the truth of one page, as build
                                       takes it

Everything is deterministic: the candidate pages of a package sorted by
path, the sample evenly spaced over those that pass the filters.
"""
import json
import os
import posixpath
import re
import shutil
import sys

import lxml.html

# Generator, package, the folder of its HTML inside the package (the page
# ids and the copies keep the paths below it), pages wanted, the paths
# (below that folder) that are candidates (None: every .html) and the ones
# that never are: indexes, search pages, listings, source views, redirects.
PACKAGES = [
    # Sphinx, three themes: alabaster, Read the Docs, Sphinx's own.
    ("sphinx", "python-requests-doc", "usr/share/doc/python-requests-doc/html", 10, None,
     r"^(_sources|_modules|_static)/"),
    ("sphinx", "python-cryptography-doc", "usr/share/doc/python-cryptography-doc/html", 10, None,
     r"^(_sources|_modules|_static)/"),
    ("sphinx", "sphinx-doc", "usr/share/doc/sphinx-doc/html", 10, None,
     r"^(_sources|_modules|_static)/"),
    # Doxygen: its own manual (pages) and a C++ API (classes).
    ("doxygen", "doxygen-doc", "usr/share/doc/doxygen/html", 14, None, r"^examples/"),
    ("doxygen", "libvips-doc", "usr/share/doc/libvips-doc/html", 12, None,
     r"^search/|_source\.html$|-members\.html$|^(files|annotated|classes|hierarchy|functions.*"
     r"|globals.*|namespaces|namespacemembers.*|pages|modules|graph_legend|dir_.*|deprecated"
     r"|todo)\.html$"),
    # rustdoc: the standard library (not its generated intrinsics and SIMD
    # pages).
    ("rustdoc", "rust-doc", "usr/share/doc/rust-doc/html", 25, r"^std/",
     r"^std/(intrinsics|simd|arch)/|/all\.html$"),
    # mdBook: the Rust books that rust-doc ships (not the redirects of the
    # Book's old editions, nor the whole book on one page).
    ("mdbook", "rust-doc", "usr/share/doc/rust-doc/html", 16, r"^(book|nomicon|reference)/",
     r"^book/(first-edition|second-edition|2018-edition)/|(^|/)(print|toc)\.html$"),
    # Javadoc (the markup of JDK 11's).
    ("javadoc", "junit4-doc", "usr/share/doc/junit4/api", 12, None, r"^src-html/"),
    ("javadoc", "libjsoup-java-doc", "usr/share/doc/libjsoup-java/api", 12, None, r"^src-html/"),
    # Texinfo (makeinfo --html, split by node).
    ("texinfo", "m4-doc", "usr/share/doc/m4", 12, None, None),
    ("texinfo", "diffutils-doc", "usr/share/doc/diffutils", 12, None, None),
    # pandoc (markdown man pages, pandoc's standalone template).
    ("pandoc", "bup-doc", "usr/share/doc/bup", 22, None, None),
    # gtk-doc (DocBook XML through gtk-doc's XSL).
    ("gtk-doc", "libglib2.0-doc", "usr/share/gtk-doc/html", 16, None, None),
    ("gtk-doc", "libcairo2-doc", "usr/share/gtk-doc/html/cairo", 8, None, None),
    # gi-docgen (GObject introspection data).
    ("gi-docgen", "libpango1.0-doc", "usr/share/doc/libpango1.0-doc/reference", 20, None, None),
    # DocBook XSL (the DocBook stylesheets' own reference).
    ("docbook", "docbook-xsl-doc-html", "usr/share/doc/docbook-xsl-doc-html/doc", 20, None, None),
    # Haddock (Haskell modules).
    ("haddock", "libghc-aeson-doc", "usr/share/doc/libghc-aeson-doc/html", 6, None, r"^src/"),
    ("haddock", "libghc-optparse-applicative-doc",
     "usr/share/doc/libghc-optparse-applicative-doc/html", 6, None, r"^src/"),
    ("haddock", "libghc-megaparsec-doc", "usr/share/doc/libghc-megaparsec-doc/html", 6, None,
     r"^src/"),
]

# Packages that hold what the pages' links point at, unpacked beside them
# and never sampled.
SUPPORT = ["sphinx-rtd-theme-common", "libjs-highlight.js", "fonts-font-awesome"]

# File names that are never pages of prose, whatever the generator: indexes
# of every kind, search and settings pages, tables of contents, listings.
SKIP_NAMES = re.compile(
    r"^(index|genindex|search|py-modindex|modindex|searchindex|contents|toc"
    r"|doc-index.*|allclasses.*|allpackages.*|all-.*|deprecated-list|help-doc|overview-.*"
    r"|package-tree|package-summary|package-use|package-frame|constant-values|serialized-form"
    r"|index-all|api-index-.*|ix\d+|annotation-glossary|deprecated-api-index|object-tree"
    r"|classes_hierarchy|.*[-_]index|.*-Index|Index.*)\.html?$",
    re.I)
SKIP_DIRS = re.compile(r"(^|/)(class-use|index-files|search|jquery|legal|resources)/")

MIN_WORDS = 50      # of truth text
PARSED_PER_PAGE = 12  # candidates read per page wanted, at most
MAX_LINK_SHARE = 0.6  # of the truth's words inside links: a table of contents

WORD = re.compile(r"\w+")

# Elements whose text a reader never reads.
UNREAD = {"script", "style", "noscript", "template", "head", "title", "meta", "link", "iframe",
          "object", "embed", "svg", "math", "canvas", "button", "input", "select", "textarea"}
# Elements that start and end a line of text.
BLOCKS = {"address", "article", "aside", "blockquote", "body", "caption", "center", "dd",
          "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure",
          "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html",
          "legend", "li", "listing", "main", "menu", "nav", "ol", "p", "pre", "section",
          "summary", "table", "tbody", "tfoot", "thead", "tr", "ul", "xmp", "plaintext"}
CELLS = {"td", "th"}


def has_class(name):
    return "contains(concat(' ', normalize-space(@class), ' '), ' %s ')" % name


def cls(tag, name):
    return "//%s[%s]" % (tag, has_class(name))


# Per generator: the main container (XPath alternatives, the first that
# matches wins; "body" for the body itself) and the furniture inside it
# (XPath, removed before the text is read). See README.md beside this file.
RULES = {
    "sphinx": (
        ["//*[@itemprop='articleBody']", "//div[@role='main']", cls("div", "body")],
        [cls("a", "headerlink"), cls("a", "viewcode-link"), cls("span", "viewcode-link"),
         cls("div", "related"), cls("div", "sphinxsidebar"), "//footer",
         cls("div", "rst-footer-buttons"), cls("span", "linenos"), "//div[@id='searchbox']",
         cls("a", "viewcode-back")]),
    "doxygen": (
        [cls("div", "contents")],
        [cls("span", "permalink"), cls("div", "dynheader"), cls("div", "dyncontent"),
         "//a[normalize-space(.)='More...']", cls("div", "navpath"), cls("div", "ttc"),
         cls("div", "toc")]),
    "rustdoc": (
        ["//section[@id='main-content']", "//*[@id='main']"],
        [cls("a", "anchor"), cls("*", "out-of-band"), cls("a", "srclink"), cls("*", "rightside"),
         cls("summary", "hideme"), "//*[@id='copy-path']", cls("*", "notable-traits"),
         "//a[normalize-space(.)='Read more']", cls("a", "test-arrow"), cls("*", "tooltip")]),
    "mdbook": (
        ["//div[@id='content']//main", "//main"],
        [cls("nav", "nav-wrapper"), cls("nav", "nav-wide-wrapper"), cls("span", "boring")]),
    "javadoc": (
        ["//main", cls("div", "contentContainer")],
        [cls("div", "subNav"), cls("*", "skipNav"), cls("div", "topNav"), cls("span", "tableTab")]),
    "texinfo": (
        ["body"],
        [cls("div", "header"), cls("div", "nav-panel"), "//hr", cls("a", "copiable-anchor"),
         cls("a", "copiable-link"), cls("ul", "section-toc"), cls("ul", "mini-toc"),
         cls("table", "menu"), cls("div", "contents"), cls("div", "shortcontents")]),
    "pandoc": (
        ["body"],
        ["//header[@id='title-block-header']", "//nav[@id='TOC']"]),
    "gtk-doc": (
        [cls("div", "refentry"), "body"],
        [cls("table", "navigation"), cls("div", "footer"), cls("div", "toc")]),
    "gi-docgen": (
        ["//section[@id='main']"],
        [cls("a", "anchor"), cls("a", "srclink"), cls("div", "toc"), cls("*", "search")]),
    "docbook": (
        ["body"],
        [cls("div", "navheader"), cls("div", "navfooter"), cls("div", "toc")]),
    "haddock": (
        ["//div[@id='content']"],
        [cls("a", "link"), cls("a", "selflink"), "//div[@id='synopsis']",
         cls("table", "info"), "//div[@id='table-of-contents']", "//div[@id='footer']",
         cls("summary", "hide-when-js-enabled")]),
}


def parse(path):
    with open(path, "rb") as f:
        data = f.read()
    # Nearly every page is UTF-8 (or ASCII), said or not: libxml2 would take
    # a page without a <meta charset> as Latin-1. The few that are not say
    # their charset (texinfo's Latin-1 manuals).
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        said = re.search(rb"charset=[\"']?([A-Za-z0-9_-]+)", data[:4096])
        charset = said.group(1).decode("ascii") if said else "cp1252"
        try:
            data = data.decode(charset, errors="replace").encode("utf-8")
        except LookupError:
            data = data.decode("cp1252", errors="replace").encode("utf-8")
    parser = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True)
    return lxml.html.document_fromstring(data, parser=parser)


def hidden(el):
    """What no reader sees whatever the stylesheet: hidden, aria-hidden,
    display:none or visibility:hidden in its style attribute."""
    if el.get("hidden") is not None or el.get("aria-hidden") == "true":
        return True
    style = re.sub(r"\s+", "", (el.get("style") or "").lower())
    return "display:none" in style or "visibility:hidden" in style


def container(root, generator):
    """The generator's main container of a page, with its furniture and
    what no reader sees taken out; None when the page has none."""
    wanted, furniture = RULES[generator]
    el = None
    for xp in wanted:
        found = [root.find("body")] if xp == "body" else root.xpath(xp)
        if found and found[0] is not None:
            el = found[0]
            break
    if el is None:
        return None
    for xp in furniture:
        for f in el.xpath("." + xp):
            if f is not el and f.getparent() is not None:
                f.drop_tree()  # its tail, the text after it, stays
    # A closed <details> shows its <summary> alone.
    for d in list(el.iter("details")):
        if d.get("open") is None:
            d.text = None
            for k in list(d):
                if k.tag == "summary":
                    k.tail = None
                else:
                    d.remove(k)
    for f in list(el.iter()):
        if isinstance(f.tag, str) and f is not el and f.getparent() is not None and (
                f.tag in UNREAD or hidden(f)):
            f.drop_tree()
    return el


def text_of(el):
    """The text as a reader reads it: white space collapsed within a block,
    a line per block, table cells of a row on one line, code blocks (pre)
    kept line by line with their indentation."""
    lines, buf = [], []

    def flush():
        t = " ".join("".join(buf).split())
        if t:
            lines.append(t)
        buf.clear()

    def pre_text(e):
        out = [e.text or ""]
        for k in e:
            if isinstance(k.tag, str):
                out.append("\n" if k.tag == "br" else pre_text(k))
            out.append(k.tail or "")
        return "".join(out)

    def walk(e):
        tag = e.tag if isinstance(e.tag, str) else ""
        if tag == "br":
            flush()
        elif tag in ("pre", "xmp", "listing", "plaintext"):
            flush()
            code = pre_text(e).expandtabs(8).split("\n")
            lines.extend(l.rstrip() for l in code if l.strip())
        else:
            block = tag in BLOCKS
            if block:
                flush()
            if tag in CELLS:
                buf.append(" ")
            buf.append(e.text or "")
            for k in e:
                walk(k)
                buf.append(k.tail or "")
            if tag in CELLS:
                buf.append(" ")
            if block:
                flush()

    walk(el)
    flush()
    return "\n".join(lines)


def link_share(el):
    words = len(WORD.findall(el.text_content()))
    linked = sum(len(WORD.findall(a.text_content())) for a in el.iter("a") if a.get("href"))
    return linked / words if words else 1.0


URL_IMPORT = re.compile(r"""@import\s+(?:url\(\s*)?["']?([^"')\s;]+)""", re.I)


def local_ref(href):
    """A relative reference to a file, without its query and fragment;
    None for a URL with a scheme, a network path or an absolute path."""
    if not href:
        return None
    href = href.strip().split("#")[0].split("?")[0]
    if not href or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", href) or href.startswith("/"):
        return None
    return href


def stylesheets(root):
    """The page's relative stylesheet references: <link rel=stylesheet>
    (alternate ones too) and @imports of its <style> elements."""
    refs = []
    for link in root.iter("link"):
        if "stylesheet" in (link.get("rel") or "").lower().split():
            refs.append(link.get("href"))
    for style in root.iter("style"):
        refs.extend(URL_IMPORT.findall(style.text or ""))
    return [r for r in map(local_ref, refs) if r]


class Tree:
    """The packages unpacked side by side (SRC/PKG/usr/...) seen as one
    installed tree, so that a symbolic link into another package resolves
    as it does once both are installed (Read the Docs' theme.css is a link
    into sphinx-rtd-theme-common)."""

    def __init__(self, src):
        self.src = src
        self.packages = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))

    def lookup(self, vpath, first):
        for pkg in [first] + self.packages:
            real = os.path.join(self.src, pkg, vpath.lstrip("/"))
            if os.path.lexists(real):
                return real
        return None

    def resolve(self, vpath, first, hops=0):
        """The real file of an installed path, following links in any of
        its components; None when no package has it."""
        parts = [p for p in vpath.split("/") if p]
        cur = ""
        for i, part in enumerate(parts):
            cur += "/" + part
            real = self.lookup(cur, first)
            if real is None or hops > 40:
                return None
            if os.path.islink(real):
                target = os.readlink(real)
                base = "/" if target.startswith("/") else posixpath.dirname(cur)
                rest = "/".join(parts[i + 1:])
                new = posixpath.normpath(posixpath.join(base, target))
                return self.resolve(new + ("/" + rest if rest else ""), first, hops + 1)
        real = self.lookup(cur, first)
        return real if real and os.path.isfile(real) else None


def copy_with_sheets(tree, package, folder, rel, dst_root, copied, missing):
    """Copies page `rel` of the package's `folder` to `dst_root`, and every
    stylesheet it reaches (links, then @imports within the sheets) at the
    same path relative to the page, as files (a link's target). A sheet
    that no package has, or that lies outside the folder (the copy could
    not keep its path), is listed in `missing`."""
    src_root = os.path.join(tree.src, package, folder)
    os.makedirs(os.path.dirname(os.path.join(dst_root, rel)), exist_ok=True)
    shutil.copyfile(os.path.join(src_root, rel), os.path.join(dst_root, rel))
    todo = [(posixpath.dirname(rel), r) for r in stylesheets(parse(os.path.join(src_root, rel)))]
    while todo:
        base, ref = todo.pop()
        path = posixpath.normpath(posixpath.join(base, ref))
        if path in copied or path in missing:
            continue
        # Relative to the link, not to what a symbolic link points at, as a
        # browser resolves it.
        real = None if path.startswith("../") else tree.resolve("/%s/%s" % (folder, path), package)
        if real is None:
            missing.add(path)
            continue
        copied.add(path)
        os.makedirs(os.path.dirname(os.path.join(dst_root, path)), exist_ok=True)
        shutil.copyfile(real, os.path.join(dst_root, path))
        with open(real, "r", encoding="utf-8", errors="replace") as f:
            css = f.read()
        todo.extend((posixpath.dirname(path), r)
                    for r in map(local_ref, URL_IMPORT.findall(css)) if r)


def candidates(root, include, skip):
    """Every .html below `root` (those matching `include`), as sorted paths
    relative to it, less the ones no generator means as prose."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in filenames:
            if not name.endswith((".html", ".htm")):
                continue
            rel = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
            if SKIP_NAMES.match(name) or SKIP_DIRS.search(rel) or (skip and re.search(skip, rel)):
                continue
            if include and not re.search(include, rel):
                continue
            if os.path.islink(os.path.join(dirpath, name)):
                continue  # a page of another package, or a second name for one
            out.append(rel)
    return sorted(out)


def evenly(items, k):
    """k of the items, evenly spaced, the same every time."""
    if len(items) <= k:
        return list(items)
    step = len(items) / k
    return [items[int((i + 0.5) * step)] for i in range(k)]


def build(src, out):
    html_out = os.path.join(out, "html")
    if os.path.exists(html_out):
        shutil.rmtree(html_out)
    truth, report = {}, []
    tree = Tree(src)
    for generator, package, folder, want, include, skip in PACKAGES:
        root = os.path.join(src, package, folder)
        if not os.path.isdir(root):
            sys.exit("corpus.py: %s: no folder %s (was the package unpacked?)" % (package, folder))
        version = ""
        vpath = os.path.join(src, package + ".version")
        if os.path.exists(vpath):
            with open(vpath) as f:
                version = f.read().strip()
        eligible, short, listing, none = [], 0, 0, 0
        # Reading every page of a large package takes minutes: evenly spaced
        # candidates, PARSED_PER_PAGE times the pages wanted, do as well.
        for rel in evenly(candidates(root, include, skip), PARSED_PER_PAGE * want):
            el = container(parse(os.path.join(root, rel)), generator)
            if el is None:
                none += 1
                continue
            text = text_of(el)
            if len(WORD.findall(text)) < MIN_WORDS:
                short += 1
            elif link_share(el) > MAX_LINK_SHARE:
                listing += 1
            else:
                eligible.append((rel, text))
        chosen = evenly(eligible, want)
        dst_root = os.path.join(html_out, generator, package)
        copied, missing = set(), set()
        for rel, text in chosen:
            copy_with_sheets(tree, package, folder, rel, dst_root, copied, missing)
            page_id = "%s/%s/%s" % (generator, package, re.sub(r"\.html?$", "", rel))
            truth[page_id] = {
                "articleBody": text,
                "type": generator,
                "generator": generator,
                "package": package,
                "version": version,
                "url": "/" + posixpath.join(folder, rel),
            }
        report.append("%-10s %-32s %-14s %4d pages of %4d eligible (%d short, %d listings, "
                      "%d without the container); %d stylesheets%s" % (
                          generator, package, version, len(chosen), len(eligible), short, listing,
                          none, len(copied),
                          "; missing: " + ", ".join(sorted(missing)) if missing else ""))
    with open(os.path.join(out, "ground-truth.json"), "w", encoding="utf-8") as f:
        json.dump(truth, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")
    with open(os.path.join(out, "MANIFEST.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(report) + "\n")
    print("\n".join(report))
    counts = {}
    for v in truth.values():
        counts[v["generator"]] = counts.get(v["generator"], 0) + 1
    print("%d pages: %s" % (len(truth), ", ".join("%s %d" % kv for kv in sorted(counts.items()))))


def main(argv):
    if len(argv) == 2 and argv[1] == "packages":
        print("\n".join([p[1] for p in PACKAGES] + SUPPORT))
    elif len(argv) == 4 and argv[1] == "build":
        build(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "text" and argv[2] in RULES:
        el = container(parse(argv[3]), argv[2])
        if el is None:
            sys.exit("corpus.py: %s: no %s container" % (argv[3], argv[2]))
        print(text_of(el))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
