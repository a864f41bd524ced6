#!/usr/bin/env bash
# OpenCL next to CUDA on the same GPU: a memory-bound kernel (matrix copy) and a compute-bound one
# (tiled DGEMM: local/shared-memory tiles + register blocking, same tile parameters), each written
# in OpenCL C (kernels.cl) and CUDA C++ (cuda_kernels.cuh), next to torch copy and cuBLAS DGEMM,
# checked against each other and a CPU reference, printed as ONE table.
#
# On the GPU machine, from the repository root, with the OpenCL host program built here by CMake
# (target opencl_vs_cuda_ocl) and carried, e.g. copied to .gpu-build/:
#   source .gpu-kit/env.sh; bench/opencl_vs_cuda/run.sh
#
# Environment (all optional):
#   OUT              folder that gets opencl_vs_cuda.txt (the table and any failure logs) and
#                    opencl_vs_cuda.jsonl (raw results)
#   OVC_OCL_BIN      the OpenCL host program; default: the first found of .gpu-build/opencl_vs_cuda_ocl,
#                    .gpu-build/bench/opencl_vs_cuda/opencl_vs_cuda_ocl, build*/bench/opencl_vs_cuda/...;
#                    if none, it is built with g++ when CL/cl.h is there
#   TILE             GEMM tile MB,NB,KB,TM,TN for OpenCL and CUDA alike (default 128,128,16,8,8)
#   COPY_SIZES GEMM_SIZES REPS_COPY REPS_GEMM   (default 8192,16384  4096,8192  20  5)
#   CUDA_ARCH        (default 90: -gencode=arch=compute_90,code=sm_90)
#   NVCC PYTHON      (default nvcc on PATH or /usr/local/cuda/bin/nvcc; python3)
#   OVC_DEVICE_TYPE  gpu (default) or any (the OpenCL part may then run on a CPU device: testing)
#   OVC_SKIP         parts not to run, among "opencl cuda torch" (testing without a GPU); the table
#                    then accepts them missing
#   STEP_TIMEOUT     seconds allowed to each build or run step (default 120)
# Exit status: 0 every part ran and every check passed; 1 otherwise.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
TILE=${TILE:-128,128,16,8,8}
COPY_SIZES=${COPY_SIZES:-8192,16384}
GEMM_SIZES=${GEMM_SIZES:-4096,8192}
REPS_COPY=${REPS_COPY:-20}
REPS_GEMM=${REPS_GEMM:-5}
CUDA_ARCH=${CUDA_ARCH:-90}
PYTHON=${PYTHON:-python3}
OVC_DEVICE_TYPE=${OVC_DEVICE_TYPE:-gpu}
OVC_SKIP=${OVC_SKIP:-}
STEP_TIMEOUT=${STEP_TIMEOUT:-120}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}

work=$(mktemp -d "${TMPDIR:-/tmp}/opencl_vs_cuda.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=()     # step names that failed
sizes=(--copy-sizes "$COPY_SIZES" --gemm-sizes "$GEMM_SIZES" --reps-copy "$REPS_COPY" --reps-gemm "$REPS_GEMM")
IFS=, read -r MB NB KB TM TN <<<"$TILE"
if [ -z "${TN:-}" ]; then echo "run.sh: TILE must be MB,NB,KB,TM,TN (got '$TILE')" >&2; exit 1; fi

skipped() { [[ " $OVC_SKIP " == *" $1 "* ]]; }

# step NAME CMD...: run with a time limit, log to $work/NAME.log, record a failure.
step() {
    local name=$1; shift
    echo "== $name" >&2
    timeout "$STEP_TIMEOUT" "$@" >"$work/$name.log" 2>&1
    local rc=$?
    cat "$work/$name.log" >&2
    if [ $rc -ne 0 ]; then
        failures+=("$name")
        { echo "== $name failed (exit $rc$([ $rc -eq 124 ] && echo ', timed out after '"$STEP_TIMEOUT"' s')): $*"
          tail -n 25 "$work/$name.log"; } >>"$work/failures.txt"
    fi
    return $rc
}

find_ocl_bin() {
    local c
    for c in "${OVC_OCL_BIN:-}" "$root/.gpu-build/opencl_vs_cuda_ocl" \
             "$root/.gpu-build/bench/opencl_vs_cuda/opencl_vs_cuda_ocl" \
             "$root"/build*/bench/opencl_vs_cuda/opencl_vs_cuda_ocl; do
        if [ -n "$c" ] && [ -x "$c" ]; then echo "$c"; return 0; fi
    done
    return 1
}

# Fallback when no carried binary: the header CMake generates from kernels.cl, for a g++ build.
embed_kernels() {
    mkdir -p "$work/gen"
    { printf '#pragma once\nstatic const char* const kKernelSource = R"OVCCL('
      cat "$here/kernels.cl"
      printf ')OVCCL";\n'; } >"$work/gen/ovc_kernels_cl.hpp"
}

# 1. OpenCL
if ! skipped opencl; then
    if ocl_bin=$(find_ocl_bin); then
        echo "run.sh: OpenCL host program $ocl_bin" >&2
    else
        echo "run.sh: no carried opencl_vs_cuda_ocl; building it with g++" >&2
        embed_kernels
        step build_opencl g++ -O2 -std=c++20 -I"$here" -I"$work/gen" "$here/ocl_bench.cpp" \
             -o "$work/opencl_vs_cuda_ocl" -l:libOpenCL.so.1 && ocl_bin=$work/opencl_vs_cuda_ocl
    fi
    if [ -n "${ocl_bin:-}" ]; then
        step opencl "$ocl_bin" --tile "$TILE" --device-type "$OVC_DEVICE_TYPE" "${sizes[@]}" \
             --output "$work/opencl.jsonl"
    fi
fi

# 2. CUDA, built here with nvcc and the same tile parameters.
if ! skipped cuda; then
    if step build_cuda "$NVCC" -O3 -std=c++17 "-gencode=arch=compute_${CUDA_ARCH},code=sm_${CUDA_ARCH}" \
            -DGEMM_MB="$MB" -DGEMM_NB="$NB" -DGEMM_KB="$KB" -DGEMM_TM="$TM" -DGEMM_TN="$TN" \
            -I"$here" "$here/cuda_bench.cu" -o "$work/cuda_bench"; then
        step cuda "$work/cuda_bench" "${sizes[@]}" --output "$work/cuda.jsonl"
    fi
fi

# 3. torch copy and cuBLAS DGEMM (TF32 off).
if ! skipped torch; then
    step torch "$PYTHON" "$here/torch_bench.py" "${sizes[@]}" --output "$work/torch.jsonl"
fi

# 4. One table.
cat "$work"/*.jsonl >"$work/all.jsonl" 2>/dev/null || : >"$work/all.jsonl"
allow=()
[ -n "$OVC_SKIP" ] && allow=(--allow-missing)
"$PYTHON" "$here/report.py" "${allow[@]}" "$work/all.jsonl" >"$work/table.txt" 2>&1
report_rc=$?
if [ -s "$work/failures.txt" ]; then
    { echo; echo "failed steps: ${failures[*]}"; cat "$work/failures.txt"; } >>"$work/table.txt"
fi
echo
cat "$work/table.txt"
if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT" && cp "$work/table.txt" "$OUT/opencl_vs_cuda.txt" && cp "$work/all.jsonl" "$OUT/opencl_vs_cuda.jsonl"
fi
[ $report_rc -eq 0 ] && [ ${#failures[@]} -eq 0 ]
