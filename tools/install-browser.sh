#!/bin/sh
# Optional: what tools/chromium-boxes.mjs needs to write Chromium's boxes of
# a page (the fidelity fixtures' .boxes.json, `glance bench --fidelity`):
# Debian's chromium, Node.js with npm, and playwright-core pinned by
# tools/package-lock.json (installed into tools/node_modules; playwright's
# own browser download is not used). Neither the build nor the tests need it.
set -eu
cd "$(dirname "$0")"

PACKAGES="chromium nodejs npm"
missing=""
for p in $PACKAGES; do
    # Node.js may come from elsewhere than Debian (a newer one): a working
    # node and npm on the PATH are as good.
    case "$p" in
    nodejs) command -v node >/dev/null 2>&1 && continue ;;
    npm) command -v npm >/dev/null 2>&1 && continue ;;
    esac
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
    echo "install-browser: installing$missing" >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 20 ]; then
    echo "install-browser: playwright-core needs Node.js 20 or newer (this is $(node --version))" >&2
    exit 1
fi
# --ignore-scripts: playwright-core needs no install step, and no browser of
# its own is downloaded.
npm ci --ignore-scripts --no-audit --no-fund >&2
