// Host launchers of the OpenCL tile-QR update kernels and of larft (qr.cl, launch_qr.cpp). StarPU-free: each enqueues on the
// given in-order queue and returns without waiting. Column-major tiles, offsets in elements.
// Both use LAPACK's compact-WY T layout (ib×k, block b's upper triangular T_b at column b·ib);
// see kernels/cpu/qr.hpp. Like the CPU wrappers, the launchers use min(ib, k) as the block size.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/opencl/launch.hpp"

namespace tessera::ocl {

/// QR of the m×n tile A (LAPACK xGEQRT, k = min(m, n) reflectors, inner blocks of min(ib, k)): R
/// on and above the diagonal, V below, Tf (ld ≥ ib) LAPACK's ib×k block factors. Leaves of at most
/// 32 columns are factored by one work-group each (qr_panel.cl: xGEQR2 with xLARFT's T) and applied
/// to the columns right of them with gemqrt; with ib > 32 each inner block's T is merged from its
/// leaves' by larft. Sizes beyond int throw tessera::Error.
template <class T>
void geqrt(const DeviceKernels& dk, cl_command_queue q, int64_t m, int64_t n, int64_t ib, Mat A, Mat Tf);

/// QR of [R; B] (LAPACK xTPQRT with l = 0, PLASMA's tsqrt): R the upper triangle of A's n×n leading
/// block, B m×n; R updated in place, B overwritten by the reflectors V, Tf (ld ≥ ib) LAPACK's ib×n
/// block factors (inner blocks of min(ib, n)). As geqrt, with tpmqrt applying each leaf.
template <class T>
void tpqrt(const DeviceKernels& dk, cl_command_queue q, int64_t m, int64_t n, int64_t ib, Mat A, Mat B, Mat Tf);

/// QR of the m×ncols column panel stacked from `tiles` (tile t has rows[t] rows and ncols columns,
/// top to bottom; m = Σ rows), LAPACK xGEQRF's output on it: R in the upper trapezoid, the
/// Householder vectors V below the diagonal (unit diagonal not stored), and Tt (ncols×ncols,
/// ld ≥ ncols) the upper triangular T of all k = min(m, ncols) reflectors (xLARFT, forward,
/// columnwise; zeros below its diagonal and beyond k), so that Q = I − V·Tt·Vᴴ. Elmroth and
/// Gustavson's recursive QR (xGEQRT3) on a gathered copy (Workspace::Panel, about (m + 3·ncols)·ncols
/// elements), its leaves of TESSERA_QR_LEAF columns in one launch over many work-groups on NVIDIA
/// GPUs (TESSERA_QR_GRID), else in one work-group. Sizes beyond int throw tessera::Error, as does a
/// grid leaf whose work-groups did not meet (another program holding compute units).
template <class T>
void geqrf_panel(const DeviceKernels& dk, cl_command_queue q, const std::vector<Mat>& tiles,
                 const std::vector<int64_t>& rows, int64_t ncols, Mat Tt);

/// C = op(Q)·C (Left, C m×n, V m×k) or C·op(Q) (Right, C m×n, V n×k), Q from xGEQRT's unit lower
/// trapezoidal V (upper part not referenced) and T (LAPACK xGEMQRT). Requires 1 ≤ ib, k ≤ rows of V.
template <class T>
void gemqrt(const DeviceKernels& dk, cl_command_queue q, Side side, Trans trans, int64_t m, int64_t n, int64_t k,
            int64_t ib, Mat V, Mat Tf, Mat C);

/// Q = op(H(1)·…·H(k)), gemqrt's Q of V (mv×k, k ≤ mv) as an explicit mv×mv matrix (ld ≥ mv): xGEMQRT
/// (Left) applied to the identity. geqrf, with an OpenCL device, forms Qᴴ of each diagonal tile once
/// (T merged by larft, ib = k) so that each update of its tile row is one GEMM. Throws
/// tessera::Error as gemqrt does (ib < 1, k > mv, sizes beyond int).
template <class T>
void form_q(const DeviceKernels& dk, cl_command_queue q, Trans trans, int64_t mv, int64_t k, int64_t ib, Mat V,
            Mat Tf, Mat Q);

/// LAPACK xTPMQRT with l = 0 (PLASMA's tsmqr): Left: [A; B] = op(Q)·[A; B], A k×n, B m×n, V m×k;
/// Right: [A B] = [A B]·op(Q), A m×k, B m×n, V n×k. Requires 1 ≤ ib.
template <class T>
void tpmqrt(const DeviceKernels& dk, cl_command_queue q, Side side, Trans trans, int64_t m, int64_t n, int64_t k,
            int64_t ib, Mat V, Mat Tf, Mat A, Mat B);

/// Tk = the k×k upper triangular T of all k reflectors of V (LAPACK xLARFT, forward and columnwise),
/// zeros below its diagonal, merged from Tf's inner blocks of ib (Tf ib×k, LAPACK's layout) by
/// xLARFT's recurrence block by block: Tk[0:P, J] = −Tk[0:P, 0:P]·(V[:, 0:P]ᴴ·V[:, J])·T_J. V is
/// xGEQRT's unit lower trapezoidal mv×k V (upper part not referenced; requires k ≤ mv) or, when
/// below_identity, xTPQRT's mv×k V (l = 0) under an implicit k×k identity. gemqrt and tpmqrt called
/// with Tk and ib = k apply the reflectors as one block. Requires 1 ≤ ib; Tk must not overlap V or Tf.
template <class T>
void larft(const DeviceKernels& dk, cl_command_queue q, bool below_identity, int64_t mv, int64_t k, int64_t ib,
           Mat V, Mat Tf, Mat Tk);

}  // namespace tessera::ocl
