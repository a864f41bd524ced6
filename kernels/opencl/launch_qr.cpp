// Host launchers of the tile-QR updates gemqrt and tpmqrt as GEMMs (LAPACK xLARFB / xTPRFB with
// blocks of reflectors merged, as in MAGMA's larfb), of form_q (gemqrt applied to the identity),
// and of larft, which merges a whole T once. The k reflectors are applied in super-blocks of up to
// TESSERA_QR_SB columns, or in one when T comes merged (ib = k). For one super-block V̂ (its columns
// of V, rows where they are nonzero):
//   G = V̂ᴴ·V̂ (upper),  Tw = merge_t(T's inner blocks, G)  so that H(c0)…H(c0+wb−1) = I − V̂·Tw·V̂ᴴ
//   Left:  W = V̂ᴴ·C (plus A's rows for tpmqrt), W2 = op(Tw)·W, A −= W2, C −= V̂·W2
//   Right: W = C·V̂ (plus A's columns), W2 = W·op(Tw), A −= W2, C −= W2·V̂ᴴ
// with op(Tw) = Tw for op(Q) = Q and Twᴴ for Qᴴ, as in xLARFB. The products with the triangles
// (Tw, and gemqrt's unit lower V̂₁ on top of V̂) skip their zero halves (gemm_triangular).
// Super-blocks go first to last for Qᴴ·C and C·Q, last to first for Q·C and C·Qᴴ. xGEQRT's V is
// unit lower trapezoidal with its upper part not referenced: gemqrt first copies it into the
// workspace with zeros above the diagonal and ones on it; xTPQRT's V (l = 0) is used in place.
// Scratch (dk.scratch()): that copy, G, Tw, the merge's temporary X and W twice; every piece starts at
// a multiple of 8 elements, as the GEMM kernels' aligned loads prefer.
#include "kernels/opencl/launch_qr.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "kernels/opencl/launch.hpp"
#include "kernels/opencl/launch_util.hpp"
#include "runtime/precisions.hpp"

