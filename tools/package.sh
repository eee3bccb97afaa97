#!/bin/sh
# Builds the Debian packages glance, libglance0.2, libglance-dev and
# python3-glance (debian/, dpkg-buildpackage -b -us -uc) from a copy of the
# checkout, runs lintian on them (an error or a warning fails the run: a
# library package named other than its SONAME, say), unpacks them with
# dpkg -x into a temporary root and checks the unpacked files alone:
#   - the root's glance: --version, and the demo page's title;
#   - tests/install/run.sh --root: a program built with pkg-config (shared
#     and static) and with CMake's find_package on the root's header and
#     libraries;
#   - the root's Python module imported, loading the root's libglance.so.0.2.
# Installs the build-dependencies first (tools/install-deps.sh, then
# debhelper, dh-python, lintian), as CI (.ci/run) needs them.
# The .debs, the .buildinfo, .changes and lintian's output go to
# build-deb/ (PACKAGE_OUT to change it). Prints how long each step took.
set -eu
cd "$(dirname "$0")/.."
src=$(pwd)
out=${PACKAGE_OUT:-$src/build-deb}
t0=$(date +%s)
step() { echo "package: $* ($(($(date +%s) - t0)) s)" >&2; }

sh tools/install-deps.sh
PACKAGING="debhelper dh-python python3 dpkg-dev lintian fakeroot"
missing=""
for p in $PACKAGING; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    echo "package: installing$missing" >&2
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
step "build-dependencies installed"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A copy of the sources without the build folders, so that the checkout
# gets no obj-*/ or debian/.debhelper and the parent folder no .debs.
mkdir "$tmp/glance"
tar -C "$src" --exclude=./.git --exclude=./build --exclude='./build-*' \
    --exclude=./tools/node_modules --exclude='./obj-*' -cf - . | tar -C "$tmp/glance" -xf -
(cd "$tmp/glance" && dpkg-checkbuilddeps)
(cd "$tmp/glance" && nice dpkg-buildpackage -b -us -uc >"$tmp/build.log" 2>&1) || {
    tail -n 60 "$tmp/build.log"
    echo "package: FAILED: dpkg-buildpackage" >&2
    exit 1
}
step "dpkg-buildpackage -b -us -uc"

rm -rf "$out"
mkdir -p "$out"
cp "$tmp"/*.deb "$tmp"/*.changes "$tmp"/*.buildinfo "$out/"
cp "$tmp/build.log" "$out/build.log"
for p in glance libglance0.2 libglance-dev python3-glance; do
    ls "$out/${p}_"*.deb >/dev/null 2>&1 || { echo "package: FAILED: no ${p} package" >&2; exit 1; }
done
ls -l "$out"/*.deb >&2

# lintian: errors and warnings fail, the rest is printed (and kept in
# lintian.txt).
lintian --fail-on error,warning --display-info "$out"/*.changes >"$out/lintian.txt" 2>&1 || {
    cat "$out/lintian.txt"
    echo "package: FAILED: lintian reports errors or warnings" >&2
    exit 1
}
cat "$out/lintian.txt" >&2
step "lintian: no errors, no warnings"

# The unpacked root: nothing of the build folder, nothing installed.
root="$tmp/root"
for d in "$out"/*.deb; do
    dpkg -x "$d" "$root"
done
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
libdir="$root/usr/lib/$multiarch"
"$root/usr/bin/glance" --version | head -n 1
title=$("$root/usr/bin/glance" extract --offline "$src/fixtures/news.html" | head -n 1)
[ -n "$title" ] || { echo "package: FAILED: the root's glance gave no title" >&2; exit 1; }
echo "package: the unpacked glance: '$title'"
sh "$src/tests/install/run.sh" --root "$root" "$src"
env -u GLANCE_LIBRARY -u GLANCE_BUILD_DIR PYTHONPATH="$root/usr/lib/python3/dist-packages" \
    LD_LIBRARY_PATH="$libdir" ROOT="$root" FIXTURE="$src/fixtures/news.html" python3 -I -c '
import os, sys
sys.path.insert(0, os.environ["PYTHONPATH"])  # -I left out the environment
import glance
root = os.path.realpath(os.environ["ROOT"])
assert os.path.realpath(glance.__file__).startswith(root + os.sep), glance.__file__
assert os.path.isfile(os.path.join(os.path.dirname(glance.__file__), "py.typed"))
maps = {l.split()[-1] for l in open("/proc/self/maps") if "libglance" in l}
assert len(maps) == 1 and os.path.realpath(next(iter(maps))).startswith(root + os.sep), maps
page = glance.extract(open(os.environ["FIXTURE"]).read(), offline=True)
assert page["text"], page
print("package: the unpacked python3-glance %s over %s: %r" % (glance.__version__, next(iter(maps))[len(root):], page["title"]))
'
step "the unpacked packages work"
