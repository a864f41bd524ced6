// Host launchers of the OpenCL tile-QR update kernels (qr.cl). StarPU-free: each enqueues on the
// given in-order queue and returns without waiting. Column-major tiles, offsets in elements.
// Both use LAPACK's compact-WY T layout (ib×k, block b's upper triangular T_b at column b·ib);
// see kernels/cpu/qr.hpp. Like the CPU wrappers, the launchers use min(ib, k) as the block size.
#pragma once

#include <cstdint>

#include "kernels/opencl/launch.hpp"

namespace tessera::ocl {

/// C = op(Q)·C (Left, C m×n, V m×k) or C·op(Q) (Right, C m×n, V n×k), Q from xGEQRT's unit lower
/// trapezoidal V (upper part not referenced) and T (LAPACK xGEMQRT). Requires 1 ≤ ib, k ≤ rows of V.
template <class T>
void gemqrt(const DeviceKernels& dk, cl_command_queue q, Side side, Trans trans, int64_t m, int64_t n, int64_t k,
            int64_t ib, Mat V, Mat Tf, Mat C);

/// LAPACK xTPMQRT with l = 0 (PLASMA's tsmqr): Left: [A; B] = op(Q)·[A; B], A k×n, B m×n, V m×k;
/// Right: [A B] = [A B]·op(Q), A m×k, B m×n, V n×k. Requires 1 ≤ ib.
template <class T>
void tpmqrt(const DeviceKernels& dk, cl_command_queue q, Side side, Trans trans, int64_t m, int64_t n, int64_t k,
            int64_t ib, Mat V, Mat Tf, Mat A, Mat B);

}  // namespace tessera::ocl
