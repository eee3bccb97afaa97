#!/bin/sh
# Builds the libFuzzer target with clang in build-fuzz/ and runs it for
# SECONDS (default 60): `sh tools/fuzz.sh 180`. The same as `make fuzz` in
# that build with FUZZ_SECONDS set.
set -eu
cd "$(dirname "$0")/.."
sh tools/install-fuzz-deps.sh
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DGLANCE_FUZZ=ON -DBUILD_TESTING=OFF >/dev/null
jobs=$(nproc); [ "$jobs" -gt 2 ] && jobs=2
cmake --build build-fuzz -j "$jobs" --target fuzz_extract >&2
FUZZ_SECONDS=${1:-60} make -C build-fuzz --no-print-directory fuzz
