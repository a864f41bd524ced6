#!/usr/bin/env bash
# Tessera (CPU workers) vs OpenBLAS (2 threads): dgetrf with partial pivoting at n = 4096, checked;
# getrf_nopiv and getrf_incpiv timed alongside.
#   bash bench/getrf_vs_lapack.sh [BUILD_DIR] [extra args, e.g. --nb 320 --ib 32 --repeat 5]
set -euo pipefail
build=${1:-build}; shift || true
export STARPU_NOPENCL=${STARPU_NOPENCL:-0} STARPU_SILENT=${STARPU_SILENT:-1}
export STARPU_HOME=${STARPU_HOME:-$build/bench-home}
# A small calibration run first so that the perfmodels exist, then the measured run.
"$build/bench/getrf_vs_lapack" "$@" --n 1024 --repeat 1 >/dev/null
exec "$build/bench/getrf_vs_lapack" --n 4096 "$@"
