#!/usr/bin/env bash
# gpu_factorizations.sh — Tessera's dgemm, dpotrf, dgetrf, dgeqrf and spotrf on one GPU next to
# cuSOLVER/cuBLAS (torch), end to end and device-resident, checked, with the profile's GPU-busy,
# data-wait and transfer figures (bench/gpu_factorizations.py says what each column is).
#
# Run on the GPU machine from the repository root, after building here and copying
# build/examples/tester/tessera-tester and build/libtessera.so* into .gpu-build/ (carry .gpu-kit and
# .gpu-build; ../shared/device/README.md):
#   bash bench/gpu_factorizations.sh
# Environment: see bench/gpu_factorizations.py (CASES, REPS, CHECK, MODES, EXTRA, OUTDIR).
default_outdir=/tmp/gpu_factorizations
source "$(dirname "$0")/gpu_env.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,power.draw --format=csv 2>/dev/null | tee "$outdir/gpu.txt"
PYTHONUNBUFFERED=1 exec python3 bench/gpu_factorizations.py
