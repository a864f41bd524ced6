// Host launchers of the QR panel kernels on an OpenCL device (launch_qr.hpp). The tile QR's geqrt and
// tpqrt: leaves of qr_panel.cl, each applied to the columns right of it by the update launchers
// (gemqrt, tpmqrt), inner blocks wider than a leaf merged by larft. The column panel geqrf_panel:
// the tiles gathered into one matrix, factored by Elmroth and Gustavson's recursive QR (LAPACK
// xGEQRT3) with its V kept dense (unit diagonal, zeros above: R moves out as it becomes final), so
// that every product is one GEMM; its leaves are qr_grid.cl's one-launch kernel on NVIDIA GPUs
// (qr_panel.cl's one-work-group leaf elsewhere). All on one in-order queue; only a grid leaf's
// give-up flag is waited for.
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

constexpr size_t kGridLocal = 256;  // QRG_WG (qr_grid.cl)

/// Columns of a leaf of the column panel: TESSERA_QR_LEAF, at most 16 for complex (qr_grid.cl's QRG_L).
template <class T>
int64_t column_leaf(const DeviceKernels& dk) {
    const int64_t l = dk.params().qr_leaf;
    return is_complex_v<T> ? std::min<int64_t>(l, 16) : l;
}

/// Where the column panel keeps its pieces in the Panel workspace, byte offsets: the gathered m×ncols
/// panel P (ld a multiple of 8 elements), R (ncols×ncols), two ncols×ncols temporaries, and the
/// exchange of tessera_qr_leaf_grid for up to `groups` work-groups (qr_grid.cl).
template <class T>
struct ColumnWorkspace {
    ColumnWorkspace(int64_t m, int64_t ncols, int64_t groups, int64_t leaf) : ld(int64_t(round_up(size_t(m), 8))) {
        size_t at = 0;
        auto take = [&at](size_t bytes) {
            const size_t here = at;
            at = round_up(at + bytes, 256);
            return here;
        };
        const size_t square = size_t(ncols * ncols) * sizeof(T), g = size_t(groups);
        p = take(size_t(ld * ncols) * sizeof(T));
        r = take(square), w1 = take(square), w2 = take(square);
        smax = take(2 * g * sizeof(real_t<T>));
        part = take(2 * g * size_t(leaf) * sizeof(T));
        crow = take(2 * size_t(leaf) * sizeof(T));
        grid = take((1 + g) * sizeof(cl_int));
        grid_ints = 1 + g;
        bytes = at;
    }
    int64_t ld;
    size_t p, r, w1, w2, smax, part, crow, grid, grid_ints, bytes;
};

/// The recursion on the column panel P (m rows) with its R and T.
template <class T>
class ColumnPanel {
public:
    ColumnPanel(const DeviceKernels& dk, cl_command_queue q, int64_t m, int64_t ncols, cl_mem s,
                const ColumnWorkspace<T>& ws, Mat Tt)
        : dk_(dk), q_(q), m_(m), leaf_(column_leaf<T>(dk)), s_(s), ws_(ws), P_{s, ws.p / sizeof(T), ws.ld},
          R_{s, ws.r / sizeof(T), ncols}, W1_{s, ws.w1 / sizeof(T), ncols}, W2_{s, ws.w2 / sizeof(T), ncols}, T_(Tt),
          grid_(waiting_kernel_enabled(dk.params().qr_grid, dk)) {}

    Mat P() const { return P_; }
    Mat R() const { return R_; }
    /// Whether a leaf ran as one grid launch (its give-up flag then says whether its work-groups met).
    bool used_grid() const { return used_grid_; }

    /// QR of columns c0 .. c0+n over rows c0 .. m: V dense in P, R's rows c0 .. c0+n in R, T(c0.., c0..).
    void factor(int64_t c0, int64_t n) {
        if (n <= leaf_) {
            factor_leaf(c0, n);
            take_r(c0, c0, n, n);
            return;
        }
        const int64_t n1 = (n + leaf_ - 1) / leaf_ / 2 * leaf_, n2 = n - n1, c1 = c0 + n1;
        factor(c0, n1);
        apply_qh(c0, n1, c1, n2);
        take_r(c0, c1, n1, n2);
        factor(c1, n2);
        // T12 = −T1·(V1ᴴ·V2)·T2, V2 zero above row c1.
        gemm<T>(dk_, q_, Trans::ConjTrans, Trans::NoTrans, n1, n2, m_ - c1, T(1), at(P_, c1, c0), at(P_, c1, c1), T(0),
                W1_);
        gemm<T>(dk_, q_, Trans::NoTrans, Trans::NoTrans, n1, n2, n1, T(1), at(T_, c0, c0), W1_, T(0), W2_);
        gemm<T>(dk_, q_, Trans::NoTrans, Trans::NoTrans, n1, n2, n2, T(-1), W2_, at(T_, c1, c1), T(0), at(T_, c0, c1));
    }

