#!/bin/sh
# README command 2: install, build, and run every test with ctest.
set -eu
cd "$(dirname "$0")/.."
sh tools/build.sh
ctest --test-dir build --output-on-failure "$@"
