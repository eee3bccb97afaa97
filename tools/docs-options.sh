#!/bin/sh
# Writes the options reference of docs/options.md, between its markers
# <!-- options: begin --> and <!-- options: end -->, from `glance options`
# (the library's one table, lib/options.c). ctest test_cli fails while the
# page and the build differ. Usage: sh tools/docs-options.sh [GLANCE]
# (default build/tools/glance).
set -eu
cd "$(dirname "$0")/.."
glance=${1:-build/tools/glance}
page=docs/options.md
table=$(mktemp)
out=$(mktemp)
trap 'rm -f "$table" "$out"' EXIT
"$glance" options >"$table"
grep -q '^<!-- options: begin -->$' "$page" && grep -q '^<!-- options: end -->$' "$page" || {
    echo "docs-options: $page has lost its markers" >&2
    exit 1
}
awk -v table="$table" '
    /^<!-- options: begin -->$/ { print; while ((getline line < table) > 0) print line; skip = 1; next }
    /^<!-- options: end -->$/ { skip = 0 }
    !skip { print }
' "$page" >"$out"
cat "$out" >"$page"
