// laswp_columns codelet: column interchanges on a row of tiles (xGETRI's last step), any number of
// tiles. CPU: the swaps in LAPACK's order; OpenCL: the interchanges composed into one permutation on
// the host, the moved columns gathered into scratch and scattered to their places (lacpy launches).
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "codelets/lu_codelet.hpp"
#include "codelets/tasks_inverse.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct ColumnSwapArgs {
    uint32_t flags;
    int32_t ntiles;
    int64_t k1, k2;
    const int64_t* ipiv;
};

// The row's columns: the first column of each tile, and the total. Pivots outside it fail the task.
std::vector<int64_t> column_starts(const ColumnSwapArgs& a, void* buffers[]) {
    std::vector<int64_t> start(size_t(a.ntiles) + 1, 0);
    for (int32_t t = 0; t < a.ntiles; ++t) start[size_t(t) + 1] = start[size_t(t)] + codelets::tile_cols(buffers[t]);
    for (int64_t j = a.k1; j < a.k2; ++j)
        if (a.ipiv[j] < 1 || a.ipiv[j] > start.back() || j >= start.back())
            throw Error("ipiv[" + std::to_string(j) + "] = " + std::to_string(a.ipiv[j]) +
                        " is not a column of the matrix (1.." + std::to_string(start.back()) + ")");
    return start;
}

// (tile, column in it) of global column c.
std::pair<size_t, int64_t> locate(const std::vector<int64_t>& start, int64_t c) {
    const size_t t = size_t(std::upper_bound(start.begin(), start.end(), c) - start.begin()) - 1;
    return {t, c - start[t]};
}

template <class T>
void laswp_columns_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<ColumnSwapArgs*>(cl_arg);
    const std::vector<int64_t> start = column_starts(a, buffers);
    const int64_t rows = codelets::tile_rows(buffers[0]);
    for (int64_t j = a.k2 - 1; j >= a.k1; --j) {
        const int64_t p = a.ipiv[j] - 1;
        if (p == j) continue;
        const auto [tj, cj] = locate(start, j);
        const auto [tp, cp] = locate(start, p);
        auto A = codelets::cpu_tile<T>(buffers[tj]), B = codelets::cpu_tile<T>(buffers[tp]);
        std::swap_ranges(A.ptr + cj * A.ld, A.ptr + cj * A.ld + rows, B.ptr + cp * B.ld);
    }
}

template <class T>
void laswp_columns_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<ColumnSwapArgs*>(cl_arg);
    const std::vector<int64_t> start = column_starts(a, buffers);
    const int64_t rows = codelets::tile_rows(buffers[0]);
    // source[c]: the column that ends in column c after the interchanges.
    std::vector<int64_t> source(size_t(start.back()));
    std::iota(source.begin(), source.end(), 0);
    for (int64_t j = a.k2 - 1; j >= a.k1; --j) std::swap(source[size_t(j)], source[size_t(a.ipiv[j] - 1)]);
    std::vector<int64_t> moved;
    for (int64_t c = 0; c < start.back(); ++c)
        if (source[size_t(c)] != c) moved.push_back(c);
    if (moved.empty() || rows == 0) return;
    auto w = codelets::opencl_worker<T>();
    const int64_t ldw = (rows + 7) / 8 * 8;
    const ocl::Mat W{w.kernels.scratch(size_t(ldw) * moved.size() * sizeof(T)), 0, ldw};
    auto column = [&](int64_t c) {
        const auto [t, local] = locate(start, c);
        return ocl::at(codelets::ocl_tile<T>(buffers[t]), 0, local);
    };
    for (size_t m = 0; m < moved.size(); ++m)
        ocl::lacpy<T>(w.kernels, w.queue, Uplo::General, rows, 1, column(source[size_t(moved[m])]),
                      ocl::at(W, 0, int64_t(m)));
    for (size_t m = 0; m < moved.size(); ++m)
        ocl::lacpy<T>(w.kernels, w.queue, Uplo::General, rows, 1, ocl::at(W, 0, int64_t(m)), column(moved[m]));
}

template <class T>
starpu_codelet& laswp_columns_codelet() {
    return codelets::named_var_codelet<T, laswp_columns_cpu<T>, laswp_columns_opencl<T>>("laswp_columns");
}

}  // namespace

template <class T>
void tasks::laswp_columns(const std::vector<TileHandle>& row, const int64_t* ipiv, int64_t k1, int64_t k2, int prio) {
    if (row.empty() || k2 <= k1) return;
    // flags: the number of interchanges changes the cost more than the tile sizes do.
    ColumnSwapArgs args{uint32_t(k2 - k1), int32_t(row.size()), k1, k2, ipiv};
    std::vector<codelets::Buffer> buffers;
    buffers.reserve(row.size());
    for (TileHandle h : row) buffers.emplace_back(h, STARPU_RW);
    codelets::submit_buffers(laswp_columns_codelet<T>(), args, buffers, prio);
}

#define TESSERA_INSTANTIATE(T) \
    template void tasks::laswp_columns<T>(const std::vector<TileHandle>&, const int64_t*, int64_t, int64_t, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
