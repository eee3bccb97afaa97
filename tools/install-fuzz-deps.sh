#!/bin/sh
# The fuzz and sanitizer path only (tools/fuzz.sh, .ci/run): clang 14 and
# its runtime libraries, which hold libFuzzer (-fsanitize=fuzzer), on top
# of what install-deps.sh installs.
set -eu
sh "$(dirname "$0")/install-deps.sh"
PACKAGES="clang libclang-rt-14-dev"
missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
echo "install-fuzz-deps: installing$missing" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
