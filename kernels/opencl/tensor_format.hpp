// The operand format of float products on tensor cores (kernels/opencl/gemm_nv_tf32.cl), shared by
// the launchers' scope (ocl::TensorProducts) and the tasks' (tasks::TensorScope). StarPU- and
// OpenCL-free.
#pragma once

#include <cstdint>

namespace tessera::ocl {

/// How float products may round their operands. None: exact float arithmetic. Tf32: operands
/// rounded to TF32 (10 explicit mantissa bits, unit roundoff 2^-11, float's range). Fp16: operands
/// rounded to FP16 (the same unit roundoff, finite only up to 65504, subnormal below 2^-14), or to
/// TF32 where a kernel in FP16 is missing or slower; the caller keeps the operands in FP16's range.
/// Products accumulate in FP32 in every format.
enum class TensorFormat : uint8_t { None, Tf32, Fp16 };

}  // namespace tessera::ocl
