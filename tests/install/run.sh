#!/bin/sh
# tests/install/run.sh BUILD_DIR SOURCE_DIR: installs the build into a
# temporary prefix with cmake --install, then builds the consumer
# (consumer.c, copied out of the source tree) on the installed files only,
# three ways: pkg-config against libglance.so, pkg-config --static against
# libglance.a, and CMake's find_package(glance) with glance::glance. Each
# must link what it says (the shared library from the prefix, or none) and
# print the fixture's title and text, the three alike and the title as the
# installed glance command gives it.
# tests/install/run.sh --root ROOT SOURCE_DIR: the same checks on files
# already installed under ROOT/usr, as the Debian packages unpacked there
# with dpkg -x (tools/package.sh): glance.pc names /usr, which
# PKG_CONFIG_SYSROOT_DIR moves to ROOT; the man pages may be gzip'd.
set -eu
root=""
build=""
if [ "$1" = "--root" ]; then
    root=$(cd "$2" && pwd)
    shift
else
    build=$(cd "$1" && pwd)
fi
src=$(cd "$2" && pwd)
page="$src/fixtures/news.html"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "install: FAILED: $*" >&2; exit 1; }

if [ -n "$root" ]; then
    prefix="$root/usr"
    export PKG_CONFIG_SYSROOT_DIR="$root"
else
    prefix="$tmp/prefix"
    cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" || { cat "$tmp/install.log"; fail "cmake --install"; }
fi

# What was installed, wherever GNUInstallDirs put the library.
so=$(find "$prefix" -name 'libglance.so.*.*.*' | head -n 1)
[ -n "$so" ] || fail "no libglance.so.X.Y.Z installed"
libdir=$(dirname "$so")
soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ -n "$soname" ] && [ -L "$libdir/$soname" ] && [ -L "$libdir/libglance.so" ] ||
    fail "no SONAME link ($soname) or no libglance.so link in $libdir"
for f in "$prefix/bin/glance" "$prefix/include/glance.h" "$libdir/libglance.a" \
         "$libdir/pkgconfig/glance.pc" "$libdir/cmake/glance/glanceConfig.cmake" \
         "$libdir/cmake/glance/glanceConfigVersion.cmake" \
         "$prefix/share/man/man1/glance.1" "$prefix/share/man/man3/libglance.3"; do
    [ -e "$f" ] || [ -e "$f.gz" ] || fail "not installed: ${f#"$prefix"/}"
done
echo "install: installed into ${root:+the root }${root:-a temporary prefix}; library $soname in ${libdir#"$prefix"/}"

# The man pages read without groff's warnings (where groff is installed).
if command -v groff >/dev/null 2>&1; then
    for m in "$prefix/share/man/man1/glance.1" "$prefix/share/man/man3/libglance.3"; do
        [ -e "$m" ] || { gzip -dc "$m.gz" >"$tmp/$(basename "$m")"; m="$tmp/$(basename "$m")"; }
        w=$(groff -man -Tutf8 -ww -z "$m" 2>&1) || fail "groff: $m"
        [ -z "$w" ] || fail "groff warns on $(basename "$m"): $w"
    done
    echo "install: man pages glance(1) and libglance(3) format without warnings"
fi

mkdir "$tmp/src"
cp "$src/tests/install/consumer.c" "$src/tests/install/CMakeLists.txt" "$tmp/src/"
cd "$tmp/src"
CC=${CC:-cc}
export PKG_CONFIG_PATH="$libdir/pkgconfig"

# pkg-config, shared: the prefix's libglance.so, by its SONAME.
# shellcheck disable=SC2046
$CC -o consumer-pc consumer.c $(pkg-config --cflags --libs glance) || fail "pkg-config build"
readelf -d consumer-pc | grep -q "NEEDED.*\[$soname\]" || fail "consumer-pc does not need $soname"
LD_LIBRARY_PATH="$libdir" ldd ./consumer-pc | grep -q "$soname => $libdir/" ||
    fail "consumer-pc does not load the installed $soname"
LD_LIBRARY_PATH="$libdir" ./consumer-pc "$page" >out-pc.txt || fail "consumer-pc exit $?"
echo "install: pkg-config: built against libglance.so and ran"

# pkg-config --static: libglance.a and the private dependencies glance.pc
# lists; libglance.so is not needed at run time.
# As docs/library.md shows it: -l:libglance.a for -lglance.
libs=$(pkg-config --static --libs glance | sed 's/\(^\| \)-lglance\( \|$\)/ -l:libglance.a /')
# shellcheck disable=SC2046,SC2086
$CC -o consumer-static consumer.c $(pkg-config --cflags glance) $libs || fail "pkg-config --static build"
if readelf -d consumer-static | grep -q 'NEEDED.*libglance'; then
    fail "consumer-static needs libglance.so"
fi
./consumer-static "$page" >out-static.txt || fail "consumer-static exit $?"
echo "install: pkg-config --static: built against libglance.a and ran"

# CMake: find_package(glance) and glance::glance; the build's RPATH finds
# the installed library.
cmake -S . -B cbuild -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >cmake.log 2>&1 ||
    { cat cmake.log; fail "cmake configure of the consumer"; }
cmake --build cbuild >>cmake.log 2>&1 || { cat cmake.log; fail "cmake build of the consumer"; }
ldd cbuild/consumer | grep -q "$soname => $libdir/" || fail "the CMake consumer does not load the installed $soname"
./cbuild/consumer "$page" >out-cmake.txt || fail "cmake consumer exit $?"
echo "install: CMake find_package(glance): built against glance::glance and ran"

cmp -s out-pc.txt out-static.txt || fail "the static consumer's output differs"
cmp -s out-pc.txt out-cmake.txt || fail "the CMake consumer's output differs"
ver=$(sed -n 's/^version \([^ ]*\) (header \(.*\))$/\1 \2/p' out-pc.txt)
[ -n "$ver" ] && [ "${ver% *}" = "${ver#* }" ] || fail "library and header versions differ: $ver"
grep -qx 'status ok' out-pc.txt || fail "status: $(sed -n 2p out-pc.txt)"
want=$("$prefix/bin/glance" extract --offline "$page" | head -n 1)
got=$(sed -n 's/^title //p' out-pc.txt)
[ -n "$want" ] && [ "$got" = "$want" ] || fail "title '$got', the installed glance says '$want'"
[ "$(wc -l <out-pc.txt)" -gt 4 ] || fail "no text"
echo "install: 3 consumers on the installed files: version ${ver% *}, status ok, title '$got'"
