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
# DejaVu, and Noto CJK for Chinese, Japanese and Korean.
set -eu

PACKAGES="build-essential cmake pkg-config
liblitehtml-dev libgumbo-dev libcairo2-dev libfreetype-dev libfontconfig-dev
libharfbuzz-dev libjson-c-dev libcmocka-dev cmark-gfm zlib1g-dev
libcurl4-openssl-dev ca-certificates libuchardet-dev libmicrohttpd-dev
fonts-liberation2 fonts-dejavu-core fonts-noto-cjk fontconfig"

missing=""
for p in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
else
    SUDO="sudo"
fi
echo "install-deps: installing$missing" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
