#!/bin/sh
# Installs the dependencies, then configures and builds glance in build/.
# Extra arguments go to cmake's configure step (e.g. -DGLANCE_SANITIZE=ON).
set -eu
cd "$(dirname "$0")/.."
sh tools/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build build -j "$(nproc)" >&2 # progress on stderr: stdout is the page