    /// Columns cc .. cc+nc of P, rows c0 .. m, = (I − V·T·Vᴴ)ᴴ times themselves, V and T those of
    /// columns c0 .. c0+n.
    void apply_qh(int64_t c0, int64_t n, int64_t cc, int64_t nc) {
        gemm<T>(dk_, q_, Trans::ConjTrans, Trans::NoTrans, n, nc, m_ - c0, T(1), at(P_, c0, c0), at(P_, c0, cc), T(0),
                W1_);
        gemm<T>(dk_, q_, Trans::ConjTrans, Trans::NoTrans, n, nc, n, T(1), at(T_, c0, c0), W1_, T(0), W2_);
        gemm<T>(dk_, q_, Trans::NoTrans, Trans::NoTrans, m_ - c0, nc, n, T(-1), at(P_, c0, c0), W2_, T(1),
                at(P_, c0, cc));
    }

    /// R's final entries of the rows×cols block at (r0, c) move from P to R (qr_grid.cl's tessera_qr_take_r).
    void take_r(int64_t r0, int64_t c, int64_t rows, int64_t cols) {
        cl_kernel kernel = dk_.get("tessera_qr_take_r");
        const cl_int cr = to_int(rows, "geqrf_panel", "rows"), cc = to_int(cols, "geqrf_panel", "cols");
        const cl_int shift = to_int(c - r0, "geqrf_panel", "shift"), ldp = to_int(P_.ld, "geqrf_panel", "ld");
        const cl_int ldr = to_int(R_.ld, "geqrf_panel", "ldr");
        const Mat p = at(P_, r0, c), r = at(R_, r0, c);
        const cl_ulong offP = p.off, offR = r.off;
        set_args(kernel, "clSetKernelArg(tessera_qr_take_r)", cr, cc, shift, p.mem, offP, ldp, r.mem, offR, ldr);
        const size_t local = 64, global = round_up(size_t(rows * cols), local);
        enqueue(q_, kernel, 1, &global, &local, "clEnqueueNDRangeKernel(tessera_qr_take_r)");
    }

private:
    void factor_leaf(int64_t c0, int64_t n) {
        if (grid_ && leaf_grid(c0, n)) return;
        const Mat a = at(P_, c0, c0);
        leaf(dk_, q_, n, m_ - c0, true, a, a, at(T_, c0, c0));
    }

    /// The leaf in one launch of tessera_qr_leaf_grid, at most one work-group per compute unit: false,
    /// and nothing enqueued, when the device reports no compute units or the rows exceed what their
    /// registers hold (QRG_RPT rows per work-item: 1 in a program for NVIDIA GPUs, else 8; leaves
    /// that need up to twice as many take tessera_qr_leaf_grid_tall: an H100's 132 compute units
    /// hold 33792 rows at one per work-item, a 65536-row panel needs two).
    bool leaf_grid(int64_t c0, int64_t n) {
        const int64_t units = dk_.info().compute_units, rows = m_ - c0, wg = int64_t(kGridLocal);
        const int64_t per_item = nvidia_program(dk_) ? 1 : 8;
        if (units < 1) return false;
        const int64_t per_wg = int64_t(round_up(size_t(std::max<int64_t>(1, (rows + units - 1) / units)), size_t(wg)));
        const int64_t groups = (rows + per_wg - 1) / per_wg;
        if (per_wg / wg > 2 * per_item || size_t(groups) + 1 > ws_.grid_ints) return false;
        const char* name = per_wg / wg > per_item ? "tessera_qr_leaf_grid_tall" : "tessera_qr_leaf_grid";
        cl_kernel kernel = dk_.get(name);
        const size_t local[1] = {kGridLocal}, global[1] = {size_t(groups) * kGridLocal};
        check_local(dk_, name, local, 1);
        if (!used_grid_) {  // the exchange's ints, once per panel (tags grow through the panel)
            const cl_int zero = 0;
            check(clEnqueueFillBuffer(q_, s_, &zero, sizeof zero, ws_.grid, ws_.grid_ints * sizeof(cl_int), 0, nullptr,
                                      nullptr),
                  "clEnqueueFillBuffer(geqrf_panel grid exchange)");
        }
        const Mat a = at(P_, c0, c0), t = at(T_, c0, c0);
        const cl_int cm = to_int(rows, "geqrf_panel", "m"), cn = cl_int(n), crw = cl_int(per_wg);
        const cl_int tag0 = to_int(c0, "geqrf_panel", "column"), lda = to_int(a.ld, "geqrf_panel", "ld");
        const cl_int ldt = to_int(t.ld, "geqrf_panel", "ldt");
        const cl_ulong offA = a.off, offT = t.off, offM = ws_.smax / sizeof(real_t<T>), offP = ws_.part / sizeof(T),
                       offC = ws_.crow / sizeof(T), offG = ws_.grid / sizeof(cl_int);
        set_args(kernel, "clSetKernelArg(geqrf_panel grid leaf)", cm, cn, crw, tag0, a.mem, offA, lda, t.mem, offT, ldt, s_,
                 offM, s_, offP, s_, offC, s_, offG);
        enqueue(q_, kernel, 1, global, local, "clEnqueueNDRangeKernel(geqrf_panel grid leaf)");
        used_grid_ = true;
        return true;
    }

