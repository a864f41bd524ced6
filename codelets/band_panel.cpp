// The band reduction's panel (tasks_eig.hpp: band_panel): the QR of a block of columns narrower than
// the tile, from a row inside a tile down, with its V as zero-padded tiles. CPU: the block gathered
// into one contiguous panel, xGEQRT with one block (its T is xLARFT's T), scattered back; OpenCL:
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

// Panel row g (g = 0 at row0 of the first tile) of tile t starts at first_row(t) − row0 … : the
// offset of tile t's first row within the panel (negative for the first tile's rows above row0).
template <class Rows>
int64_t panel_offset(const Rows& rows, int64_t t, int64_t row0) {
    int64_t g = -row0;
    for (int64_t s = 0; s < t; ++s) g += rows(s);
    return g;
}

template <class T>
void band_panel_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<BandPanelArgs*>(cl_arg);
    const int64_t ntiles = a.ntiles, w = a.width;
    auto rows = [&](int64_t t) { return codelets::tile_rows(buffers[t]); };
    int64_t m = -a.row0;
    for (int64_t t = 0; t < ntiles; ++t) m += rows(t);
    thread_local std::vector<T> work_buffer;
    T* p = codelets::workspace(work_buffer, size_t(m * w));
    // Gather the m×w block (column by column) from row0 of the first tile, columns col0 …
    for (int64_t c = 0; c < w; ++c) {
        T* dst = p + c * m;
        for (int64_t t = 0; t < ntiles; ++t) {
            const auto A = codelets::cpu_tile<T>(buffers[t]);
            const int64_t r0 = t == 0 ? a.row0 : 0;
            dst = std::copy(A.ptr + r0 + (a.col0 + c) * A.ld, A.ptr + A.m + (a.col0 + c) * A.ld, dst);
        }
    }
    auto Tt = codelets::cpu_tile<T>(buffers[2 * ntiles]);
    for (int64_t j = 0; j < Tt.n; ++j) std::fill(Tt.ptr + j * Tt.ld, Tt.ptr + j * Tt.ld + Tt.m, T(0));
    const int64_t kb = std::min(m, w);
    if (kb > 0) {
        const int info = cpu::geqrt<T>(m, w, kb, p, m, Tt.ptr, Tt.ld);
        if (info != 0) throw Error("xGEQRT returned info " + std::to_string(info));  // an argument LAPACK refused
        for (int64_t j = 0; j < kb; ++j) std::fill(Tt.ptr + j + 1 + j * Tt.ld, Tt.ptr + kb + j * Tt.ld, T(0));
    }
    // Scatter R and V back, and V (unit diagonal, zeros above it and above row0) into the V tiles.
    for (int64_t t = 0; t < ntiles; ++t) {
        const auto A = codelets::cpu_tile<T>(buffers[t]);
        const auto V = codelets::cpu_tile<T>(buffers[ntiles + t]);
        const int64_t g0 = panel_offset(rows, t, a.row0);
        for (int64_t c = 0; c < w; ++c)
            for (int64_t i = 0; i < A.m; ++i) {
                const int64_t g = g0 + i;
                if (g >= 0) A.ptr[i + (a.col0 + c) * A.ld] = p[g + c * m];
                V.ptr[i + c * V.ld] = g < c || c >= kb ? T(0) : g == c ? T(1) : p[g + c * m];
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
    ocl::geqrf_panel<T>(wk.kernels, wk.queue, tiles, heights, w, codelets::ocl_tile<T>(buffers[2 * ntiles]));
    const int64_t kb = std::min(m, w);
    for (int64_t t = 0; t < ntiles; ++t) {
        const ocl::Mat A = codelets::ocl_tile<T>(buffers[t]), V = codelets::ocl_tile<T>(buffers[ntiles + t]);
        const int64_t g0 = panel_offset(rows, t, a.row0), h = rows(t);
        ocl::laset<T>(wk.kernels, wk.queue, h, w, T(0), T(0), V);
        // Tile row i is panel row g0 + i: columns c < g0 lie wholly below the diagonal; from column
        // max(g0, 0) on, the diagonal is at row c − g0 (ones), V strictly below it.
        const int64_t i0 = std::max<int64_t>(-g0, 0);  // the first tile's rows above row0 stay zero
        const int64_t below = std::clamp<int64_t>(g0, 0, kb);
        if (below > 0) ocl::lacpy<T>(wk.kernels, wk.queue, Uplo::General, h - i0, below, ocl::at(A, i0, a.col0), ocl::at(V, i0, 0));
        const int64_t c0 = std::max<int64_t>(g0, 0);
        if (c0 >= kb) continue;
        const int64_t r = c0 - g0;  // the tile row of column c0's diagonal
        if (r >= h) continue;
        ocl::laset<T>(wk.kernels, wk.queue, std::min(h - r, kb - c0), kb - c0, T(0), T(1), ocl::at(V, r, c0));
        if (h - r > 1)
            ocl::lacpy<T>(wk.kernels, wk.queue, Uplo::Lower, h - r - 1, kb - c0, ocl::at(A, r + 1, a.col0 + c0),
                          ocl::at(V, r + 1, c0));
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
