#!/usr/bin/env bash
# Tessera (CPU workers) vs OpenBLAS (2 threads): zgemm, zpotrf and zgetrf at n = 4096 next to dgemm,
# dpotrf and dgetrf, checked, with the complex and the real ratios side by side (issue 15).
#   bash bench/complex_vs_lapack.sh [BUILD_DIR] [extra args, e.g. --nb 384 --repeat 5 --real s]
set -euo pipefail
build=${1:-build}; shift || true
export STARPU_NOPENCL=${STARPU_NOPENCL:-0} STARPU_SILENT=${STARPU_SILENT:-1}
export STARPU_HOME=${STARPU_HOME:-$build/bench-home}
# A small calibration run first so that the perfmodels exist, then the measured run.
"$build/bench/complex_vs_lapack" "$@" --n 1024 --repeat 1 >/dev/null
exec "$build/bench/complex_vs_lapack" --n 4096 "$@"