    const DeviceKernels& dk_;
    cl_command_queue q_;
    int64_t m_, leaf_;
    cl_mem s_;
    const ColumnWorkspace<T>& ws_;
    Mat P_, R_, W1_, W2_, T_;
    bool grid_;
    bool used_grid_ = false;
};

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

template <class T>
void geqrf_panel(const DeviceKernels& dk, cl_command_queue q, const std::vector<Mat>& tiles,
                 const std::vector<int64_t>& rows, int64_t ncols, Mat Tt) {
    check_prec<T>(dk, "geqrf_panel");
    int64_t m = 0;
    for (int64_t r : rows) m += r;
    if (ncols == 0) return;
    laset<T>(dk, q, ncols, ncols, T(0), T(0), Tt);
    const int64_t kb = std::min(m, ncols);
    if (kb == 0) return;
    to_int(m, "geqrf_panel", "m");
    const int64_t units = std::max<int64_t>(1, dk.info().compute_units);
    const ColumnWorkspace<T> ws(m, ncols, std::min(units, (m + int64_t(kGridLocal) - 1) / int64_t(kGridLocal)),
                                column_leaf<T>(dk));
    const cl_mem s = dk.scratch(ws.bytes, DeviceKernels::Workspace::Panel);
    ColumnPanel<T> panel(dk, q, m, ncols, s, ws, Tt);
    const Mat P = panel.P();
    for (size_t t = 0, r = 0; t < tiles.size(); r += size_t(rows[t]), ++t)
        lacpy<T>(dk, q, Uplo::General, rows[t], ncols, tiles[t], at(P, int64_t(r), 0));
    panel.factor(0, kb);
    if (ncols > kb) {  // a wide panel (m < ncols): Qᴴ on the columns right of the square part, all R
        panel.apply_qh(0, kb, kb, ncols - kb);
        panel.take_r(0, kb, kb, ncols - kb);
    }
    lacpy<T>(dk, q, Uplo::Upper, kb, ncols, panel.R(), P);
    for (size_t t = 0, r = 0; t < tiles.size(); r += size_t(rows[t]), ++t)
        lacpy<T>(dk, q, Uplo::General, rows[t], ncols, at(P, int64_t(r), 0), tiles[t]);
    if (!panel.used_grid()) return;
    cl_int gave_up = 0;  // set: the work-groups of a grid leaf did not all run at once
    check(clEnqueueReadBuffer(q, s, CL_TRUE, ws.grid, sizeof(cl_int), &gave_up, 0, nullptr, nullptr),
          "clEnqueueReadBuffer(geqrf_panel grid give-up flag)");
    if (gave_up != 0)
        throw Error("tessera::ocl::geqrf_panel: the one-launch form of a panel leaf failed (its work-groups did not "
                    "all run at once: a wait for another work-group's column timed out); TESSERA_QR_GRID=0 "
                    "factors leaves in one work-group");
}

#define TESSERA_INSTANTIATE(T)                                                                         \
    template void geqrt<T>(const DeviceKernels&, cl_command_queue, int64_t, int64_t, int64_t, Mat, Mat); \
    template void tpqrt<T>(const DeviceKernels&, cl_command_queue, int64_t, int64_t, int64_t, Mat, Mat, Mat);    \
    template void geqrf_panel<T>(const DeviceKernels&, cl_command_queue, const std::vector<Mat>&,                 \
                                 const std::vector<int64_t>&, int64_t, Mat);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::ocl
