// Fixed shapes of the NVIDIA GEMM kernels (gemm_nv.cl, gemm_nv_d.cl, gemm_nv_d_mbar.cl,
// gemm_nv_s.cl), for the host code that sizes their launches (gemm_select.cpp) and checks their
// parameters against a device (params.cpp). Each mirrors a macro or literal of the .cl file named;
// the tunable sizes are kernel parameters instead (param_table.hpp). Internal; StarPU-free.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera::ocl::nv {

/// Work-items of an NVIDIA warp.
inline constexpr size_t kWarp = 32;

// gemm_nv_d.cl (double, FP64 tensor cores): a warp computes 64 rows (along m: NVD_BM = 64·WM) by
// 32 columns (along n: NVD_BN = 32·WN) of C's block; a k slab is 8 deep, so one of its rows or
// columns is 64 bytes. A work-group is 32·WM·WN work-items.
inline constexpr int64_t kDoubleRowsPerWarp = 64;
inline constexpr int64_t kDoubleColumnsPerWarp = 32;
inline constexpr int64_t kDoubleSlabK = 8;
inline constexpr size_t kDoubleSlabRowBytes = size_t(kDoubleSlabK) * sizeof(double);

// gemm_nv_s.cl (float): blocks of 128 × 128 (NVS_BM, NVS_BN) computed by 256 work-items (NVS_NT);
// two slab buffers each of A and B (NVS_NBUF without TESSERA_NVS_MBAR) whose k rows hold 132
// floats (NVS_LD: the block's 128 rows and 4 of padding); B's 16-byte staging takes one float4 per
// work-item for every 8 of the slab's k (NVS_CHUNKS = TESSERA_NVS_BK / 8).
inline constexpr int64_t kFloatBlock = 128;
inline constexpr size_t kFloatWorkItems = 256;
inline constexpr size_t kFloatSlabBuffers = 2;
inline constexpr size_t kFloatSlabRowFloats = 132;
inline constexpr size_t kFloatStagingK = 8;

/// The FP64 mma shape of every NVIDIA device of compute capability ≥ 8.0 (TESSERA_NVD_MMA = 884,
/// m8n8k4); m16n8k8 (1688) needs compute capability kMma1688MinCc.
inline constexpr int kMmaM8N8K4 = 884;
inline constexpr int kMma1688MinCc = 9;

/// Bytes of one cp.async copy of the kernels' vector paths (tessera_nvgemm_XY, the _mbar kernels):
/// their sources' offsets and leading dimensions must be multiples of that many bytes.
inline constexpr int64_t kCopyBytes = 16;

}  // namespace tessera::ocl::nv
