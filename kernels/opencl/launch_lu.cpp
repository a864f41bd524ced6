// Host launchers of lu.cl: laswp across a column of tiles, gessm and ssssm (swap kernel + the
// portable trsm/gemm launchers of launch.hpp, all on one in-order queue, never waiting).
#include "kernels/opencl/launch_lu.hpp"
#include "kernels/opencl/launch_util.hpp"
#include "runtime/precisions.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace tessera::ocl {
namespace {

/// tessera_lu_rowcopy: D(idx[off+nrows+e], :) = S(idx[off+e], :) for e < nrows.
void rowcopy(const DeviceKernels& dk, cl_command_queue q, int64_t nrows, int64_t ncols, const Mat& S, const Mat& D,
             cl_mem idx, size_t idx_off) {
    if (nrows == 0 || ncols == 0) return;
    cl_kernel kernel = dk.get("tessera_lu_rowcopy");
    const cl_int cr = to_int(nrows, "laswp", "rows"), cc = to_int(ncols, "laswp", "ncols");
    const cl_int lds = to_int(S.ld, "laswp", "ld"), ldd = to_int(D.ld, "laswp", "ld");
    const cl_ulong offS = S.off, offD = D.off, offI = idx_off;
    set_args(kernel, "clSetKernelArg(tessera_lu_rowcopy)", cr, cc, S.mem, offS, lds, D.mem, offD, ldd, idx, offI);
    const size_t local[2] = {16, 16};
    const size_t global[2] = {round_up(size_t(nrows), local[0]), round_up(size_t(ncols), local[1])};
    enqueue(q, kernel, 2, global, local, "clEnqueueNDRangeKernel(tessera_lu_rowcopy)");
}

/// Row interchanges of tessera_lu_swap on ncols columns: for t = 0..npiv−1 in order, with
/// v = ipiv[ipiv_off + t] (int device buffer) and r = r0 + t, row r of A1 is swapped with row v−1 of
/// A1 when v > 0 (LAPACK's convention) or with row −v−1 of A2 when v < 0 (incremental pivoting's).
void lu_swap(const DeviceKernels& dk, cl_command_queue q, int64_t ncols, int64_t npiv, int64_t r0, const Mat& A1,
             const Mat& A2, cl_mem ipiv, size_t ipiv_off) {
    if (ncols == 0 || npiv == 0) return;
    cl_kernel kernel = dk.get("tessera_lu_swap");
    const cl_int cn = to_int(ncols, "swap", "ncols"), cp = to_int(npiv, "swap", "npiv"), cr = to_int(r0, "swap", "r0");
    const cl_int ld1 = to_int(A1.ld, "swap", "ld1"), ld2 = to_int(A2.ld, "swap", "ld2");
    const cl_ulong off1 = A1.off, off2 = A2.off, offP = ipiv_off;
    set_args(kernel, "clSetKernelArg(tessera_lu_swap)", cn, cp, cr, A1.mem, off1, ld1, A2.mem, off2, ld2, ipiv, offP);
    const size_t local = 64, global = round_up(size_t(ncols), local);
    enqueue(q, kernel, 1, &global, &local, "clEnqueueNDRangeKernel(tessera_lu_swap)");
}

}  // namespace

