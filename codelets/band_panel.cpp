// The band reduction's panel (tasks_eig.hpp: band_panel): the QR of a block of columns narrower than
// the tile, from a row inside a tile down, with its V as zero-padded tiles. CPU: the block as one
// panel (codelets::CpuPanel), xGEQRT with one block (its T is xLARFT's T), scattered back; OpenCL:
// ocl::geqrf_panel on views of the tiles (it gathers them itself), V by laset and lacpy.
#include <algorithm>
#include <vector>

#include "codelets/lu_codelet.hpp"
#include "codelets/tasks_eig.hpp"
#include "kernels/cpu/qr.hpp"
#include "kernels/opencl/launch_qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct BandPanelArgs {
    uint32_t flags;
    int32_t ntiles;
    int64_t row0, col0, width;
};

// The panel's diagonal block lies in its first tile (the band reductions' panels start a multiple of
// the width into a tile whose width the band divides): a task against it fails.
void require_diagonal_in_first_tile(int64_t first_rows, int64_t row0, int64_t m, int64_t width) {
    if (first_rows - row0 < std::min(m, width))
        throw Error("band_panel: the panel's diagonal block must lie in its first tile (rows " +
                    std::to_string(first_rows) + ", row0 " + std::to_string(row0) + ", width " + std::to_string(width) + ")");
}

template <class T>
void band_panel_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<BandPanelArgs*>(cl_arg);
    const int64_t ntiles = a.ntiles, w = a.width;
    thread_local std::vector<T> work_buffer;
    const codelets::CpuPanel<T> panel(buffers, ntiles, work_buffer, a.row0, a.col0, w);
    const int64_t m = panel.rows, kb = std::min(m, w);
    require_diagonal_in_first_tile(codelets::tile_rows(buffers[0]), a.row0, m, w);
    auto Tt = codelets::cpu_tile<T>(buffers[2 * ntiles]);
    for (int64_t j = 0; j < Tt.n; ++j) std::fill(Tt.ptr + j * Tt.ld, Tt.ptr + j * Tt.ld + Tt.m, T(0));
    if (kb > 0) {
        const int info = cpu::geqrt<T>(m, w, kb, panel.ptr, panel.ld, Tt.ptr, Tt.ld);
        if (info != 0) throw Error("xGEQRT returned info " + std::to_string(info));  // an argument LAPACK refused
        for (int64_t j = 0; j < kb; ++j) std::fill(Tt.ptr + j + 1 + j * Tt.ld, Tt.ptr + kb + j * Tt.ld, T(0));
    }
    panel.scatter();
    // V (unit diagonal, zeros above it and above row0) into the V tiles; panel row g is row row0 + g
    // of the first tile, and the rows of the tiles below follow.
    for (int64_t t = 0, g0 = -a.row0; t < ntiles; g0 += codelets::tile_rows(buffers[t]), ++t) {
        const auto V = codelets::cpu_tile<T>(buffers[ntiles + t]);
        for (int64_t c = 0; c < w; ++c)
            for (int64_t i = 0; i < V.m; ++i) {
                const int64_t g = g0 + i;
                V.ptr[i + c * V.ld] = g < c || c >= kb ? T(0) : g == c ? T(1) : panel.ptr[g + c * panel.ld];
            }
    }
}

// Buffers: the tiles of the column from row0's tile down, then as many V tiles, then T.
template <class T>
void band_panel_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<BandPanelArgs*>(cl_arg);
    const int64_t ntiles = a.ntiles, w = a.width;
    auto rows = [&](int64_t t) { return codelets::tile_rows(buffers[t]); };
    auto wk = codelets::opencl_worker<T>();
    std::vector<ocl::Mat> tiles;
    std::vector<int64_t> heights;
    int64_t m = 0;
    for (int64_t t = 0; t < ntiles; ++t) {
        const int64_t r0 = t == 0 ? a.row0 : 0;
        tiles.push_back(ocl::at(codelets::ocl_tile<T>(buffers[t]), r0, a.col0));
        heights.push_back(rows(t) - r0);
        m += rows(t) - r0;
    }
    require_diagonal_in_first_tile(heights[0] + a.row0, a.row0, m, w);
    ocl::geqrf_panel<T>(wk.kernels, wk.queue, tiles, heights, w, codelets::ocl_tile<T>(buffers[2 * ntiles]));
    // V: in the first tile, zeros down to row0, then the unit lower trapezoid; below it, the vectors.
    const int64_t kb = std::min(m, w);
    for (int64_t t = 0; t < ntiles; ++t) {
        const ocl::Mat A = codelets::ocl_tile<T>(buffers[t]), V = codelets::ocl_tile<T>(buffers[ntiles + t]);
        const int64_t h = rows(t);
        if (t > 0) {
            ocl::laset<T>(wk.kernels, wk.queue, h, w, T(0), T(0), V);
            ocl::lacpy<T>(wk.kernels, wk.queue, Uplo::General, h, kb, ocl::at(A, 0, a.col0), V);
            continue;
        }
        if (a.row0 > 0) ocl::laset<T>(wk.kernels, wk.queue, a.row0, w, T(0), T(0), V);
        ocl::laset<T>(wk.kernels, wk.queue, h - a.row0, w, T(0), T(1), ocl::at(V, a.row0, 0));
        if (h - a.row0 > 1)
            ocl::lacpy<T>(wk.kernels, wk.queue, Uplo::Lower, h - a.row0 - 1, kb, ocl::at(A, a.row0 + 1, a.col0),
                          ocl::at(V, a.row0 + 1, 0));
    }
}

template <class T>
starpu_codelet& band_panel_codelet() {
    return codelets::named_var_codelet<T, band_panel_cpu<T>, band_panel_opencl<T>>("band_panel");
}

}  // namespace

template <class T>
void tasks::band_panel(const std::vector<TileHandle>& column, int64_t row0, int64_t col0, int64_t width,
                       const std::vector<TileHandle>& v, TileHandle Tt, int prio) {
    BandPanelArgs args{0, int32_t(column.size()), row0, col0, width};
    std::vector<codelets::Buffer> buffers;
    buffers.reserve(2 * column.size() + 1);
    for (TileHandle h : column) buffers.emplace_back(h, STARPU_RW);
    for (TileHandle h : v) buffers.emplace_back(h, STARPU_W);
    buffers.emplace_back(Tt, STARPU_W);
    codelets::submit_buffers(band_panel_codelet<T>(), args, buffers, prio);
}

#define TESSERA_INSTANTIATE(T)                                                                                 \
    template void tasks::band_panel<T>(const std::vector<TileHandle>&, int64_t, int64_t, int64_t,             \
                                       const std::vector<TileHandle>&, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
