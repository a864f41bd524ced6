// Host launcher of the partial-pivoting LU panel on an OpenCL device (launch_lu.hpp): gather the
// tiles into one matrix, LAPACK xGETRF2's recursion with getrf.cl's leaves (one work-group, or one
// launch per column over many work-groups for tall leaves), which interchange whole rows of the
// panel as they pivot, trsm and gemm from launch.hpp, scatter back (lacpy). All on one in-order
// queue, never waiting.
#include "kernels/opencl/launch_lu.hpp"
#include "kernels/opencl/launch_util.hpp"
#include "runtime/precisions.hpp"

#include <algorithm>

namespace tessera::ocl {
namespace {

constexpr int64_t kLeafMax = 64;    // TESSERA_GETRF_LEAF_MAX (getrf.cl)
constexpr size_t kLeafLocal = 256;  // TESSERA_GETRF_WG (getrf.cl)
// Leaves taller than this run as tessera_getrf_leaf_step, one launch per column over one
// work-group per TESSERA_GETRF_STEP_ROWS rows; shorter ones in tessera_getrf_leaf's single work-group.
constexpr int64_t kSingleGroupRows = 1024;

/// Where the multi-work-group leaves (getrf.cl's tessera_getrf_leaf_step and _grid) keep their
/// candidates in the Panel workspace, after the panel and its pivots, and the exchange ints of the
/// latter (a give-up flag and one tag per work-group): element offsets of each array, in its type.
template <class T>
struct LeafCandidates {
    LeafCandidates(size_t base_bytes, int64_t m, int64_t nc, int64_t group_rows) : rows_per_group(group_rows) {
        const size_t groups = size_t((m + group_rows - 1) / group_rows), align = 64;
        size_t at = round_up(base_bytes, align);
        v = at / sizeof(real_t<T>);
        at = round_up(at + 2 * groups * sizeof(real_t<T>), align);
        i = at / sizeof(cl_int);
        at = round_up(at + 2 * groups * sizeof(cl_int), align);
        row = at / sizeof(T);
        at = round_up(at + 2 * groups * size_t(nc) * sizeof(T), align);
        saved = at / sizeof(T);
        at = round_up(at + 2 * size_t(nc) * sizeof(T), align);
        grid = at / sizeof(cl_int);
        grid_ints = 1 + groups;
        end_bytes = at + grid_ints * sizeof(cl_int);
    }
    int64_t rows_per_group;
    size_t v, i, row, saved, grid, grid_ints, end_bytes;  // grid: tessera_getrf_leaf_grid's exchange
};

/// The recursion on the m×n panel P (in the Panel workspace) with its int pivots at element
/// piv_off of piv, each the 1-based row of P it came from.
template <class T>
class PanelRecursion {
public:
    PanelRecursion(const DeviceKernels& dk, cl_command_queue q, int64_t m, int64_t ncols, Mat P, cl_mem piv,
                   size_t piv_off, const LeafCandidates<T>& cand)
        : dk_(dk), q_(q), leaf_(std::clamp<int64_t>(dk.params().getrf_leaf, 1, kLeafMax)), m_(m), ncols_(ncols), P_(P),
          piv_(piv), piv_off_(piv_off), cand_(cand),
          grid_(waiting_kernel_enabled(dk.params().getrf_grid, dk)) {}

    /// Whether a tall leaf ran as one launch (the exchange's give-up flag then says whether its
    /// work-groups met).
    bool used_grid() const { return used_grid_; }

