#!/usr/bin/env bash
# install_and_hello.sh BUILD_DIR SOURCE_DIR [CXX [FLAGS]]: install, build hello_tessera with
# find_package and with pkg-config against the installed files only, run both. CXX (default c++) and
# FLAGS are the compiler and the extra compile-and-link flags of Tessera's own build: a program that
# links a sanitized libtessera must be built with the same -fsanitize flags.
set -euo pipefail
build=$1 src=$2 cxx=${3:-c++} flags=${4:-}
work=$build/install-test
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src/examples/hello_tessera" -B "$work/hello-cmake" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$flags" >/dev/null
cmake --build "$work/hello-cmake" >/dev/null
"$work/hello-cmake/hello_tessera"
libdir=$(ls -d "$work"/prefix/lib*/pkgconfig | head -1)
export PKG_CONFIG_PATH=$libdir
# shellcheck disable=SC2086  # FLAGS is a list of flags
"$cxx" $flags "$src/examples/hello_tessera/main.cpp" -o "$work/hello-pkgconfig" $(pkg-config --cflags --libs tessera) \
    -Wl,-rpath,"$(pkg-config --variable=libdir tessera)"
"$work/hello-pkgconfig"
