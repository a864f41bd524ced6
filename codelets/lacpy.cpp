// lacpy codelet: tile copies, used by the LAPACK-layout conversions (lacpy_host: on CPU workers).
#include "codelets/codelet.hpp"
#include "codelets/tasks.hpp"
#include "kernels/cpu/blas.hpp"
#include "runtime/mpi_internal.hpp"
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

template <class T>
void tasks::lacpy_host(TileHandle A, TileHandle B, int prio) {
    LacpyArgs args{codelets::pack_flags(char(Uplo::General)), Uplo::General};
    if (detail::distributed()) return codelets::submit(lacpy_codelet<T>(), args, {A, B}, prio);  // StarPU-MPI places it
    starpu_task* task = codelets::new_task(lacpy_codelet<T>(), &args, sizeof args, prio);
    task->handles[0] = A;
    task->handles[1] = B;
    // On a CPU worker unless the placement asks for OpenCL workers only (new_task then set where).
    if (task->where != STARPU_OPENCL && starpu_cpu_worker_get_count() > 0) task->where = STARPU_CPU;
    codelets::submit_task(task);
}

#define TESSERA_INSTANTIATE(T)                                                 \
    template void tasks::lacpy<T>(Uplo, TileHandle, TileHandle, int);         \
    template void tasks::lacpy_host<T>(TileHandle, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
