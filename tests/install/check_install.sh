#!/usr/bin/env bash
# Install the built tree into a scratch prefix, then build and run a program
# against it twice: through find_package(gsp) and through pkg-config.
set -euo pipefail
build=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src/consumer" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/cmake" >/dev/null
"$work/cmake/consumer"
pc=$(ls -d "$work"/prefix/lib*/pkgconfig)
libdir=$(dirname "$pc")
cc -o "$work/pc_consumer" "$src/consumer/main.c" $(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs gsp) \
   -Wl,-rpath,"$libdir"
"$work/pc_consumer"
[ -x "$work/prefix/bin/gsp" ] || { echo "gsp command line not installed" >&2; exit 1; }
echo "install: find_package and pkg-config consumers passed"
