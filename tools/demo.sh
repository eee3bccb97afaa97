#!/bin/sh
# README command 1: install, build, and extract the main content of the
# embedded news page (no network needed).
set -eu
cd "$(dirname "$0")/.."
sh tools/build.sh
exec build/tools/glance extract fixtures/news.html "$@"
