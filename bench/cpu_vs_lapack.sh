#!/usr/bin/env bash
# Tessera (CPU workers) vs OpenBLAS (2 threads): dpotrf and dgemm at n = 4096, checked.
#   bash bench/cpu_vs_lapack.sh [BUILD_DIR] [extra args, e.g. --nb 384 --repeat 5]
set -euo pipefail
build=${1:-build}; shift || true
export STARPU_NOPENCL=${STARPU_NOPENCL:-0} STARPU_SILENT=${STARPU_SILENT:-1}
export STARPU_HOME=${STARPU_HOME:-$build/bench-home}
# Two calibration runs first so that the perfmodels are trusted, then the measured run.
"$build/bench/cpu_vs_lapack" --n 1024 --repeat 1 "$@" >/dev/null
exec "$build/bench/cpu_vs_lapack" --n 4096 "$@"
