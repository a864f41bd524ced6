#!/usr/bin/env bash
# Tessera quick start on Debian 12 (run as root, or with sudo available).
#   bash scripts/quickstart.sh          install what is missing, build, run the main example (gp_kriging:
#                                       Gaussian-process regression of airport elevations, about a minute)
#   bash scripts/quickstart.sh --test   install what is missing, build, run the whole test suite
# Idempotent: packages already present are skipped, and an existing build/ is reused.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES="g++ make cmake pkg-config libstarpu-dev ocl-icd-opencl-dev opencl-headers pocl-opencl-icd
libhwloc-dev liblapacke-dev libopenblas-dev googletest libgtest-dev libcli11-dev libopenmpi-dev"

install_missing() {
  local missing=()
  for p in $PACKAGES; do
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

install_missing
build
if [ "${1:-}" = "--test" ]; then
  ctest --test-dir build --output-on-failure --timeout 900
else
  build/examples/apps/gp_kriging
fi
