// Host launchers of the narrow products (gemm_narrow.cl): C = alpha·op(A)·op(B) + beta·C with few
// columns of C, bound by reading A once; gemm() tries it first (launch.cpp). And of the pair of a
// symmetric matrix's off-diagonal tile, A·u and op(A)·v from one read of A (gemm_narrow_pair.cl).
#include "kernels/opencl/launch.hpp"
#include "kernels/opencl/launch_util.hpp"
#include "runtime/precisions.hpp"

#include <algorithm>

namespace tessera::ocl {
namespace {

constexpr const char* kFunc = "gemm_narrow";
constexpr int64_t kRowsPerItem = 4;            // gemm_narrow.cl's NARROW_ROWS
constexpr int64_t kItemsN = 64, kRangesN = 4;  // NARROW_NX, NARROW_NY
constexpr int64_t kRangesT = 32, kItemsT = 8;  // NARROW_TX, NARROW_TY
/// Work-groups per compute unit the split of k aims at: enough loads in flight to stream A at the
/// memory's rate (a unit holds eight of these 256-work-item groups).
constexpr int64_t kGroupsPerUnit = 4;
/// Each range of k at least this deep (so the partial sums cost little against reading A).
constexpr int64_t kMinRange = 128;
/// The kernels by op(A) (A, then Aᵀ or Aᴴ) and width (1, 2, 4, 8 columns of registers): the narrowest
/// with at least n columns is taken.
constexpr const char* kNames[2][4] = {
    {"tessera_gemm_narrow_n1", "tessera_gemm_narrow_n2", "tessera_gemm_narrow_n4", "tessera_gemm_narrow_n8"},
    {"tessera_gemm_narrow_t1", "tessera_gemm_narrow_t2", "tessera_gemm_narrow_t4", "tessera_gemm_narrow_t8"}};

/// C = the sum of the `splits` partials W[s·rows·n ..] (rows×n each, leading dimension rows) + beta·C,
/// one launch of tessera_gemm_narrow_sum (gemm_narrow.cl: work-groups of 64 × 4).
template <class T>
void add_partials(const DeviceKernels& dk, cl_command_queue q, int64_t rows, int64_t n, int64_t splits, cl_mem W,
                  T beta, const Mat& C) {
    constexpr int64_t kSumX = 64, kSumY = 4;  // NARROW_SUM_X, NARROW_SUM_Y
    cl_kernel sum = dk.get("tessera_gemm_narrow_sum");
    const cl_int cm = to_int(rows, kFunc, "m"), cn = to_int(n, kFunc, "n"), cs = to_int(splits, kFunc, "splits");
    const cl_int ldc = to_int(C.ld, kFunc, "ldc");
    const cl_ulong offC = C.off;
    set_args(sum, "clSetKernelArg(tessera_gemm_narrow_sum)", cm, cn, cs, W, beta, C.mem, offC, ldc);
    const size_t local[2] = {size_t(kSumX), size_t(kSumY)};
    check_local(dk, "tessera_gemm_narrow_sum", local, 2);
    const size_t global[2] = {round_up(size_t(rows), size_t(kSumX)), size_t(n * kSumY)};
    enqueue(q, sum, 2, global, local, "clEnqueueNDRangeKernel(tessera_gemm_narrow_sum)");
}

/// Work-groups along the m rows of C of a narrow product (op(A) = A: the _n kernels; else _t).
int64_t narrow_row_groups(bool ta, int64_t m) {
    const int64_t group_rows = (ta ? kItemsT : kItemsN) * kRowsPerItem;  // rows of C per work-group
    return (m + group_rows - 1) / group_rows;
}

/// Ranges of k a narrow product of m rows splits into: enough work-groups for kGroupsPerUnit per
/// compute unit, each range at least kMinRange deep; one for alpha = 0.
template <class T>
int64_t narrow_splits(const DeviceKernels& dk, bool ta, int64_t m, int64_t k, T alpha) {
    if (alpha == T(0)) return 1;
    const int64_t row_groups = narrow_row_groups(ta, m);
    const int64_t units = std::max<int64_t>(1, dk.info().compute_units);
    return std::clamp<int64_t>((kGroupsPerUnit * units + row_groups - 1) / row_groups, 1,
                               std::max<int64_t>(1, k / kMinRange));
}

/// One launch of the narrow kernel for op(A)·op(B) (m×n, depth k) in `splits` ranges: range s writes
/// alpha·(its sum) + out_beta·out to out + s·stride (gemm_narrow.cl's header).
template <class T>
void narrow_launch(const DeviceKernels& dk, cl_command_queue q, Trans transA, Trans transB, int64_t m, int64_t n,
                   int64_t k, int64_t splits, T alpha, const Mat& A, const Mat& B, T out_beta, const Mat& out,
                   int64_t stride, cl_int tri) {
    const bool ta = is_trans(transA);
    const char* name = kNames[ta][n <= 1 ? 0 : n <= 2 ? 1 : n <= 4 ? 2 : 3];
    const size_t local[2] = {size_t(ta ? kRangesT : kItemsN), size_t(ta ? kItemsT : kRangesN)};
    check_local(dk, name, local, 2);
    const int64_t kc = (k + splits - 1) / splits;
    const cl_int cm = to_int(m, kFunc, "m"), cn = to_int(n, kFunc, "n"), ck = to_int(k, kFunc, "k");
    const cl_int ckc = to_int(kc, kFunc, "kc"), cta = trans_code(transA), ctb = trans_code(transB);
    const cl_int lda = to_int(A.ld, kFunc, "lda"), ldb = to_int(B.ld, kFunc, "ldb"), ldc = to_int(out.ld, kFunc, "ldc");
    const cl_ulong offA = A.off, offB = B.off, offC = out.off, cstride = cl_ulong(stride);
    cl_kernel kernel = dk.get(name);
    set_args(kernel, "clSetKernelArg(tessera_gemm_narrow)", cm, cn, ck, ckc, cta, ctb, alpha, A.mem, offA, lda, B.mem,
             offB, ldb, out_beta, out.mem, offC, ldc, cstride, tri);
    const size_t global[2] = {size_t(narrow_row_groups(ta, m)) * local[0], size_t(splits) * local[1]};
    enqueue(q, kernel, 2, global, local, "clEnqueueNDRangeKernel(tessera_gemm_narrow)");
}

/// Whether the narrow kernels take a product of n columns and depth k.
bool narrow_fits(const DeviceKernels& dk, int64_t n, int64_t k) {
    return n <= dk.params().gemm_narrow && k >= kNarrowMinK && dk.has(kNames[0][0]);
}

}  // namespace

template <class T>
bool gemm_narrow(const DeviceKernels& dk, cl_command_queue q, Trans transA, Trans transB, int64_t m, int64_t n,
                 int64_t k, T alpha, Mat A, Mat B, T beta, Mat C, NarrowPart part, bool real_diagonal) {
    check_prec<T>(dk, kFunc);
    if (!narrow_fits(dk, n, k)) return false;
    if (m == 0 || n == 0) return true;
    const int64_t splits = narrow_splits(dk, is_trans(transA), m, k, alpha);
    const cl_int tri = cl_int(part) | (real_diagonal ? 8 : 0);  // gemm_narrow.cl's `tri`
    // Several ranges: each writes alpha·(its sum) into the SplitK workspace (m×n each, leading
    // dimension m, beta 0), and tessera_gemm_narrow_sum adds them to beta·C.
    const bool split = splits > 1;
    const Mat out = split ? Mat{dk.scratch(size_t(splits * m * n) * sizeof(T), DeviceKernels::Workspace::SplitK), 0, m}
                          : C;
    narrow_launch<T>(dk, q, transA, transB, m, n, k, splits, alpha, A, B, split ? T(0) : beta, out, split ? m * n : 0,
                     tri);
    if (split) add_partials<T>(dk, q, m, n, splits, out.mem, beta, C);
    return true;
}

template <class T>
bool gemm_narrow_sum(const DeviceKernels& dk, cl_command_queue q, Trans transA, int64_t m, int64_t n, T alpha,
                     const std::vector<NarrowTerm>& terms, T beta, Mat C) {
    check_prec<T>(dk, kFunc);
    if (alpha == T(0) || terms.empty()) return false;
    for (const NarrowTerm& t : terms)
        if (!narrow_fits(dk, n, t.k)) return false;
    if (m == 0 || n == 0) return true;
    // Every term's ranges write their partials, one after the other, into the SplitK workspace (m×n
    // each), and one tessera_gemm_narrow_sum adds them all to beta·C, in the terms' order.
    std::vector<int64_t> splits;
    int64_t total = 0;
    for (const NarrowTerm& t : terms) total += splits.emplace_back(narrow_splits(dk, is_trans(transA), m, t.k, alpha));
    to_int(total * m * n, kFunc, "partials");
    cl_mem w = dk.scratch(size_t(total * m * n) * sizeof(T), DeviceKernels::Workspace::SplitK);
    int64_t first = 0;
    for (size_t t = 0; t < terms.size(); ++t) {
        narrow_launch<T>(dk, q, transA, Trans::NoTrans, m, n, terms[t].k, splits[t], alpha, terms[t].A, terms[t].B, T(0),
                         Mat{w, size_t(first * m * n), m}, m * n, 0);
        first += splits[t];
    }
    add_partials<T>(dk, q, m, n, total, w, beta, C);
    return true;
}

template <class T>
bool gemm_narrow_pair(const DeviceKernels& dk, cl_command_queue q, bool conj, int64_t m, int64_t k, T alpha, Mat A,
                      Mat U, Mat V, Mat P, Mat Q) {
    constexpr const char* kPair = "tessera_gemm_narrow_pair";
    check_prec<T>(dk, kPair);
    if (!dk.has(kPair)) return false;
    if (m == 0 || k == 0 || alpha == T(0)) return true;
    constexpr int64_t kX = 32, kY = 8, kCols = 32, kChunk = 128;  // gemm_narrow_pair.cl's PAIR_*
    const int64_t col_groups = (k + kCols - 1) / kCols;
    const int64_t units = std::max<int64_t>(1, dk.info().compute_units);
    const int64_t row_groups = std::clamp<int64_t>((kGroupsPerUnit * units + col_groups - 1) / col_groups, 1,
                                                   (m + kChunk - 1) / kChunk);
    const int64_t rows_per_group = (m + row_groups - 1) / row_groups;
    // The partials: col_groups per element of P (SplitK workspace), row_groups per element of Q.
    cl_mem pw = dk.scratch(size_t(col_groups * m) * sizeof(T), DeviceKernels::Workspace::SplitK);
    cl_mem qw = dk.scratch(size_t(row_groups * k) * sizeof(T));
    const cl_int cm = to_int(m, kPair, "m"), ck = to_int(k, kPair, "k"), crows = to_int(rows_per_group, kPair, "rows");
    const cl_int cconj = conj && is_complex_v<T> ? 1 : 0, lda = to_int(A.ld, kPair, "lda");
    to_int(col_groups * m, kPair, "m · column groups");
    const cl_ulong offA = A.off, offU = U.off, offV = V.off;
    cl_kernel kernel = dk.get(kPair);
    set_args(kernel, "clSetKernelArg(tessera_gemm_narrow_pair)", cm, ck, crows, cconj, alpha, A.mem, offA, lda, U.mem,
             offU, V.mem, offV, pw, qw);
    const size_t local[2] = {size_t(kX), size_t(kY)};
    check_local(dk, kPair, local, 2);
    const size_t global[2] = {size_t(row_groups * kX), size_t(col_groups * kY)};
    enqueue(q, kernel, 2, global, local, "clEnqueueNDRangeKernel(tessera_gemm_narrow_pair)");
    add_partials<T>(dk, q, m, 1, col_groups, pw, T(1), P);  // P += its partials, Q += its partials
    add_partials<T>(dk, q, k, 1, row_groups, qw, T(1), Q);
    return true;
}

#define TESSERA_INSTANTIATE(T)                                                                                   \
    template bool gemm_narrow<T>(const DeviceKernels&, cl_command_queue, Trans, Trans, int64_t, int64_t, int64_t, \
                                 T, Mat, Mat, T, Mat, NarrowPart, bool);                                 \
    template bool gemm_narrow_sum<T>(const DeviceKernels&, cl_command_queue, Trans, int64_t, int64_t, T,          \
                                     const std::vector<NarrowTerm>&, T, Mat);                                    \
    template bool gemm_narrow_pair<T>(const DeviceKernels&, cl_command_queue, bool, int64_t, int64_t, T, Mat, Mat, \
                                      Mat, Mat, Mat);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::ocl