    /// Factor columns c0 .. c0+n over rows c0 .. m (c0 + n ≤ min(m, columns)).
    void factor(int64_t c0, int64_t n) {
        if (n <= leaf_) return leaf(c0, n);
        const int64_t n1 = (n + leaf_ - 1) / leaf_ / 2 * leaf_, n2 = n - n1, c1 = c0 + n1;
        factor(c0, n1);  // its leaves interchanged whole rows of the panel, the right half's included
        trsm<T>(dk_, q_, Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, n1, n2, T(1), at(c0, c0), at(c0, c1));
        gemm<T>(dk_, q_, Trans::NoTrans, Trans::NoTrans, m_ - c1, n2, n1, T(-1), at(c1, c0), at(c0, c1), T(1),
                at(c1, c1));
        factor(c1, n2);
    }

private:
    void leaf(int64_t c0, int64_t n) {
        if (m_ - c0 > kSingleGroupRows) return leaf_steps(c0, n);
        cl_kernel kernel = dk_.get("tessera_getrf_leaf");
        const size_t local[1] = {kLeafLocal};
        check_local(dk_, "tessera_getrf_leaf", local, 1);
        const Mat a = at(c0, c0);
        const cl_int cm = to_int(m_ - c0, "getrf", "m"), cn = to_int(n, "getrf", "n"), ld = to_int(P_.ld, "getrf", "ld");
        const cl_int prow0 = to_int(c0, "getrf", "row"), first = c0 == 0;
        const cl_ulong off = a.off, offP = piv_off_ + size_t(c0);
        const cl_mem info = dk_.info_scratch();
        const cl_int jlo = -prow0, jhi = to_int(ncols_ - c0, "getrf", "columns");
        set_args(kernel, "clSetKernelArg(tessera_getrf_leaf)", cm, cn, a.mem, off, ld, piv_, offP, prow0, info, prow0,
                 first, jlo, jhi);
        enqueue(q_, kernel, 1, local, local, "clEnqueueNDRangeKernel(tessera_getrf_leaf)");
    }

    void leaf_steps(int64_t c0, int64_t n) {
        if (grid_ && leaf_grid(c0, n)) return;
        cl_kernel kernel = dk_.get("tessera_getrf_leaf_step");
        const size_t local[1] = {kLeafLocal};
        check_local(dk_, "tessera_getrf_leaf_step", local, 1);
        const Mat a = at(c0, c0);
        const cl_int cm = to_int(m_ - c0, "getrf", "m"), cn = to_int(n, "getrf", "n"), ld = to_int(P_.ld, "getrf", "ld");
        const cl_int prow0 = to_int(c0, "getrf", "row"), first = c0 == 0, rows_per_wg = cl_int(cand_.rows_per_group);
        const cl_ulong off = a.off, offP = piv_off_ + size_t(c0), offV = cand_.v, offI = cand_.i, offR = cand_.row,
                       offS = cand_.saved;
        const cl_mem info = dk_.info_scratch();
        const size_t global[1] = {size_t((cm + rows_per_wg - 1) / rows_per_wg) * kLeafLocal};
        const cl_int step0 = 0;
        const cl_int jlo = -prow0, jhi = to_int(ncols_ - c0, "getrf", "columns");
        set_args(kernel, "clSetKernelArg(tessera_getrf_leaf_step)", cm, cn, step0, rows_per_wg, a.mem, off, ld, piv_, offP,
                 prow0, info, prow0, first, jlo, jhi, P_.mem, offV, P_.mem, offI, P_.mem, offR, P_.mem, offS);
        // One launch per column, only the step argument (index 2) set anew.
        for (cl_int c = 0; c <= cn; ++c) {
            if (c > 0) check(clSetKernelArg(kernel, 2, sizeof(c), &c), "clSetKernelArg(tessera_getrf_leaf_step)");
            enqueue(q_, kernel, 1, global, local, "clEnqueueNDRangeKernel(tessera_getrf_leaf_step)");
        }
    }

    /// Rows each work-item of tessera_getrf_leaf_grid can keep in registers (getrf.cl's
    /// GETRF_GRID_RPT, from the same facts): in a program for NVIDIA GPUs, 1 when a row of the
    /// leaf is at most 64 doubles, else 0; elsewhere 8.
    int64_t grid_rows_per_item() const {
        if (!nvidia_program(dk_)) return 8;
        return leaf_ * (is_complex_v<T> ? 2 : 1) <= 64 ? 1 : 0;
    }

