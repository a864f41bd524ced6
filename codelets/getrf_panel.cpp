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
    thread_local std::vector<T> work_buffer;
    thread_local std::vector<int> piv_buffer;
    const codelets::CpuPanel<T> panel(buffers, a.ntiles, work_buffer);
    int* piv = codelets::workspace(piv_buffer, size_t(panel.cols));
    const int info = cpu::getrf<T>(panel.rows, panel.cols, panel.ptr, panel.ld, piv);
    panel.scatter();
    const int64_t kb = std::min(panel.rows, panel.cols);
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