template <class T>
void laswp(const DeviceKernels& dk, cl_command_queue q, int64_t ncols, const std::vector<Mat>& tiles,
           const std::vector<int64_t>& rows, int64_t row0, const int64_t* ipiv, int64_t k1, int64_t k2, bool forward) {
    check_prec<T>(dk, "laswp");
    if (ncols == 0 || k2 <= k1 || tiles.empty()) return;
    const int64_t nb = rows[0], ntiles = int64_t(tiles.size());
    int64_t total = 0;
    for (int64_t r : rows) total += r;
    // Compose the interchanges: after them, relative row r holds the original row src[r].
    std::vector<int64_t> src(static_cast<size_t>(total));
    for (int64_t r = 0; r < total; ++r) src[size_t(r)] = r;
    for (int64_t s = 0; s < k2 - k1; ++s) {
        const int64_t i = forward ? k1 + s : k2 - 1 - s;
        const int64_t r = i - row0, p = ipiv[i] - 1 - row0;
        if (r < 0 || r >= total || p < 0 || p >= total) throw Error("tessera::ocl::laswp: pivot out of range");
        std::swap(src[size_t(r)], src[size_t(p)]);
    }
    auto tile_of = [&](int64_t r) { return std::min(r / nb, ntiles - 1); };
    // Moved rows, grouped by source tile (gather into W) and by destination tile (scatter from W).
    std::vector<std::vector<int>> gather_src(static_cast<size_t>(ntiles)), gather_dst(static_cast<size_t>(ntiles));
    std::vector<std::vector<int>> scatter_src(static_cast<size_t>(ntiles)), scatter_dst(static_cast<size_t>(ntiles));
    int nmoved = 0;
    for (int64_t r = 0; r < total; ++r) {
        const int64_t s = src[size_t(r)];
        if (s == r) continue;
        const int64_t ts = tile_of(s), td = tile_of(r);
        gather_src[size_t(ts)].push_back(int(s - ts * nb));
        gather_dst[size_t(ts)].push_back(nmoved);
        scatter_src[size_t(td)].push_back(nmoved);
        scatter_dst[size_t(td)].push_back(int(r - td * nb));
        ++nmoved;
    }
    if (nmoved == 0) return;
    // One index buffer: per tile, [gather src | gather dst] then [scatter src | scatter dst].
    std::vector<int> idx;
    idx.reserve(size_t(4 * nmoved));
    std::vector<size_t> gather_off(static_cast<size_t>(ntiles)), scatter_off(static_cast<size_t>(ntiles));
    for (int64_t t = 0; t < ntiles; ++t) {
        gather_off[size_t(t)] = idx.size();
        idx.insert(idx.end(), gather_src[size_t(t)].begin(), gather_src[size_t(t)].end());
        idx.insert(idx.end(), gather_dst[size_t(t)].begin(), gather_dst[size_t(t)].end());
        scatter_off[size_t(t)] = idx.size();
        idx.insert(idx.end(), scatter_src[size_t(t)].begin(), scatter_src[size_t(t)].end());
        idx.insert(idx.end(), scatter_dst[size_t(t)].begin(), scatter_dst[size_t(t)].end());
    }
    // The moved rows (W) and the index lists in the launcher workspace: no allocation per call (a
    // buffer created and released per task cost about a millisecond on NVIDIA's driver). The lists
    // are written without waiting; their host copy is freed when that write completes.
    const size_t w_bytes = round_up(size_t(nmoved) * size_t(ncols) * sizeof(T), 256);
    cl_mem work = dk.scratch(w_bytes + idx.size() * sizeof(int));
    auto* host = new std::vector<int>(std::move(idx));
    cl_event written = nullptr;
    const cl_int err = clEnqueueWriteBuffer(q, work, CL_FALSE, w_bytes, host->size() * sizeof(int), host->data(), 0,
                                            nullptr, &written);
    if (err != CL_SUCCESS) delete host;
    check(err, "clEnqueueWriteBuffer(laswp indices)");
    const cl_int cb = clSetEventCallback(
        written, CL_COMPLETE, [](cl_event, cl_int, void* p) { delete static_cast<std::vector<int>*>(p); }, host);
    clReleaseEvent(written);
    if (cb != CL_SUCCESS) {  // no callback: wait for the write, then free the lists here
        clFinish(q);
        delete host;
    }
    const Mat W{work, 0, nmoved};
    const size_t idx0 = w_bytes / sizeof(int);
    for (int64_t t = 0; t < ntiles; ++t)
        rowcopy(dk, q, int64_t(gather_src[size_t(t)].size()), ncols, tiles[size_t(t)], W, work,
                idx0 + gather_off[size_t(t)]);
    for (int64_t t = 0; t < ntiles; ++t)
        rowcopy(dk, q, int64_t(scatter_src[size_t(t)].size()), ncols, W, tiles[size_t(t)], work,
                idx0 + scatter_off[size_t(t)]);
}

template <class T>
void gessm(const DeviceKernels& dk, cl_command_queue q, int64_t m, int64_t n, int64_t kb, cl_mem ipiv, size_t ipiv_off,
           Mat L, Mat A) {
    check_prec<T>(dk, "gessm");
    if (m == 0 || n == 0 || kb == 0) return;
    lu_swap(dk, q, n, kb, 0, A, A, ipiv, ipiv_off);
    trsm<T>(dk, q, Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, kb, n, T(1), L, A);
    if (m > kb) gemm<T>(dk, q, Trans::NoTrans, Trans::NoTrans, m - kb, n, kb, T(-1), at(L, kb, 0), A, T(1), at(A, kb, 0));
}

template <class T>
void ssssm(const DeviceKernels& dk, cl_command_queue q, int64_t n, int64_t m2, int64_t kb, int64_t ib, Mat A1, Mat A2,
           Mat L1, Mat L2, cl_mem ipiv, size_t ipiv_off) {
    check_prec<T>(dk, "ssssm");
    if (n == 0 || kb == 0) return;
    for (int64_t ii = 0; ii < kb; ii += ib) {
        const int64_t sb = std::min(ib, kb - ii);
        lu_swap(dk, q, n, sb, ii, A1, A2, ipiv, ipiv_off + size_t(ii));
        trsm<T>(dk, q, Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, sb, n, T(1), at(L1, 0, ii), at(A1, ii, 0));
        if (m2 > 0)
            gemm<T>(dk, q, Trans::NoTrans, Trans::NoTrans, m2, n, sb, T(-1), at(L2, 0, ii), at(A1, ii, 0), T(1), A2);
    }
}

#define TESSERA_INSTANTIATE(T)                                                                                    \
    template void laswp<T>(const DeviceKernels&, cl_command_queue, int64_t, const std::vector<Mat>&,              \
                           const std::vector<int64_t>&, int64_t, const int64_t*, int64_t, int64_t, bool);         \
    template void gessm<T>(const DeviceKernels&, cl_command_queue, int64_t, int64_t, int64_t, cl_mem, size_t, Mat, \
                           Mat);                                                                                  \
    template void ssssm<T>(const DeviceKernels&, cl_command_queue, int64_t, int64_t, int64_t, int64_t, Mat, Mat,   \
                           Mat, Mat, cl_mem, size_t);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::ocl
