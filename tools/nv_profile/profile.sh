#!/usr/bin/env bash
# profile.sh — Nsight Compute (ncu) on the float GEMM kernels of Tessera's OpenCL program, on the GPU
# machine (its CUDA toolkit has nvcc and ncu). ncu profiles CUDA launches only, so the kernels run from
# the PTX NVIDIA's OpenCL compiled (`gpu_gemm --dump-ptx`) through nvgemm_launch.cu; their time there
# matched the OpenCL launches' (H200: TF32 NT 99.4 against 100.7 TFLOP/s). Per kernel, under OUTDIR:
# KERNEL.txt (nvgemm_launch's line, ncu's details page: speed of light, occupancy, registers, warp
# states; then sass_mix.py's instruction mix and stall reasons), KERNEL.csv (ncu's source page: every
# SASS instruction with its executed count and stall samples). ncu holds the SM clock at its base, so
# compare durations within one profile, and time kernels with gpu_gemm --bench.
#   bash tools/nv_profile/profile.sh [KERNEL...]   (default tessera_nvgemm_nt_tf32)
# Environment: N (m = n = k, 4096), VARIANT (extra build options, as gpu_gemm --variant), OUTDIR ($OUT
# or /tmp/nv_profile); the build carried in .gpu-build (bench/gpu_env.sh).
default_outdir=/tmp/nv_profile
source "$(dirname "${BASH_SOURCE[0]}")/../../bench/gpu_env.sh"
export PATH=/usr/local/cuda/bin:$PATH
n=${N:-4096}
kernels=${*:-tessera_nvgemm_nt_tf32}
work=$(mktemp -d /tmp/nv_profile.XXXXXX)
trap 'rm -rf "$work"' EXIT
nvcc -O2 -std=c++17 -o "$work/nvgemm_launch" tools/nv_profile/nvgemm_launch.cu -lcuda || exit 1
variant=()
[ -n "${VARIANT:-}" ] && variant=(--variant "$VARIANT")
timeout 300 .gpu-build/gpu_gemm --prec s --dump-ptx "$work" "${variant[@]}" > /dev/null || exit 1
status=0
for kern in $kernels; do
    txt=$outdir/$kern.txt
    timeout 120 "$work/nvgemm_launch" "$work/tessera_s.ptx" "$kern" "$n" "$n" "$n" 5 > "$txt" || status=1
    timeout 300 ncu --set full --import-source no -k "$kern" -c 1 -f -o "$work/$kern" \
        "$work/nvgemm_launch" "$work/tessera_s.ptx" "$kern" "$n" "$n" "$n" 1 > "$work/ncu.log" 2>&1 || { cat "$work/ncu.log"; status=1; continue; }
    ncu --import "$work/$kern.ncu-rep" --page details >> "$txt"
    ncu --import "$work/$kern.ncu-rep" --page source --csv --print-source sass > "$outdir/$kern.csv"
    python3 tools/nv_profile/sass_mix.py "$outdir/$kern.csv" >> "$txt"
    head -1 "$txt"; tail -18 "$txt"
done
exit $status
