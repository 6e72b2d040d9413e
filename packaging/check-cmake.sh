#!/bin/sh
# The CMake package, as a CMake user meets it: the consumer project (packaging/cmake-consumer)
# built through add_subdirectory, then through find_package after cmake --install into a
# temporary prefix (with a version request that must be refused), each run.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
consumer="$top/packaging/cmake-consumer"

echo "check-cmake: add_subdirectory"
cmake -S "$consumer" -B "$work/sub" -DCOLLWORLD_SOURCE_DIR="$top" >/dev/null
cmake --build "$work/sub" -j2 >/dev/null
"$work/sub/consumer" >/dev/null && "$work/sub/consumer_static" >/dev/null

echo "check-cmake: cmake --install, then find_package(collworld 0.5 CONFIG)"
cmake -S "$top" -B "$work/lib" -DCMAKE_INSTALL_PREFIX="$work/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/lib" -j2 >/dev/null
cmake --install "$work/lib" >/dev/null
"$top/packaging/check-exports.sh" "$work/prefix/lib/libcollworld.so" "$top/include/collworld.h"
cmake -S "$consumer" -B "$work/found" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/found" -j2 >/dev/null
LD_LIBRARY_PATH="$work/prefix/lib" "$work/found/consumer" >/dev/null
"$work/found/consumer_static" >/dev/null
# The shared consumer really uses the installed shared library.
LD_LIBRARY_PATH="$work/prefix/lib" ldd "$work/found/consumer" | grep -q "$work/prefix/lib/libcollworld.so.0"

echo "check-cmake: find_package(collworld 0.2) finds it, find_package(collworld 9.0) must not"
mkdir -p "$work/older" "$work/too-new"
printf 'cmake_minimum_required(VERSION 3.16)\nproject(p C)\nfind_package(collworld 0.2 CONFIG REQUIRED)\n' \
    >"$work/older/CMakeLists.txt"
cmake -S "$work/older" -B "$work/older/build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
printf 'cmake_minimum_required(VERSION 3.16)\nproject(p C)\nfind_package(collworld 9.0 CONFIG REQUIRED)\n' \
    >"$work/too-new/CMakeLists.txt"
if cmake -S "$work/too-new" -B "$work/too-new/build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null 2>&1; then
    echo "check-cmake: find_package(collworld 9.0) succeeded against $(sed -n 's/.*PACKAGE_VERSION "\(.*\)".*/\1/p' "$work/prefix/lib/cmake/collworld/collworldConfigVersion.cmake")"
    exit 1
fi
echo "check-cmake: ok"
