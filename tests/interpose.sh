#!/bin/sh
# tests/interpose.sh GLANCE: the glance command's faster litehtml::value_index,
# litehtml::css_length::fromString and litehtml::html_tag::parse_background
# (render/container.cpp) take the place
# of litehtml's own only while (1) the command exports them and (2) Debian's
# liblitehtml.so.0 calls them through its PLT, which the dynamic linker binds
# to the first definition, the program's. A litehtml built with -Bsymbolic
# (or otherwise binding its calls inside itself) has no PLT slot for them,
# and a new litehtml may rename them: glance's answers stay the same
# (tests/test_styled.cpp), only slower, so this is the test that notices.
set -eu
glance=$1
value_index=_ZN8litehtml11value_indexERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEES7_ic
from_string=_ZN8litehtml10css_length10fromStringERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEES8_i
parse_background=_ZN8litehtml8html_tag16parse_backgroundEv
lib=$(ldd "$glance" | awk '$1 ~ /^liblitehtml\.so/ { print $3 }')
if [ -z "$lib" ] || ! [ -f "$lib" ]; then
    echo "FAIL: $glance is not linked with liblitehtml.so"
    exit 1
fi
fail=0
exported=$(nm -D --defined-only "$glance")
relocs=$(readelf -rW "$lib")
for sym in "$value_index" "$from_string" "$parse_background"; do
    if ! printf '%s\n' "$exported" | grep -q " T $sym\$"; then
        echo "FAIL: $glance does not export $sym (tools/CMakeLists.txt's --export-dynamic-symbol)"
        fail=1
    fi
    if ! printf '%s\n' "$relocs" | grep -q "JUMP_SLOT.* $sym + 0\$"; then
        echo "FAIL: $lib does not call $sym through its PLT (built with -Bsymbolic, or a litehtml that renamed it): glance's faster version is never called"
        fail=1
    fi
done
if readelf -dW "$lib" | grep -q '(SYMBOLIC)'; then
    echo "FAIL: $lib is linked with -Bsymbolic (DT_SYMBOLIC): its calls bind inside it"
    fail=1
fi
[ "$fail" -eq 0 ] && echo "ok: $lib calls value_index, css_length::fromString and html_tag::parse_background through its PLT; $glance exports all three"
exit "$fail"
