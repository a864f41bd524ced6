// geqrt codelet: QR of one tile with inner block size ib (LAPACK xGEQRT), on CPU workers: the tile
// tree (QRForm::TileTree) is the CPU form of QR; with an OpenCL device geqrf factors column panels
// (codelets/geqrf_panel.cpp). The device form ocl::geqrt (launch_qr_panel.cpp) made the tile tree's
// dgeqrf on an H100 slower (a panel on the GPU no longer overlaps the updates there, and is no
// faster; bench/gpu_notes.md), so it is not registered.
#include "codelets/codelet.hpp"
#include "codelets/tasks_qr.hpp"
#include "kernels/cpu/qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct GeqrtArgs {
    uint32_t flags;
    int64_t ib;
};

template <class T>
void geqrt_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<GeqrtArgs*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), Tf = codelets::cpu_tile<T>(buffers[1]);
    const int info = cpu::geqrt<T>(A.m, A.n, a.ib, A.ptr, A.ld, Tf.ptr, Tf.ld);
    if (info != 0) throw Error("xGEQRT returned info " + std::to_string(info));  // an argument LAPACK refused
}

template <class T>
starpu_codelet& geqrt_codelet() {
    return codelets::named_codelet<T, geqrt_cpu<T>>("geqrt", {STARPU_RW, STARPU_W});
}

}  // namespace

template <class T>
void tasks::geqrt(int64_t ib, TileHandle A, TileHandle Tf, int prio) {
    GeqrtArgs args{uint32_t(ib), ib};
    codelets::submit(geqrt_codelet<T>(), args, {A, Tf}, prio);
}

#define TESSERA_INSTANTIATE(T) template void tasks::geqrt<T>(int64_t, TileHandle, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
