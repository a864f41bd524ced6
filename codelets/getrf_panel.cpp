// Partial-pivoting panel codelet. CPU: gathers a column of tiles into one contiguous panel, factors
// it with LAPACK xGETRF (recursive, single-threaded BLAS inside the worker) and scatters it back; tiles
// that already stack into a column-major panel (a view of a LAPACK array) are factored where they are.
// OpenCL: the same on the device (ocl::getrf_panel: xGETRF2's recursion, one-work-group leaves),
// with the pivots written to the pivots handle there and read back into the host ipiv before the
// task ends (the laswp tasks read the host ipiv).
#include <algorithm>
#include <vector>

#include "codelets/lu_codelet.hpp"
#include "codelets/tasks_lu.hpp"
#include "kernels/cpu/lu.hpp"
#include "kernels/opencl/launch_lu.hpp"
#include "runtime/sequence_internal.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct PanelArgs {
    uint32_t flags;
    int32_t ntiles;
    int64_t row0;
    int64_t* ipiv;
    int* info;
};

template <class T>
void panel_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<PanelArgs*>(cl_arg);
    const int64_t ntiles = a.ntiles, cols = codelets::tile_cols(buffers[0]);
    int64_t rows = 0;
    for (int64_t t = 0; t < ntiles; ++t) rows += codelets::tile_rows(buffers[t]);
    // Per-worker workspaces, grown on demand and reused across panels (no page faults per task).
    thread_local std::vector<T> work_buffer;
    thread_local std::vector<int> piv_buffer;
    int* piv = codelets::workspace(piv_buffer, size_t(cols));
    // Tiles of a LAPACK array registered in place (TileMatrix::view) stack into one column-major
    // panel already: each tile starts where the one above ends, all with the same leading dimension.
    auto first = codelets::cpu_tile<T>(buffers[0]);
    bool stacked = true;
    for (int64_t t = 1, row = first.m; t < ntiles && stacked; row += codelets::tile_rows(buffers[t]), ++t) {
        auto A = codelets::cpu_tile<T>(buffers[t]);
        stacked = A.ld == first.ld && A.ptr == first.ptr + row;
    }
    T* panel = first.ptr;
    int64_t ld = first.ld;
    if (!stacked) {
        panel = codelets::workspace(work_buffer, size_t(rows * cols)), ld = rows;
        for (int64_t c = 0; c < cols; ++c) {
            T* dst = panel + c * rows;
            for (int64_t t = 0; t < ntiles; ++t) {
                auto A = codelets::cpu_tile<T>(buffers[t]);
                dst = std::copy(A.ptr + c * A.ld, A.ptr + c * A.ld + A.m, dst);
            }
        }
    }
    const int info = cpu::getrf<T>(rows, cols, panel, ld, piv);
    for (int64_t c = 0; c < cols && !stacked; ++c) {
        const T* src = panel + c * rows;
        for (int64_t t = 0; t < ntiles; ++t) {
            auto A = codelets::cpu_tile<T>(buffers[t]);
            std::copy(src, src + A.m, A.ptr + c * A.ld);
            src += A.m;
        }
    }
    const int64_t kb = std::min(rows, cols);
    for (int64_t i = 0; i < kb; ++i) a.ipiv[i] = a.row0 + piv[i];
    *a.info = info;
}

// Buffers: the tiles of the column, top to bottom, then the pivots (int64, one per panel column).
template <class T>
void panel_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<PanelArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    const codelets::OclColumn<T> column(buffers, a.ntiles);
    void* pivots = buffers[a.ntiles];
    ocl::getrf_panel<T>(w.kernels, w.queue, column.tiles, column.rows, codelets::tile_cols(buffers[0]), a.row0,
                        reinterpret_cast<cl_mem>(STARPU_MATRIX_GET_DEV_HANDLE(pivots)),
                        size_t(STARPU_MATRIX_GET_OFFSET(pivots)) / sizeof(int64_t), a.ipiv, a.info);
}

template <class T>
starpu_codelet& panel_codelet() {
    return codelets::named_var_codelet<T, panel_cpu<T>, panel_opencl<T>>("getrf_panel");
}

}  // namespace

template <class T>
void tasks::getrf_panel(const std::vector<TileHandle>& column, int64_t row0, int64_t* ipiv, int* info,
                        TileHandle pivots, int prio) {
    PanelArgs args{0, int32_t(column.size()), row0, ipiv, info};
    std::vector<codelets::Buffer> buffers;
    buffers.reserve(column.size() + 1);
    for (TileHandle h : column) buffers.emplace_back(h, STARPU_RW);
    buffers.emplace_back(pivots, STARPU_W);
    codelets::submit_buffers(panel_codelet<T>(), args, buffers, prio);
}

#define TESSERA_INSTANTIATE(T) \
    template void tasks::getrf_panel<T>(const std::vector<TileHandle>&, int64_t, int64_t*, int*, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