namespace tessera::ocl {
namespace {

int64_t align8(int64_t x) { return int64_t(round_up(size_t(x), 8)); }

/// The pieces of the scratch buffer, as matrices (empty pieces where a launcher needs none).
struct Scratch {
    Mat vpad, g, tw, x, w, w2;
};

/// vpad: vrows×vcols; G: gdim×gdim and X: gdim×xcols (the merge's; gdim 0 when nothing is merged);
/// Tw: twdim×twdim; W and W2: wrows×wcols each.
template <class T>
Scratch scratch_for(const DeviceKernels& dk, int64_t vrows, int64_t vcols, int64_t gdim, int64_t xcols,
                    int64_t twdim, int64_t wrows, int64_t wcols) {
    Scratch s;
    size_t end = 0;
    auto take = [&](Mat& m, int64_t rows, int64_t cols) {
        m = {nullptr, end, align8(rows)};
        end += size_t(m.ld * cols);
    };
    take(s.vpad, vrows, vcols), take(s.g, gdim, gdim), take(s.x, gdim, xcols), take(s.tw, twdim, twdim);
    take(s.w, wrows, wcols), take(s.w2, wrows, wcols);
    cl_mem buf = dk.scratch(end * sizeof(T));
    for (Mat* m : {&s.vpad, &s.g, &s.tw, &s.x, &s.w, &s.w2}) m->mem = buf;
    return s;
}

/// xGEQRT's mv×k V (unit lower trapezoidal, upper part not referenced) into vpad, with zeros above
/// the diagonal and ones on it, so that GEMMs can read it in full.
template <class T>
Mat unit_lower_copy(const DeviceKernels& dk, cl_command_queue q, int64_t mv, int64_t k, Mat V, Mat vpad) {
    laset<T>(dk, q, mv, k, T(0), T(1), vpad);
    if (mv > 1) lacpy<T>(dk, q, Uplo::Lower, mv - 1, k, at(V, 1, 0), at(vpad, 1, 0));
    return vpad;
}

/// Tw (wb×wb, zeros below the diagonal) = the T of reflectors [c0, c0 + wb) of V̂ (rows `rows` of
/// vs), whose inner blocks are in Tf: LAPACK xLARFT's recurrence one inner block at a time,
/// Tw[0:P, J] = −Tw[0:P, 0:P]·(G[0:P, J]·T_j) for J = [P, P + jb), with G's upper triangle =
/// V̂ᴴ·V̂ (a herk; the two products are GEMMs of P×jb). One inner block (wb ≤ ib) is a copy.
template <class T>
void merge_t(const DeviceKernels& dk, cl_command_queue q, const char* func, int64_t rows, int64_t wb, int64_t ib,
             Mat vs, Mat tf, Mat tw, const Scratch& ws) {
    cl_kernel kernel = dk.get("tessera_qr_t_blocks");
    const cl_int cwb = to_int(wb, func, "k"), cib = to_int(ib, func, "ib"), ldt = to_int(tf.ld, func, "ldt");
    const cl_int ldw = to_int(tw.ld, func, "ldw");
    const cl_ulong offT = tf.off, offW = tw.off;
    set_args(kernel, "clSetKernelArg(tessera_qr_t_blocks)", cwb, cib, tf.mem, offT, ldt, tw.mem, offW, ldw);
    // Fixed work-groups: with none given, PoCL picks one per global size and compiles the kernel
    // anew for each (24 variants per precision in the test suite).
    enqueue_2d(q, kernel, wb, wb, "clEnqueueNDRangeKernel(tessera_qr_t_blocks)");
    if (wb <= ib) return;
    herk<T>(dk, q, Uplo::Upper, Trans::ConjTrans, wb, rows, real_t<T>(1), vs, real_t<T>(0), ws.g);
    for (int64_t p = ib; p < wb; p += ib) {
        const int64_t jb = std::min(ib, wb - p);
        gemm<T>(dk, q, Trans::NoTrans, Trans::NoTrans, p, jb, jb, T(1), at(ws.g, 0, p), at(tw, p, p), T(0), ws.x);
        gemm<T>(dk, q, Trans::NoTrans, Trans::NoTrans, p, jb, p, T(-1), tw, ws.x, T(0), at(tw, 0, p));
    }
}

/// op(Q) applied to C (gemqrt: a = nullptr) or to [A; B] / [A B] (tpmqrt: C is B). Left: C is mv×nc,
/// A k×nc; Right: C is nc×mv, A nc×k. V is mv×k: unit lower trapezoidal (gemqrt) or full (tpmqrt).
template <class T>
void apply(const DeviceKernels& dk, cl_command_queue q, const char* func, bool left, Trans trans, int64_t mv,
           int64_t nc, int64_t k, int64_t ib, Mat V, Mat Tf, Mat C, const Mat* A) {
    if (ib < 1) throw Error(std::string("tessera::ocl::") + func + ": ib must be >= 1");
    to_int(mv, func, "m"), to_int(nc, func, "n"), to_int(k, func, "k");
    ib = std::min(ib, k);  // LAPACK's layout for ib > k (see kernels/cpu/qr.hpp)
    // Reflectors per super-block (the kernel parameter TESSERA_QR_SB, rounded down to whole inner
    // blocks): each adds a reduction-shaped G = V̂ᴴ·V̂ and 2·(wb/ib − 1) small GEMMs to merge its T;
    // fewer, larger super-blocks make the updates' GEMMs deeper. 512 measured best on an H100
    // (128, 256, 512, 1024: bench/gpu_task_shapes.md). A T merged beforehand (larft: ib = k) makes
    // one super-block with nothing to merge.
    const int64_t wmax = std::max(ib, dk.params().qr_sb / ib * ib);
    const int64_t gdim = wmax > ib ? wmax : 0;  // a merged T (wmax = ib = k) needs no G nor X
    const Scratch ws = scratch_for<T>(dk, A ? 0 : mv, A ? 0 : k, gdim, gdim ? ib : 0, wmax, left ? wmax : nc,
                                      left ? nc : wmax);
    const Mat v = A ? V : unit_lower_copy<T>(dk, q, mv, k, V, ws.vpad);
    const bool first_to_last = left ? trans != Trans::NoTrans : trans == Trans::NoTrans;
    const Trans N = Trans::NoTrans, CT = Trans::ConjTrans, op_t = trans == N ? N : CT;  // op_t: op(Tw)
    const T one(1), minus_one(-1), zero(0);
    const int64_t nsuper = (k + wmax - 1) / wmax;
    for (int64_t si = 0; si < nsuper; ++si) {
        const int64_t c0 = (first_to_last ? si : nsuper - 1 - si) * wmax, wb = std::min(wmax, k - c0);
        const int64_t r0 = A ? 0 : c0, rows = mv - r0;  // V̂'s nonzero rows
        // V̂ = vs; for gemqrt its leading wb×wb block V1 is unit lower triangular (a triangular
        // product: gemm_triangular) over a full V2 = v2 of rows − wb rows.
        const Mat vs = at(v, r0, c0), v2 = at(vs, wb, 0);
        const int64_t rows2 = rows - wb;
        merge_t<T>(dk, q, func, rows, wb, ib, vs, at(Tf, 0, c0), ws.tw, ws);
        if (left) {  // W = A[c0:, :] + V̂ᴴ·C[r0:, :];  W2 = op(Tw)·W;  A[c0:, :] −= W2;  C[r0:, :] −= V̂·W2
            const Mat c = at(C, r0, 0), c2 = at(c, wb, 0);
            if (A) {
                lacpy<T>(dk, q, Uplo::General, wb, nc, at(*A, c0, 0), ws.w);
                gemm<T>(dk, q, CT, N, wb, nc, rows, one, vs, c, one, ws.w);
            } else {
                gemm_triangular<T>(dk, q, Side::Left, Uplo::Lower, CT, wb, nc, one, vs, c, zero, ws.w);
                if (rows2 > 0) gemm<T>(dk, q, CT, N, wb, nc, rows2, one, v2, c2, one, ws.w);
            }
            gemm_triangular<T>(dk, q, Side::Left, Uplo::Upper, op_t, wb, nc, one, ws.tw, ws.w, zero, ws.w2);
            if (A) {
                geadd<T>(dk, q, wb, nc, minus_one, ws.w2, one, at(*A, c0, 0));
                gemm<T>(dk, q, N, N, rows, nc, wb, minus_one, vs, ws.w2, one, c);
            } else {
                if (rows2 > 0) gemm<T>(dk, q, N, N, rows2, nc, wb, minus_one, v2, ws.w2, one, c2);
                gemm_triangular<T>(dk, q, Side::Left, Uplo::Lower, N, wb, nc, minus_one, vs, ws.w2, one, c);
            }
        } else {  // W = A[:, c0:] + C[:, r0:]·V̂;  W2 = W·op(Tw);  A[:, c0:] −= W2;  C[:, r0:] −= W2·V̂ᴴ
            const Mat c = at(C, 0, r0), c2 = at(c, 0, wb);
            if (A) {
                lacpy<T>(dk, q, Uplo::General, nc, wb, at(*A, 0, c0), ws.w);
                gemm<T>(dk, q, N, N, nc, wb, rows, one, c, vs, one, ws.w);
            } else {
                gemm_triangular<T>(dk, q, Side::Right, Uplo::Lower, N, nc, wb, one, vs, c, zero, ws.w);
                if (rows2 > 0) gemm<T>(dk, q, N, N, nc, wb, rows2, one, c2, v2, one, ws.w);
            }
            gemm_triangular<T>(dk, q, Side::Right, Uplo::Upper, op_t, nc, wb, one, ws.tw, ws.w, zero, ws.w2);
            if (A) {
                geadd<T>(dk, q, nc, wb, minus_one, ws.w2, one, at(*A, 0, c0));
                gemm<T>(dk, q, N, CT, nc, rows, wb, minus_one, ws.w2, vs, one, c);
            } else {
                if (rows2 > 0) gemm<T>(dk, q, N, CT, nc, rows2, wb, minus_one, ws.w2, v2, one, c2);
                gemm_triangular<T>(dk, q, Side::Right, Uplo::Lower, CT, nc, wb, minus_one, vs, ws.w2, one, c);
            }
        }
    }
}

}  // namespace

template <class T>
void gemqrt(const DeviceKernels& dk, cl_command_queue q, Side side, Trans trans, int64_t m, int64_t n, int64_t k,
            int64_t ib, Mat V, Mat Tf, Mat C) {
    check_prec<T>(dk, "gemqrt");
    if (m == 0 || n == 0 || k == 0) return;
    const bool left = side == Side::Left;
    const int64_t mv = left ? m : n;
    if (k > mv) throw Error("tessera::ocl::gemqrt: k must be <= the rows of V");
    apply<T>(dk, q, "gemqrt", left, trans, mv, left ? n : m, k, ib, V, Tf, C, nullptr);
}

template <class T>
void form_q(const DeviceKernels& dk, cl_command_queue q, Trans trans, int64_t mv, int64_t k, int64_t ib, Mat V,
            Mat Tf, Mat Q) {
    check_prec<T>(dk, "form_q");
    if (mv == 0) return;
    laset<T>(dk, q, mv, mv, T(0), T(1), Q);
    gemqrt<T>(dk, q, Side::Left, trans, mv, mv, k, ib, V, Tf, Q);
}

template <class T>
void tpmqrt(const DeviceKernels& dk, cl_command_queue q, Side side, Trans trans, int64_t m, int64_t n, int64_t k,
            int64_t ib, Mat V, Mat Tf, Mat A, Mat B) {
    check_prec<T>(dk, "tpmqrt");
    if (m == 0 || n == 0 || k == 0) return;
    const bool left = side == Side::Left;
    apply<T>(dk, q, "tpmqrt", left, trans, left ? m : n, left ? n : m, k, ib, V, Tf, B, &A);
}

template <class T>
void larft(const DeviceKernels& dk, cl_command_queue q, bool below_identity, int64_t mv, int64_t k, int64_t ib,
           Mat V, Mat Tf, Mat Tk) {
    check_prec<T>(dk, "larft");
    if (ib < 1) throw Error("tessera::ocl::larft: ib must be >= 1");
    to_int(mv, "larft", "m"), to_int(k, "larft", "k");
    if (!below_identity && k > mv) throw Error("tessera::ocl::larft: k must be <= the rows of V");
    if (k == 0) return;
    ib = std::min(ib, k);
    const int64_t gdim = k > ib ? k : 0;
    const int64_t vrows = below_identity ? 0 : mv, vcols = below_identity ? 0 : k;  // the copy of V
    const Scratch ws = scratch_for<T>(dk, vrows, vcols, gdim, gdim ? ib : 0, 0, 0, 0);
    const Mat v = below_identity ? V : unit_lower_copy<T>(dk, q, mv, k, V, ws.vpad);
    merge_t<T>(dk, q, "larft", mv, k, ib, v, Tf, Tk, ws);
}

#define TESSERA_INSTANTIATE(T)                                                                                 \
    template void gemqrt<T>(const DeviceKernels&, cl_command_queue, Side, Trans, int64_t, int64_t, int64_t,   \
                            int64_t, Mat, Mat, Mat);                                                           \
    template void form_q<T>(const DeviceKernels&, cl_command_queue, Trans, int64_t, int64_t, int64_t, Mat, Mat, Mat); \
    template void tpmqrt<T>(const DeviceKernels&, cl_command_queue, Side, Trans, int64_t, int64_t, int64_t,   \
                            int64_t, Mat, Mat, Mat, Mat);                                              \
    template void larft<T>(const DeviceKernels&, cl_command_queue, bool, int64_t, int64_t, int64_t, Mat, Mat, Mat);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::ocl