    /// The tall leaf in one launch of tessera_getrf_leaf_grid, its work-groups (at most one per
    /// compute unit, so that all are resident at once) keeping their rows in registers and meeting
    /// at a grid barrier between columns. False, and nothing enqueued, when the device reports no
    /// compute units or the leaf has more rows than they hold.
    bool leaf_grid(int64_t c0, int64_t n) {
        const int64_t units = dk_.info().compute_units, rows = m_ - c0, wg = int64_t(kLeafLocal);
        if (units < 1) return false;
        const int64_t per_wg = std::max(int64_t(round_up(size_t(cand_.rows_per_group), size_t(wg))),
                                        int64_t(round_up(size_t((rows + units - 1) / units), size_t(wg))));
        if (per_wg / wg > grid_rows_per_item()) return false;
        cl_kernel kernel = dk_.get("tessera_getrf_leaf_grid");
        const size_t local[1] = {kLeafLocal};
        check_local(dk_, "tessera_getrf_leaf_grid", local, 1);
        const Mat a = at(c0, c0);
        const cl_int cm = to_int(rows, "getrf", "m"), cn = to_int(n, "getrf", "n"), ld = to_int(P_.ld, "getrf", "ld");
        const cl_int prow0 = to_int(c0, "getrf", "row"), first = c0 == 0, rows_per_wg = cl_int(per_wg);
        const cl_ulong off = a.off, offP = piv_off_ + size_t(c0), offV = cand_.v, offI = cand_.i, offR = cand_.row,
                       offS = cand_.saved, offG = cand_.grid;
        const cl_mem info = dk_.info_scratch();
        const size_t global[1] = {size_t((rows + per_wg - 1) / per_wg) * kLeafLocal};
        const cl_int jlo = -prow0, jhi = to_int(ncols_ - c0, "getrf", "columns");
        // The exchange's ints, once per panel: the tags are the panel's column numbers, new in
        // every leaf, and after a give-up the flag stays set, so that the panel's later grid leaves
        // stop at their first column.
        if (!used_grid_) {
            const cl_int zero = 0;
            check(clEnqueueFillBuffer(q_, P_.mem, &zero, sizeof zero, cand_.grid * sizeof(cl_int),
                                      cand_.grid_ints * sizeof(cl_int), 0, nullptr, nullptr),
                  "clEnqueueFillBuffer(getrf grid exchange)");
        }
        set_args(kernel, "clSetKernelArg(tessera_getrf_leaf_grid)", cm, cn, rows_per_wg, a.mem, off, ld, piv_, offP,
                 prow0, info, prow0, first, jlo, jhi, P_.mem, offV, P_.mem, offI, P_.mem, offR, P_.mem, offS, P_.mem,
                 offG);
        enqueue(q_, kernel, 1, global, local, "clEnqueueNDRangeKernel(tessera_getrf_leaf_grid)");
        used_grid_ = true;
        return true;
    }

    Mat at(int64_t i, int64_t j) const { return ocl::at(P_, i, j); }

