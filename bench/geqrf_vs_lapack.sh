#!/usr/bin/env bash
# Tessera (CPU workers) vs OpenBLAS (2 threads): dgeqrf at n = 4096, checked.
#   bash bench/geqrf_vs_lapack.sh [BUILD_DIR] [extra args, e.g. --nb 256 --ib 32 --repeat 5]
# Both sides get the same cores: STARPU_NCPU=2 CPU workers (no OpenCL) and 2 OpenBLAS threads.
set -euo pipefail
build=${1:-build}; shift || true
export STARPU_NOPENCL=${STARPU_NOPENCL:-0} STARPU_SILENT=${STARPU_SILENT:-1} STARPU_NCPU=${STARPU_NCPU:-2}
export STARPU_HOME=${STARPU_HOME:-$build/bench-home}
exec "$build/bench/geqrf_vs_lapack" --n 4096 --threads 2 "$@"
