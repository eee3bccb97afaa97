#!/bin/sh
# Cross-validation of glance itself, rules and all: each page of the
# development corpora answered by a glance whose model was fitted without
# that page's site, then scored as glance bench scores.
#
#   tools/fit/fit.py --dump build/fit --fold-models build/folds
#   sh tools/fit/cv.sh build/folds [BUILD_DIR]
#
# Builds glance once per fold (BUILD_DIR, default build-cv, configured with
# -DGLANCE_SCORE_MODEL), runs glance bench --out on every corpus with it,
# keeps each page's text from the fold that held the page out, and prints
# glance bench --score of the texts kept (written to FOLDS/cv-CORPUS.json).
# The styled corpus is included when GLANCE_TRUTH_STYLED names its truth
# (its pages beside it, in html/). GLANCE_CV_ARGS is given to glance bench:
# "--engine chromium --offline" answers with the browser.
set -eu
[ $# -ge 1 ] || { echo "usage: sh tools/fit/cv.sh FOLDS_DIR [BUILD_DIR]" >&2; exit 2; }
# The folders as given, from where the command is run; then the checkout.
FOLDS=$(cd "$1" && pwd)
B=${2:-}
if [ -n "$B" ]; then mkdir -p "$B" && B=$(cd "$B" && pwd); fi
case "${GLANCE_TRUTH_STYLED:-}" in "" | /*) ;; *) GLANCE_TRUTH_STYLED=$PWD/$GLANCE_TRUTH_STYLED ;; esac
case "${GLANCE_SHARED:-}" in "" | /*) ;; *) GLANCE_SHARED=$PWD/$GLANCE_SHARED ;; esac
cd "$(dirname "$0")/../.."
B=${B:-$PWD/build-cv}
SHARED=${GLANCE_SHARED:-../shared/bench}
[ -f "$FOLDS/fold1.c" ] || { echo "cv.sh: no fold1.c in $FOLDS (fit.py --fold-models)" >&2; exit 2; }
corpora="scrapinghub modern-dev lang-dev"
[ -n "${GLANCE_TRUTH_STYLED:-}" ] && corpora="$corpora styled"
pages() { # the pages and the truth of a corpus
    if [ "$1" = styled ]; then
        echo "$(dirname "$GLANCE_TRUTH_STYLED")/html $GLANCE_TRUTH_STYLED"
    else
        echo "$SHARED/$1/html $SHARED/$1/ground-truth.json"
    fi
}
mkdir -p "$B"
cp "$FOLDS/fold1.c" "$B/model.c"
cmake -S . -B "$B" -DGLANCE_SCORE_MODEL="$B/model.c" >/dev/null
k=1
while [ -f "$FOLDS/fold$k.c" ]; do
    cmp -s "$FOLDS/fold$k.c" "$B/model.c" || cp "$FOLDS/fold$k.c" "$B/model.c"
    cmake --build "$B" --target glance -j "$(nproc)" >/dev/null
    for c in $corpora; do
        set -- $(pages "$c")
        # shellcheck disable=SC2086 # options, split on purpose
        "$B/tools/glance" bench --jobs "$(nproc)" ${GLANCE_CV_ARGS:-} --pages "$1" --truth "$2" \
            --out "$FOLDS/fold$k-$c.json" >/dev/null
    done
    echo "cv.sh: fold $k answered" >&2
    k=$((k + 1))
done
for c in $corpora; do
    set -- $(pages "$c")
    python3 - "$FOLDS" "$c" <<'PY'
import glob, json, os, sys
folds, corpus = sys.argv[1], sys.argv[2]
kept, first = {}, None
for ids in sorted(glob.glob(os.path.join(folds, "fold*.ids"))):
    k = os.path.basename(ids)[4:-4]
    mine = {line.rstrip("\n").split("\t", 1)[1] for line in open(ids)
            if line.split("\t", 1)[0] == corpus}
    out = json.load(open(os.path.join(folds, f"fold{k}-{corpus}.json")))["output"]
    kept.update({i: t for i, t in out.items() if i in mine})
    first = first or out
# A page no model was fitted on (no blocks, or no truth): any fold's answer.
for i, t in (first or {}).items():
    kept.setdefault(i, t)
json.dump(kept, open(os.path.join(folds, f"cv-{corpus}.json"), "w"), ensure_ascii=False)
PY
    echo "== $c, cross-validated"
    "$B/tools/glance" bench --score "$FOLDS/cv-$c.json" --truth "$2"
done
