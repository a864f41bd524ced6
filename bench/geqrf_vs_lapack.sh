#!/usr/bin/env bash
# Tessera (CPU workers) vs OpenBLAS (2 threads): dgeqrf at n = 4096, checked.
#   bash bench/geqrf_vs_lapack.sh [BUILD_DIR] [extra args, e.g. --nb 256 --ib 64 --repeat 5]
# Both sides get the same cores: STARPU_NCPU=2 CPU workers (no OpenCL) and 2 OpenBLAS threads.
# Rounds alternate OpenBLAS and Tessera, so that load from other processes hits both alike; on a
# shared machine compare the ratios of one run, not GFLOP/s across runs.
# Defaults: the tuned nb, ib for dgeqrf on this machine (tessera-tune --cpu; else the shipped table or the cache rule).
# OpenBLAS 0.3.21 runs its AVX2 (Haswell) kernels on a Sapphire Rapids VM; OPENBLAS_CORETYPE=SkylakeX
# selects the AVX-512 ones for both sides (then --nb 320 --ib 64 was best).
set -euo pipefail
build=${1:-build}; shift || true
export STARPU_NOPENCL=${STARPU_NOPENCL:-0} STARPU_SILENT=${STARPU_SILENT:-1} STARPU_NCPU=${STARPU_NCPU:-2}
export STARPU_HOME=${STARPU_HOME:-$build/bench-home}
exec "$build/bench/geqrf_vs_lapack" --n 4096 --threads 2 "$@"
