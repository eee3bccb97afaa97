#!/bin/sh
# Builds the styled documentation corpus: pages of Debian documentation
# packages made by eleven generators (Sphinx, Doxygen, rustdoc, mdBook, Javadoc,
# Texinfo, pandoc, gtk-doc, gi-docgen, DocBook XSL, Haddock), each copied
# with the stylesheets it links, and the text of each generator's main
# container as truth (README.md beside this file). About a minute.
#
#     sh tools/styled/build.sh [OUT]        default: build/styled
#
# Writes OUT/html/GENERATOR/PACKAGE/... (the pages and their stylesheets,
# paths as in the package), OUT/ground-truth.json and OUT/MANIFEST.txt;
# keeps the packages in OUT/debs/ and unpacks them in OUT/src/. The packages
# are downloaded and unpacked, not installed: the machine's packages (and
# its fonts) stay as they are, and no documentation package drags in
# another's (sphinx-doc depends on python3-doc). Never commit OUT.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
OUT=$(realpath -m "${1:-$REPO/build/styled}")
case "$OUT/" in
"$REPO"/build/* | "$REPO"/build-*/*) ;;
"$REPO"/*) echo "build.sh: $OUT is inside the repository: give a folder outside it, or under build/" >&2; exit 2 ;;
esac
mkdir -p "$OUT"

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
    # apt's sandbox user cannot write into a folder of ours.
    APT_AS="-o APT::Sandbox::User=root"
else
    SUDO="sudo"
    APT_AS=""
fi

# The tooling: Debian's python3 with lxml (offline tools only).
if ! /usr/bin/python3 -c "import lxml.html" 2>/dev/null; then
    echo "build.sh: installing python3-lxml" >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3 python3-lxml >/dev/null
fi

PY="/usr/bin/python3 $HERE/corpus.py"
PACKAGES=$($PY packages | sort -u)

# The packages, by name, through apt: about 31 MB in all (rust-doc 17 MB),
# 690 MB unpacked (rust-doc 520 MB).
mkdir -p "$OUT/debs"
missing=""
for p in $PACKAGES; do
    ls "$OUT/debs/${p}_"*.deb >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "build.sh: downloading$missing" >&2
    if ! (cd "$OUT/debs" && apt-get download -q $APT_AS $missing >/dev/null); then
        # An empty or old package list: read it again, then once more.
        $SUDO apt-get update -qq
        (cd "$OUT/debs" && apt-get download -q $APT_AS $missing >/dev/null)
    fi
fi

rm -rf "$OUT/src"
mkdir -p "$OUT/src"
for p in $PACKAGES; do
    deb=$(ls "$OUT/debs/${p}_"*.deb | sort | tail -n 1)
    mkdir -p "$OUT/src/$p"
    dpkg-deb -x "$deb" "$OUT/src/$p"
    dpkg-deb -f "$deb" Version >"$OUT/src/$p.version"
done

$PY build "$OUT/src" "$OUT"
echo "build.sh: $OUT/html and $OUT/ground-truth.json" >&2
echo "    build/tools/glance bench --pages $OUT/html --truth $OUT/ground-truth.json" >&2
