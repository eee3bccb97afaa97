#!/bin/sh
# Builds glance with AddressSanitizer and UndefinedBehaviorSanitizer in
# build-asan/ and runs every test under them; any report fails the test
# that made it (UBSan stops at its first finding, ASan always does).
set -eu
cd "$(dirname "$0")/.."
sh tools/install-deps.sh
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGLANCE_SANITIZE=ON >/dev/null
cmake --build build-asan -j "$(nproc)" >&2
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
ctest --test-dir build-asan --output-on-failure "$@"
