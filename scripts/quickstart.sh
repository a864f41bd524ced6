#!/usr/bin/env bash
# Tessera quick start on Debian 12 (run as root, or with sudo available).
#   bash scripts/quickstart.sh          install what is missing, build, run the main example (gp_kriging:
#                                       Gaussian-process regression of airport elevations, about a minute)
#   bash scripts/quickstart.sh --test   install what is missing, build, run the whole test suite
#   bash scripts/quickstart.sh --sanitize
#                                       also install clang; build into build-asan/ with AddressSanitizer,
#                                       LeakSanitizer and UndefinedBehaviorSanitizer (TESSERA_SANITIZE),
#                                       run the whole test suite there, the readers' fuzz tests included
# Idempotent: packages already present are skipped, and an existing build/ or build-asan/ is reused.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES="g++ make cmake pkg-config libstarpu-dev ocl-icd-opencl-dev opencl-headers pocl-opencl-icd
libhwloc-dev liblapacke-dev libopenblas-dev googletest libgtest-dev libcli11-dev libopenmpi-dev nlohmann-json3-dev libcairo2-dev python3-numpy r-base-core"
# --sanitize only: clang 14, its sanitizer and libFuzzer runtimes, llvm-symbolizer (names in reports).
SANITIZE_PACKAGES="clang libclang-rt-14-dev llvm"

# install_missing PACKAGE...: install those not installed yet.
install_missing() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && { echo "quickstart: all Debian packages present"; return; }
  echo "quickstart: installing ${missing[*]}"
  local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() {
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
  cmake --build build -j"$(nproc)"
}

# Sanitized build and suite. clang rather than gcc: libFuzzer (the fuzz tests) comes with clang.
# The sanitizers' runtime options, LeakSanitizer's suppressions included, are linked into every
# executable (tests/sanitizers/options.cpp), so ctest needs no environment.
# PoCL's kernel caches of the Release suite, where it ran (.ci/run runs it first), seed the sanitized
# suite's: the same OpenCL sources and options, which PoCL's compiler, slowed by the sanitizers'
# interceptors in the test process, would otherwise compile again (test_blas3.opencl, the first to
# build them: 586 s cold, 17 s seeded; the applications' own cache: apps.profile.uncalibrated
# 263 s cold, past its 300 s limit in the suite, 11.6 s seeded).
sanitize() {
  CC=clang CXX=clang++ cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Release -DTESSERA_SANITIZE=ON
  cmake --build build-asan -j"$(nproc)"
  for cache in test-home/pocl test-home/apps/pocl; do
    if [ -d "build/$cache" ] && [ ! -e "build-asan/$cache" ]; then
      mkdir -p "$(dirname "build-asan/$cache")" && cp -r "build/$cache" "build-asan/$cache"
    fi
  done
  run_suite build-asan
}

# run_suite BUILD_DIR: the whole suite, nproc tests at once. Most tests leave a core idle at times
# (PoCL's kernel compiler, a rank waiting, a check on one core; StarPU's idle workers sleep there,
# tests/CMakeLists.txt): on 2 cores the sanitized suite took 1088 s so against 1461 s one at a time.
# Tests of one mode share a StarPU home; StarPU locks its performance-model files, and Tessera writes
# its own caches by renaming a whole file.
run_suite() {
  ctest --test-dir "$1" --output-on-failure --timeout 900 -j"$(nproc)"
}

case "${1:-}" in
  --test) install_missing $PACKAGES; build; run_suite build ;;
  --sanitize) install_missing $PACKAGES $SANITIZE_PACKAGES; sanitize ;;
  "") install_missing $PACKAGES; build; build/examples/apps/gp_kriging ;;
  *) echo "usage: bash scripts/quickstart.sh [--test | --sanitize]" >&2; exit 2 ;;
esac
