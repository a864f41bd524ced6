// gessm codelet: A = L⁻¹·P·A with a diagonal tile's LU (CPU and OpenCL).
#include <algorithm>

#include "codelets/lu_codelet.hpp"
#include "codelets/tasks_lu.hpp"
#include "kernels/cpu/lu.hpp"
#include "kernels/opencl/launch_lu.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct GessmArgs {
    uint32_t flags;
};

// Buffers: ipiv (int vector, kb entries), L (diagonal tile), A.
template <class T>
void gessm_cpu(void* buffers[], void*) {
    const int* ipiv = reinterpret_cast<const int*>(STARPU_VECTOR_GET_PTR(buffers[0]));
    const int64_t kb = int64_t(STARPU_VECTOR_GET_NX(buffers[0]));
    auto L = codelets::cpu_tile<T>(buffers[1]), A = codelets::cpu_tile<T>(buffers[2]);
    cpu::gessm<T>(A.m, A.n, std::min(kb, A.m), ipiv, L.ptr, L.ld, A.ptr, A.ld);
}

template <class T>
void gessm_opencl(void* buffers[], void*) {
    auto w = codelets::opencl_worker<T>();
    const int64_t kb = int64_t(STARPU_VECTOR_GET_NX(buffers[0]));
    cl_mem ipiv = reinterpret_cast<cl_mem>(STARPU_VECTOR_GET_DEV_HANDLE(buffers[0]));
    const size_t off = size_t(STARPU_VECTOR_GET_OFFSET(buffers[0])) / sizeof(int);
    const int64_t m = codelets::tile_rows(buffers[2]);
    ocl::gessm<T>(w.kernels, w.queue, m, codelets::tile_cols(buffers[2]), std::min(kb, m), ipiv, off,
                  codelets::ocl_tile<T>(buffers[1]), codelets::ocl_tile<T>(buffers[2]));
}

template <class T>
starpu_codelet& gessm_codelet() {
    return codelets::named_codelet<T, gessm_cpu<T>, gessm_opencl<T>>("gessm", {STARPU_R, STARPU_R, STARPU_RW});
}

}  // namespace

template <class T>
void tasks::gessm(TileHandle ipiv, TileHandle L, TileHandle A, int prio) {
    codelets::submit_buffers(gessm_codelet<T>(), GessmArgs{0}, {{ipiv, STARPU_R}, {L, STARPU_R}, {A, STARPU_RW}}, prio);
}

#define TESSERA_INSTANTIATE(T) template void tasks::gessm<T>(TileHandle, TileHandle, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
