// lacpy codelet: tile copies, used by the LAPACK-layout conversions.
#include "codelets/codelet.hpp"
#include "codelets/tasks.hpp"
#include "kernels/cpu/blas.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct LacpyArgs {
    uint32_t flags;
    Uplo uplo;
};

template <class T>
void lacpy_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<LacpyArgs*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), B = codelets::cpu_tile<T>(buffers[1]);
    cpu::lacpy<T>(a.uplo, B.m, B.n, A.ptr, A.ld, B.ptr, B.ld);
}

template <class T>
void lacpy_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<LacpyArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    ocl::lacpy<T>(w.kernels, w.queue, a.uplo, codelets::tile_rows(buffers[1]), codelets::tile_cols(buffers[1]),
                  codelets::ocl_tile<T>(buffers[0]), codelets::ocl_tile<T>(buffers[1]));
}

template <class T>
starpu_codelet& lacpy_codelet() {
    return codelets::named_codelet<T, lacpy_cpu<T>, lacpy_opencl<T>>("lacpy", {STARPU_R, STARPU_W});
}

}  // namespace

template <class T>
void tasks::lacpy(Uplo uplo, TileHandle A, TileHandle B, int prio) {
    LacpyArgs args{codelets::pack_flags(char(uplo)), uplo};
    codelets::submit(lacpy_codelet<T>(), args, {A, B}, prio);
}

#define TESSERA_INSTANTIATE(T) template void tasks::lacpy<T>(Uplo, TileHandle, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
