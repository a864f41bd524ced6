// geqrt codelet: QR of one tile with inner block size ib (LAPACK xGEQRT; CPU and OpenCL).
#include "codelets/codelet.hpp"
#include "codelets/tasks_qr.hpp"
#include "kernels/cpu/qr.hpp"
#include "kernels/opencl/launch_qr.hpp"
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
void geqrt_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<GeqrtArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    ocl::geqrt<T>(w.kernels, w.queue, codelets::tile_rows(buffers[0]), codelets::tile_cols(buffers[0]), a.ib,
                  codelets::ocl_tile<T>(buffers[0]), codelets::ocl_tile<T>(buffers[1]));
}

template <class T>
starpu_codelet& geqrt_codelet() {
    return codelets::named_codelet<T, geqrt_cpu<T>, geqrt_opencl<T>>("geqrt", {STARPU_RW, STARPU_W});
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
