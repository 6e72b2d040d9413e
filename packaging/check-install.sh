#!/bin/sh
# Installs collworld into a temporary prefix, then builds packaging/consumer.c against it with
# pkg-config, linked statically and dynamically, and runs both; requires the Lua modules from
# each Lua installed here; then uninstalls and checks nothing
# is left.   usage: check-install.sh   (MAKE and CC from the environment)
set -eu
MAKE=${MAKE:-make}
CC=${CC:-cc}
prefix=$(mktemp -d "${TMPDIR:-/tmp}/collworld-prefix.XXXXXX")
trap 'rm -rf "$prefix"' EXIT

$MAKE --no-print-directory install PREFIX="$prefix" >/dev/null
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
echo "check-install: installed into $prefix:"
(cd "$prefix" && find . ! -type d | sort | sed "s|^\./|  |")
test "$(pkg-config --modversion collworld)" = "$(sed -n 's/^#define CW_VERSION_STRING "\(.*\)"/\1/p' include/collworld.h)"
lib="$prefix/lib"
test -L "$lib/libcollworld.so" && test -L "$lib/libcollworld.so.0"
test "$(readlink "$lib/libcollworld.so.0")" = "libcollworld.so.$(pkg-config --modversion collworld)"

out="$prefix/consumer"
# Shared: the program needs libcollworld.so.0 (the soname) at run time.
# shellcheck disable=SC2046
$CC -std=c11 -Wall -Wextra -Werror -o "$out-shared" packaging/consumer.c $(pkg-config --cflags --libs collworld)
readelf -d "$out-shared" | grep -q 'NEEDED.*\[libcollworld\.so\.0\]'
LD_LIBRARY_PATH="$lib" "$out-shared"
# Static: pkg-config --static adds the private libraries (-lm); -l:libcollworld.a makes the linker
# take the archive although the shared library sits next to it (libc and libm stay shared).
static_libs=$(pkg-config --static --libs collworld | sed 's/-lcollworld\b/-l:libcollworld.a/')
# shellcheck disable=SC2046,SC2086
$CC -std=c11 -Wall -Wextra -Werror -o "$out-static" packaging/consumer.c $(pkg-config --cflags collworld) $static_libs
if readelf -d "$out-static" | grep -q 'NEEDED.*libcollworld'; then
    echo "check-install: the static consumer still needs the shared library"; exit 1
fi
"$out-static"
rm -f "$out-shared" "$out-static"

# The Lua modules, where each Lua looks by default for that prefix (here pointed at with LUA_CPATH).
for lua in lua5.4 luajit; do
    command -v "$lua" >/dev/null || continue
    abi=$([ "$lua" = lua5.4 ] && echo 5.4 || echo 5.1)
    LUA_CPATH="$prefix/lib/lua/$abi/?.so" "$lua" -e \
        'local cw = require "collworld"; local w = cw.world(); w:body{ shape = cw.box(2, 2) }; w:body{ shape = cw.box(2, 2), x = 1 }; w:step(); assert(w:stats().touching_pairs == 1); print("lua consumer: " .. _VERSION .. ", collworld " .. cw.version .. " works")'
done

$MAKE --no-print-directory uninstall PREFIX="$prefix" >/dev/null
left=$(find "$prefix" ! -type d)
if [ -n "$left" ]; then echo "check-install: uninstall left files behind:"; echo "$left"; exit 1; fi
echo "check-install: static and shared consumers built with pkg-config and run; uninstall removed everything"
