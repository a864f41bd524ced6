#!/usr/bin/env bash
# gpu_factorizations.sh — Tessera's dgemm, dpotrf, dgetrf, dgeqrf and spotrf on one GPU next to
# cuSOLVER/cuBLAS (torch), end to end and device-resident, checked, with the profile's GPU-busy,
# data-wait and transfer figures (bench/gpu_factorizations.py says what each column is).
#
# Run on the GPU machine from the repository root, after building here and copying
# build/examples/tester/tessera-tester and build/libtessera.so* into .gpu-build/ (carry .gpu-kit and
# .gpu-build; ../shared/device/README.md):
#   bash bench/gpu_factorizations.sh
# Environment: see bench/gpu_factorizations.py (CASES, REPS, CHECK_MAX, MODES, EXTRA, OUTDIR).
set -uo pipefail
cd "$(dirname "$0")/.."
[ -f .gpu-kit/env.sh ] && source .gpu-kit/env.sh
export LD_LIBRARY_PATH="$PWD/.gpu-build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
outdir=${OUTDIR:-${OUT:-/tmp/gpu_factorizations}}
mkdir -p "$outdir"
# Hermetic StarPU and kernel caches for this run; perfmodels calibrate in the warm-up runs.
export STARPU_HOME=${STARPU_HOME:-/tmp/tessera-gpu-home} TESSERA_CACHE_DIR=${TESSERA_CACHE_DIR:-/tmp/tessera-gpu-home/cl}
export STARPU_SILENT=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,power.draw --format=csv 2>/dev/null | tee "$outdir/gpu.txt"
PYTHONUNBUFFERED=1 exec python3 bench/gpu_factorizations.py
