#!/usr/bin/env bash
# ptx_report.sh [EXTRA_DEFINES...] — offline resource report of kernels/opencl/gemm_nv*.cl (or of the
# files named in $PTX_FILES, e.g. PTX_FILES=gemm_narrow.cl) for sm_90,
# with no GPU: clang (OpenCL C → NVPTX, with stand-ins for the OpenCL built-ins it uses) and then
# CUDA's ptxas -v (registers, spills, shared memory). NVIDIA's own OpenCL compiler differs in its
# front half, so treat the numbers as close, not exact. Needs clang-15 and ptxas on PATH.
# Example: tools/tune/ptx_report.sh -DTESSERA_PREC_D -DTESSERA_NVD_MMA=1688
# tessera_nvgemm_*_mbar use more than 48 KB of static local memory on purpose (NVIDIA's driver
# accepts it); a ptxas that caps it at 48 KB still prints their registers, or add -DTESSERA_NVD_MBAR_ST=2.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/stubs.h" <<'H'
#define NVX_(r, d) ((size_t)((d) == 0 ? __nvvm_read_ptx_sreg_##r##_x() : (d) == 1 ? __nvvm_read_ptx_sreg_##r##_y() : __nvvm_read_ptx_sreg_##r##_z()))
#define get_local_id(d) NVX_(tid, d)
#define get_group_id(d) NVX_(ctaid, d)
#define get_num_groups(d) NVX_(nctaid, d)
#define get_local_size(d) NVX_(ntid, d)
#define get_global_id(d) (get_group_id(d) * get_local_size(d) + get_local_id(d))
#define barrier(f) __nvvm_bar_sync(0)
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define clamp(x, a, b) min(max(x, a), b)
#define fma(a, b, c) ((a) * (b) + (c))
#define vload4(i, p) (*(const __local float4*)((p) + 4 * (i)))
#define TESSERA_NV_ASM __asm__
H
cat "$root/kernels/opencl/prelude.clh" > "$tmp/k.cl"
for f in ${PTX_FILES:-gemm_nv.cl gemm_nv_d.cl gemm_nv_d_mbar.cl gemm_nv_s.cl gemm_nv_tf32.cl}; do
    cat "$root/kernels/opencl/$f" >> "$tmp/k.cl"
done
clang-15 -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -march=sm_80 -O3 -ffp-contract=fast \
    -Xclang -finclude-default-header -include "$tmp/stubs.h" -DTESSERA_NV_SM=90 "$@" -S -o "$tmp/k.ptx" "$tmp/k.cl"
sed -i -e 's/^\.version .*/.version 8.0/' -e 's/^\.target sm_80/.target sm_90/' "$tmp/k.ptx"
ptxas -arch=sm_90 -v "$tmp/k.ptx" -o "$tmp/k.cubin" 2>&1 2>&1 | grep -v "^$" || true
[ -n "${PTX_OUT:-}" ] && cp "$tmp/k.ptx" "$PTX_OUT" || true
