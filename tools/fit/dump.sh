#!/bin/sh
# The scorer's blocks and features of every page of the development corpora,
# for fit.py: sh tools/fit/dump.sh [OUT_DIR] (default build/fit). Needs the
# corpora in ../shared/bench beside the checkout, and a built glance.
set -eu
cd "$(dirname "$0")/../.."
OUT=${1:-build/fit}
SHARED=${GLANCE_SHARED:-../shared/bench}
mkdir -p "$OUT"
for c in scrapinghub modern-dev lang-dev; do
    build/tools/glance dump --jobs "$(nproc)" --method score --set score.features=on \
        --pages "$SHARED/$c/html" --out "$OUT/$c.jsonl"
done
