// laswp codelet: row interchanges on a column of tiles (CPU and OpenCL), any number of tiles.
#include <string>
#include <vector>

#include "codelets/lu_codelet.hpp"
#include "codelets/tasks_lu.hpp"
#include "kernels/cpu/lu.hpp"
#include "kernels/opencl/launch_lu.hpp"
#include "runtime/precisions.hpp"
#include "tessera/types.hpp"

namespace tessera {
namespace {

struct LaswpArgs {
    uint32_t flags;
    int32_t ntiles;
    int32_t forward;
    int64_t row0, k1, k2;
    const int64_t* ipiv;
};

// The pivots come from the caller (getrs takes any vector): one outside the column's rows would swap
// memory outside the tiles. Checked when the task runs, as getrs may follow getrf_async, whose
// tasks fill ipiv, without a wait; the failure fails the task's sequence (TaskError at its wait).
// `rows`: the rows of each tile of the column.
void check_pivots(const LaswpArgs& a, const std::vector<int64_t>& rows) {
    int64_t total_rows = 0;
    for (int64_t r : rows) total_rows += r;
    for (int64_t i = a.k1; i < a.k2; ++i) {
        const int64_t p = a.ipiv[i] - 1 - a.row0;
        if (p < 0 || p >= total_rows)
            throw Error("ipiv[" + std::to_string(i) + "] = " + std::to_string(a.ipiv[i]) + " is not a row of the matrix (" +
                        std::to_string(a.row0 + 1) + ".." + std::to_string(a.row0 + total_rows) +
                        ", 1-based as getrf's pivots)");
    }
}

template <class T>
void laswp_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<LaswpArgs*>(cl_arg);
    const int64_t nt = a.ntiles;
    std::vector<T*> tiles(static_cast<size_t>(nt));
    std::vector<int64_t> rows(static_cast<size_t>(nt)), ld(static_cast<size_t>(nt));
    for (int64_t t = 0; t < nt; ++t) {
        auto A = codelets::cpu_tile<T>(buffers[t]);
        tiles[size_t(t)] = A.ptr, rows[size_t(t)] = A.m, ld[size_t(t)] = A.ld;
    }
    check_pivots(a, rows);
    cpu::laswp_tiles<T>(codelets::tile_cols(buffers[0]), nt, tiles.data(), rows.data(), ld.data(), a.row0, a.ipiv, a.k1,
                        a.k2, a.forward != 0);
}

template <class T>
void laswp_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<LaswpArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    const codelets::OclColumn<T> column(buffers, a.ntiles);
    check_pivots(a, column.rows);
    ocl::laswp<T>(w.kernels, w.queue, codelets::tile_cols(buffers[0]), column.tiles, column.rows, a.row0, a.ipiv,
                  a.k1, a.k2, a.forward != 0);
}

template <class T>
starpu_codelet& laswp_codelet() {
    return codelets::named_var_codelet<T, laswp_cpu<T>, laswp_opencl<T>>("laswp");
}

}  // namespace

template <class T>
void tasks::laswp(const std::vector<TileHandle>& column, int64_t row0, const int64_t* ipiv, int64_t k1, int64_t k2,
                  bool forward, const std::vector<TileHandle>& deps, int prio) {
    if (column.empty() || k2 <= k1) return;
    // flags: the number of interchanges changes the cost more than the tile sizes do.
    LaswpArgs args{uint32_t(k2 - k1), int32_t(column.size()), forward ? 1 : 0, row0, k1, k2, ipiv};
    std::vector<codelets::Buffer> buffers;
    buffers.reserve(column.size() + deps.size());
    for (TileHandle h : column) buffers.emplace_back(h, STARPU_RW);
    for (TileHandle h : deps) buffers.emplace_back(h, STARPU_R);
    codelets::submit_buffers(laswp_codelet<T>(), args, buffers, prio);
}

#define TESSERA_INSTANTIATE(T) \
    template void tasks::laswp<T>(const std::vector<TileHandle>&, int64_t, const int64_t*, int64_t, int64_t, bool, const std::vector<TileHandle>&, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