    const DeviceKernels& dk_;
    cl_command_queue q_;
    int64_t leaf_;  // columns of a leaf (TESSERA_GETRF_LEAF)
    int64_t m_, ncols_;  // the panel's rows and columns
    Mat P_;
    cl_mem piv_;
    size_t piv_off_;
    LeafCandidates<T> cand_;
    bool grid_;  // tall leaves as tessera_getrf_leaf_grid (TESSERA_GETRF_GRID)
    bool used_grid_ = false;
};

}  // namespace

template <class T>
void getrf_panel(const DeviceKernels& dk, cl_command_queue q, const std::vector<Mat>& tiles,
                 const std::vector<int64_t>& rows, int64_t ncols, int64_t row0, cl_mem piv, size_t piv_off,
                 int64_t* host_ipiv, int* host_info) {
    check_prec<T>(dk, "getrf_panel");
    int64_t m = 0;
    for (int64_t r : rows) m += r;
    const int64_t kb = std::min(m, ncols);
    if (kb == 0) {  // nothing enqueued; LAPACK's info for an empty matrix
        *host_info = 0;
        return;
    }
    to_int(m, "getrf_panel", "m");
    // The panel (ld a multiple of 8 elements, as the GEMM kernels' aligned loads prefer), then its
    // int pivots.
    const int64_t ld = int64_t(round_up(size_t(m), 8));
    const size_t panel_bytes = size_t(ld * ncols) * sizeof(T);
    const size_t ipiv_off = panel_bytes / sizeof(cl_int);
    const LeafCandidates<T> cand(panel_bytes + size_t(kb) * sizeof(cl_int), m,
                                 std::min<int64_t>(kb, std::clamp<int64_t>(dk.params().getrf_leaf, 1, kLeafMax)),
                                 dk.params().getrf_step_rows);
    cl_mem s = dk.scratch(cand.end_bytes, DeviceKernels::Workspace::Panel);
    const Mat P{s, 0, ld};
    for (size_t t = 0, r = 0; t < tiles.size(); r += size_t(rows[t]), ++t)
        lacpy<T>(dk, q, Uplo::General, rows[t], ncols, tiles[t], {s, r, ld});
    PanelRecursion<T> panel(dk, q, m, ncols, P, s, ipiv_off, cand);
    panel.factor(0, kb);
    if (ncols > kb) {  // a wide panel (m < ncols): the columns right of the square part
        trsm<T>(dk, q, Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, kb, ncols - kb, T(1), P,
                {s, size_t(kb * ld), ld});
    }
    for (size_t t = 0, r = 0; t < tiles.size(); r += size_t(rows[t]), ++t)
        lacpy<T>(dk, q, Uplo::General, rows[t], ncols, {s, r, ld}, tiles[t]);
    cl_kernel kernel = dk.get("tessera_getrf_pivots");
    const cl_int ckb = cl_int(kb);
    const cl_ulong offP = ipiv_off, offOut = piv_off;
    const cl_long crow0 = row0;
    set_args(kernel, "clSetKernelArg(tessera_getrf_pivots)", ckb, s, offP, crow0, piv, offOut);
    const size_t local = 64, global = round_up(size_t(kb), local);
    enqueue(q, kernel, 1, &global, &local, "clEnqueueNDRangeKernel(tessera_getrf_pivots)");
    check(clEnqueueReadBuffer(q, piv, CL_FALSE, piv_off * sizeof(int64_t), size_t(kb) * sizeof(int64_t), host_ipiv,
                              0, nullptr, nullptr),
          "clEnqueueReadBuffer(getrf pivots)");
    // After a grid leaf, its give-up flag is waited for: set, it says that the work-groups did not
    // all run at once (another program holding compute units), and the panel is then not factored.
    cl_int gave_up = 0;
    if (panel.used_grid())
        check(clEnqueueReadBuffer(q, s, CL_FALSE, cand.grid * sizeof(cl_int), sizeof(cl_int), &gave_up, 0, nullptr,
                                  nullptr),
              "clEnqueueReadBuffer(getrf grid give-up flag)");
    check(clEnqueueReadBuffer(q, dk.info_scratch(), panel.used_grid() ? CL_TRUE : CL_FALSE, 0, sizeof(cl_int),
                              host_info, 0, nullptr, nullptr),
          "clEnqueueReadBuffer(getrf info)");
    if (gave_up != 0)
        throw Error("tessera::ocl::getrf_panel: the one-launch form of a panel leaf failed (its work-groups did not "
                    "all run at once: a wait for another work-group's column timed out); TESSERA_GETRF_GRID=0 "
                    "factors tall leaves one launch per column");
}

#define TESSERA_INSTANTIATE(T)                                                                                     \
    template void getrf_panel<T>(const DeviceKernels&, cl_command_queue, const std::vector<Mat>&,                 \
                                 const std::vector<int64_t>&, int64_t, int64_t, cl_mem, size_t, int64_t*, int*);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::ocl
