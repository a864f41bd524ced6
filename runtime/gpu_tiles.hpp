// Tile sizes when the Runtime drives OpenCL GPUs: the device kernels want tiles of thousands, where
// the CPU table (runtime/cpu_tiles.hpp) gives a few hundred, and the best size grows with the
// problem's order (fewer, larger tasks; shorter chains of panels).
#pragma once

#include <cstdint>
#include <string>

namespace tessera::detail {

/// nb for the routine family `family` ("gemm", "potrf", "getrf" or "geqrf") on a problem of order
/// `n` when OpenCL GPUs run it, or 0 where the CPU table's choice stands (n below 8192, another
/// family). Measured on one H100, end to end, with bench/gpu_factorizations.sh (bench/gpu_notes.md):
///   gemm: 4096 from n = 16384 (a tile GEMM at 44 against 40 TFLOP/s at 2048), 2048 from 8192;
///   potrf, getrf: 4096 from n = 32768, 2048 from 16384, 1024 from 8192 (dgetrf n = 16384 0.57×
///   cuSOLVER at nb = 2048, 0.34× at 1024; n = 32768 0.73× at 4096, 0.69× at 2048; dpotrf n = 65536
///   on 4 GPUs 128.5 TFLOP/s at 4096, 122.5 at 3072);
///   geqrf: 2048 from 8192 (column panels on the GPU; dgeqrf n = 8192 0.69× cuSOLVER at 2048, 0.63× at
///   1024; n = 16384 0.88× at 2048, 0.58× at 1024; n = 32768 0.86× at 2048, 0.87× at 4096).
int64_t gpu_tile_rule(const std::string& family, int64_t n);

}  // namespace tessera::detail
