#!/bin/sh
# tests/python.sh PYTHON MODULE[,MODULE] COMMAND...: runs COMMAND (with
# PYTHON in it) when PYTHON and the Debian packages of the modules are
# installed; else one line that says which is missing and exit 77, which
# ctest counts as skipped. tools/install-deps.sh installs them where Debian
# has them.
set -eu
py=$1
mods=$2
shift 2
if ! [ -x "$py" ]; then
    echo "skipped: $py is not installed (Debian's python3)"
    exit 77
fi
for m in $(echo "$mods" | tr ',' ' '); do
    [ "$m" = "-" ] && continue
    if ! "$py" -c "import $m" >/dev/null 2>&1; then
        case $m in
        distributed) pkg=python3-distributed ;;
        pytest) pkg=python3-pytest ;;
        *) pkg="python3-$m" ;;
        esac
        echo "skipped: $pkg is not installed (import $m failed)"
        exit 77
    fi
done
exec "$@"
