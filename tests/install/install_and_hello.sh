#!/usr/bin/env bash
# install_and_hello.sh BUILD_DIR SOURCE_DIR: install, build hello_tessera with find_package and with
# pkg-config against the installed files only, run both.
set -euo pipefail
build=$1 src=$2
work=$build/install-test
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src/examples/hello_tessera" -B "$work/hello-cmake" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/hello-cmake" >/dev/null
"$work/hello-cmake/hello_tessera"
libdir=$(ls -d "$work"/prefix/lib*/pkgconfig | head -1)
export PKG_CONFIG_PATH=$libdir
c++ "$src/examples/hello_tessera/main.cpp" -o "$work/hello-pkgconfig" $(pkg-config --cflags --libs tessera) \
    -Wl,-rpath,"$(pkg-config --variable=libdir tessera)"
"$work/hello-pkgconfig"
