// Column-panel QR codelets (QRForm::ColumnPanel). geqrf_panel: LAPACK xGEQRF's panel on a whole
// column of tiles; CPU: the tiles gathered into one contiguous panel (or factored where they are when
// they stack, a view of a LAPACK array), xGEQRT with one block (its T is then the panel's xLARFT T),
// scattered back; OpenCL: ocl::geqrf_panel (recursive, one-launch leaves on NVIDIA GPUs).
// unit_lower: the dense V of a diagonal tile (unit diagonal, zeros above), which the updates
// multiply by as one GEMM operand.
#include <algorithm>
#include <vector>

#include "codelets/lu_codelet.hpp"
#include "codelets/tasks_qr.hpp"
#include "kernels/cpu/qr.hpp"
#include "kernels/opencl/launch_qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct PanelArgs {
    uint32_t flags;
    int32_t ntiles;
};

template <class T>
void panel_cpu(void* buffers[], void* cl_arg) {
    const int64_t ntiles = static_cast<PanelArgs*>(cl_arg)->ntiles;
    thread_local std::vector<T> work_buffer;
    const codelets::CpuPanel<T> panel(buffers, ntiles, work_buffer);
    auto Tt = codelets::cpu_tile<T>(buffers[ntiles]);
    for (int64_t j = 0; j < Tt.n; ++j) std::fill(Tt.ptr + j * Tt.ld, Tt.ptr + j * Tt.ld + Tt.m, T(0));
    const int64_t kb = std::min(panel.rows, panel.cols);
    if (kb > 0) {
        const int info = cpu::geqrt<T>(panel.rows, panel.cols, kb, panel.ptr, panel.ld, Tt.ptr, Tt.ld);
        if (info != 0) throw Error("xGEQRT returned info " + std::to_string(info));  // an argument LAPACK refused
        for (int64_t j = 0; j < kb; ++j) std::fill(Tt.ptr + j + 1 + j * Tt.ld, Tt.ptr + kb + j * Tt.ld, T(0));
    }
    panel.scatter();
}

// Buffers: the tiles of the column, top to bottom, then T.
template <class T>
void panel_opencl(void* buffers[], void* cl_arg) {
    const int64_t ntiles = static_cast<PanelArgs*>(cl_arg)->ntiles;
    auto w = codelets::opencl_worker<T>();
    const codelets::OclColumn<T> column(buffers, ntiles);
    ocl::geqrf_panel<T>(w.kernels, w.queue, column.tiles, column.rows, codelets::tile_cols(buffers[0]),
                        codelets::ocl_tile<T>(buffers[ntiles]));
}

template <class T>
starpu_codelet& panel_codelet() {
    return codelets::named_var_codelet<T, panel_cpu<T>, panel_opencl<T>>("geqrf_panel");
}

struct UnitLowerArgs {
    uint32_t flags;
    int64_t k;
};

template <class T>
void unit_lower_cpu(void* buffers[], void* cl_arg) {
    const int64_t k = static_cast<UnitLowerArgs*>(cl_arg)->k;
    auto A = codelets::cpu_tile<T>(buffers[0]), V = codelets::cpu_tile<T>(buffers[1]);
    for (int64_t j = 0; j < V.n; ++j)
        for (int64_t i = 0; i < V.m; ++i)
            V.ptr[i + j * V.ld] = j >= k || i < j ? T(0) : i == j ? T(1) : A.ptr[i + j * A.ld];
}

template <class T>
void unit_lower_opencl(void* buffers[], void* cl_arg) {
    const int64_t k = static_cast<UnitLowerArgs*>(cl_arg)->k;
    auto w = codelets::opencl_worker<T>();
    const ocl::Mat A = codelets::ocl_tile<T>(buffers[0]), V = codelets::ocl_tile<T>(buffers[1]);
    const int64_t m = codelets::tile_rows(buffers[1]), n = codelets::tile_cols(buffers[1]);
    ocl::laset<T>(w.kernels, w.queue, m, n, T(0), T(1), V);
    if (m > 1 && k > 0) ocl::lacpy<T>(w.kernels, w.queue, Uplo::Lower, m - 1, std::min(k, m - 1), ocl::at(A, 1, 0), ocl::at(V, 1, 0));
    if (k < std::min(m, n)) ocl::laset<T>(w.kernels, w.queue, m, n - k, T(0), T(0), ocl::at(V, 0, k));
}

template <class T>
starpu_codelet& unit_lower_codelet() {
    return codelets::named_codelet<T, unit_lower_cpu<T>, unit_lower_opencl<T>>("unit_lower", {STARPU_R, STARPU_W});
}

}  // namespace

template <class T>
void tasks::geqrf_panel(const std::vector<TileHandle>& column, TileHandle Tt, int prio) {
    PanelArgs args{0, int32_t(column.size())};
    std::vector<codelets::Buffer> buffers;
    buffers.reserve(column.size() + 1);
    for (TileHandle h : column) buffers.emplace_back(h, STARPU_RW);
    buffers.emplace_back(Tt, STARPU_W);
    codelets::submit_buffers(panel_codelet<T>(), args, buffers, prio);
}

template <class T>
void tasks::unit_lower(int64_t k, TileHandle A, TileHandle V, int prio) {
    UnitLowerArgs args{0, k};
    codelets::submit(unit_lower_codelet<T>(), args, {A, V}, prio);
}

#define TESSERA_INSTANTIATE(T)                                                                      \
    template void tasks::geqrf_panel<T>(const std::vector<TileHandle>&, TileHandle, int);          \
    template void tasks::unit_lower<T>(int64_t, TileHandle, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
