#!/bin/sh
# Installs what glance needs to build, test and run on Debian 12: the
# libraries (litehtml and its parser gumbo, cairo, FreeType, fontconfig,
# HarfBuzz, json-c, zlib for .gz corpora, libcurl and the CA certificates
# for pages from URLs, uchardet for undeclared charsets), the test framework
# (cmocka) and cmark-gfm (the Markdown parser the tests read glance's
# Markdown back with: CommonMark with GitHub's tables), the build tools,
# and the fonts: Liberation (metric-compatible
# with Arial, Helvetica, Times New Roman
# and Courier New, so text measures as browsers on Linux measure it),
# DejaVu, and Noto CJK for Chinese, Japanese and Korean; and Debian's
# chromium, the browser of --engine chromium (and auto), which glance drives
# over the DevTools protocol from C (no Node.js). Then, for the
# tests of the Python package (installed with pip into a fresh virtual
# environment: python3-venv) and of a Dask run, Debian's python3 with
# python3-pytest and python3-distributed: where they cannot be installed,
# a line says so and those tests are skipped (tests/python.sh,
# tests/python-venv.sh; not under CI=true, where they fail).
# --no-install-recommends throughout: recommended packages (matplotlib's,
# through Dask) bring fonts that change glance's text measurement.
set -eu

PACKAGES="build-essential cmake pkg-config
liblitehtml-dev libgumbo-dev libcairo2-dev libfreetype-dev libfontconfig-dev
libharfbuzz-dev libjson-c-dev libcmocka-dev cmark-gfm zlib1g-dev
libcurl4-openssl-dev ca-certificates libuchardet-dev libmicrohttpd-dev libjemalloc-dev
fonts-liberation2 fonts-dejavu-core fonts-noto-cjk fontconfig chromium"

OPTIONAL="python3 python3-venv python3-pytest python3-distributed"

missing_of() {
    for p in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
            printf ' %s' "$p"
        fi
    done
}
# shellcheck disable=SC2086
missing=$(missing_of $PACKAGES)
# shellcheck disable=SC2086
optional=$(missing_of $OPTIONAL)
[ -z "$missing$optional" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
else
    SUDO="sudo"
fi
$SUDO apt-get update -qq
if [ -n "$missing" ]; then
    echo "install-deps: installing$missing" >&2
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
for p in $optional; do
    echo "install-deps: installing $p" >&2
    if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$p" >/dev/null; then
        echo "install-deps: could not install $p: the tests that need it will be skipped" >&2
    fi
done
