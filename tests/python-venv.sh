#!/bin/sh
# tests/python-venv.sh PYTHON MODULE[,MODULE] SOURCE_DIR TEST.py...: installs
# SOURCE_DIR/python with pip into a fresh virtual environment (Debian's
# python3-venv; --system-site-packages, so that Debian's pytest and Dask
# serve the tests; --no-index: the package's own build backend needs
# nothing from a package index), then runs the
# tests with pytest from outside the source tree, against the installed
# package. Skipped (exit 77) with a line naming the Debian package when
# python3, python3-venv or a module is missing, unless CI=true, where a
# missing package is a failure: tools/install-deps.sh installs them.
set -eu
py=$1
mods=$2
src=$(cd "$3" && pwd)
shift 3
skip() {
    if [ "${CI:-}" = true ]; then
        echo "FAIL (CI): $*"
        exit 1
    fi
    echo "skipped: $*"
    exit 77
}
[ -x "$py" ] || skip "$py is not installed (Debian's python3)"
"$py" -c 'import venv, ensurepip' >/dev/null 2>&1 || skip "python3-venv is not installed (import ensurepip failed)"
for m in $(echo "$mods" | tr ',' ' '); do
    if ! "$py" -c "import $m" >/dev/null 2>&1; then
        case $m in
        distributed) pkg=python3-distributed ;;
        *) pkg="python3-$m" ;;
        esac
        skip "$pkg is not installed (import $m failed)"
    fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$py" -m venv --system-site-packages "$tmp/venv"
PYTHONDONTWRITEBYTECODE=1 "$tmp/venv/bin/python" -m pip install -q --no-index --no-deps \
    --disable-pip-version-check "$src/python" >"$tmp/pip.log" 2>&1 || {
    cat "$tmp/pip.log"
    echo "FAIL: pip install ./python into a fresh virtual environment"
    exit 1
}
echo "installed: $("$tmp/venv/bin/python" -m pip show glance 2>/dev/null | sed -n 's/^\(Name\|Version\|Location\): //p' | tr '\n' ' ')"
unset PYTHONPATH
cd "$tmp"
GLANCE_EXPECT_VENV="$tmp/venv" "$tmp/venv/bin/python" -m pytest -q -p no:cacheprovider \
    --rootdir "$src/python/tests" "$@"
