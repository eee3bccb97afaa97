#!/bin/sh
# Runs the fuzzer FUZZER for FUZZ_SECONDS (default 60) on one core, with
# the corpus in CORPUS_DIR seeded from fixtures/*.html. Crashes land in
# CORPUS_DIR/../fuzz-artifacts/; the exit status is the fuzzer's (0: none).
set -eu
fuzzer=$1
corpus=$2
here=$(cd "$(dirname "$0")/.." && pwd)
seconds=${FUZZ_SECONDS:-60}
mkdir -p "$corpus" "$corpus/../fuzz-artifacts"
cp "$here"/fixtures/*.html "$here"/fuzz/seeds/* "$corpus"/ 2>/dev/null || true
# -timeout: one input taking longer is a hang (a limit missing);
# -rss_limit_mb: one taking more memory is a bug too.
exec "$fuzzer" "$corpus" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -max_len=16384 -print_final_stats=1 \
    -artifact_prefix="$corpus/../fuzz-artifacts/" ${FUZZ_ARGS:-}
