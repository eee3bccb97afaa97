#!/bin/sh
# tests/exports.sh LIBGLANCE.so HEADER: the shared library exports exactly
# the functions the public header declares (glance.map keeps the folders'
# own functions and litehtml's C++ local), each at the version node
# GLANCE_X.Y, and its SONAME is libglance.so.X.Y.
set -eu
so=$1
header=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -oE '\bglance_[a-z0-9_]+[[:space:]]*\(' "$header" | tr -d '( \t' | sort -u >"$tmp/header"
nm -D --defined-only "$so" | awk '$2 != "A" { print $3 }' >"$tmp/raw"
sed 's/@.*//' "$tmp/raw" | sort -u >"$tmp/exported"
if ! diff -u "$tmp/header" "$tmp/exported" >"$tmp/diff"; then
    echo "exports: the library's exports and the header's functions differ (- header, + library):" >&2
    cat "$tmp/diff" >&2
    exit 1
fi
if grep -v '@@GLANCE_[0-9]*\.[0-9]*$' "$tmp/raw" >"$tmp/unversioned"; then
    echo "exports: without a version node:" >&2
    cat "$tmp/unversioned" >&2
    exit 1
fi
soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
echo "$soname" | grep -qE '^libglance\.so\.[0-9]+(\.[0-9]+)?$' || { echo "exports: SONAME '$soname'" >&2; exit 1; }
echo "exports: $(wc -l <"$tmp/exported") functions, the header's and no other, SONAME $soname"
