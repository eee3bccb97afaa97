#!/bin/sh
# Installs what fitting the scorer needs (offline tooling only: glance never
# runs Python): Debian's XGBoost, scikit-learn and NumPy for Python 3.
set -eu
PACKAGES="python3-xgboost python3-sklearn python3-numpy"
missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
# --no-install-recommends: matplotlib's fonts (fonts-lyx) would change what
# glance measures text with.
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
