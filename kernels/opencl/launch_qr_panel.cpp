// Host launchers of the tile QR's panel kernels on an OpenCL device, geqrt and tpqrt
// (launch_qr.hpp): leaves of qr_panel.cl, each applied to the columns right of it by the update
// launchers (gemqrt, tpmqrt), inner blocks wider than a leaf merged by larft. All on one in-order
// queue, never waiting.
#include "kernels/opencl/launch_qr.hpp"
#include "kernels/opencl/launch_util.hpp"
#include "runtime/precisions.hpp"

#include <algorithm>

namespace tessera::ocl {
namespace {

constexpr int64_t kLeafMax = 32;    // TESSERA_QRL_MAX (qr_panel.cl)
constexpr size_t kLeafLocal = 64;   // TESSERA_QRL_WG (qr_panel.cl)

/// One launch of tessera_qr_leaf: nc reflectors of [Top; X] (tri: xGEQR2's block), T to Tleaf.
void leaf(const DeviceKernels& dk, cl_command_queue q, int64_t nc, int64_t mx, bool tri, const Mat& top,
          const Mat& x, const Mat& tleaf) {
    cl_kernel kernel = dk.get("tessera_qr_leaf");
    const size_t local[1] = {kLeafLocal};
    check_local(dk, "tessera_qr_leaf", local, 1);
    const cl_int cnc = to_int(nc, "qr", "nc"), cmx = to_int(mx, "qr", "m"), ctri = tri;
    const cl_int ldtop = to_int(top.ld, "qr", "lda"), ldx = to_int(x.ld, "qr", "ldb"), ldt = to_int(tleaf.ld, "qr", "ldt");
    const cl_ulong offTop = top.off, offX = x.off, offT = tleaf.off;
    set_args(kernel, "clSetKernelArg(tessera_qr_leaf)", cnc, cmx, ctri, top.mem, offTop, ldtop, x.mem, offX, ldx,
             tleaf.mem, offT, ldt);
    enqueue(q, kernel, 1, local, local, "clEnqueueNDRangeKernel(tessera_qr_leaf)");
}

/// The k reflectors of geqrt (tri: V in A below its diagonal) or tpqrt (V in B), leaf by leaf.
template <class T>
void factor(const DeviceKernels& dk, cl_command_queue q, bool tri, int64_t m, int64_t n, int64_t k, int64_t ib,
            const Mat& A, const Mat& B, const Mat& Tf) {
    ib = std::min(ib, k);
    const int64_t lb = std::min(ib, kLeafMax);
    // The leaves' T: Tf itself when a leaf is an inner block, else lb×k scratch merged per block.
    const Mat Ts = lb == ib ? Tf : Mat{dk.scratch(size_t(lb * k) * sizeof(T), DeviceKernels::Workspace::Panel), 0, lb};
    for (int64_t j0 = 0; j0 < k; j0 += ib) {  // inner blocks, each by leaves of at most lb columns
        const int64_t jb = std::min(ib, k - j0);
        for (int64_t l0 = j0; l0 < j0 + jb; l0 += lb) {
            const int64_t nc = std::min(lb, j0 + jb - l0), c1 = l0 + nc;
            const Mat top = at(A, l0, l0), x = tri ? top : at(B, 0, l0), tl = at(Ts, 0, l0);
            leaf(dk, q, nc, tri ? m - l0 : m, tri, top, x, tl);
            if (c1 >= n) continue;
            if (tri)
                gemqrt<T>(dk, q, Side::Left, Trans::ConjTrans, m - l0, n - c1, nc, nc, top, tl, at(A, l0, c1));
            else
                tpmqrt<T>(dk, q, Side::Left, Trans::ConjTrans, m, n - c1, nc, nc, x, tl, at(A, l0, c1), at(B, 0, c1));
        }
        if (lb < ib)  // the block's T from its leaves' (its V is final: later leaves write right of it)
            larft<T>(dk, q, !tri, tri ? m - j0 : m, jb, lb, tri ? at(A, j0, j0) : at(B, 0, j0), at(Ts, 0, j0),
                     at(Tf, 0, j0));
    }
}

}  // namespace

template <class T>
void geqrt(const DeviceKernels& dk, cl_command_queue q, int64_t m, int64_t n, int64_t ib, Mat A, Mat Tf) {
    check_prec<T>(dk, "geqrt");
    const int64_t k = std::min(m, n);
    if (k == 0) return;
    if (ib < 1) throw Error("tessera::ocl::geqrt: ib must be >= 1");
    factor<T>(dk, q, true, m, n, k, ib, A, A, Tf);
}

template <class T>
void tpqrt(const DeviceKernels& dk, cl_command_queue q, int64_t m, int64_t n, int64_t ib, Mat A, Mat B, Mat Tf) {
    check_prec<T>(dk, "tpqrt");
    if (n == 0) return;
    if (ib < 1) throw Error("tessera::ocl::tpqrt: ib must be >= 1");
    factor<T>(dk, q, false, m, n, n, ib, A, B, Tf);
}

#define TESSERA_INSTANTIATE(T)                                                                         \
    template void geqrt<T>(const DeviceKernels&, cl_command_queue, int64_t, int64_t, int64_t, Mat, Mat); \
    template void tpqrt<T>(const DeviceKernels&, cl_command_queue, int64_t, int64_t, int64_t, Mat, Mat, Mat);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::ocl
