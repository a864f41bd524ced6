// ssssm codelet: apply a tstrf transformation to a pair of tiles (CPU and OpenCL).
#include "codelets/lu_codelet.hpp"
#include "codelets/tasks_lu.hpp"
#include "kernels/cpu/lu.hpp"
#include "kernels/opencl/launch_lu.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct SsssmArgs {
    uint32_t flags;  // ib
    int64_t ib;
};

// Buffers: A1 (row k), A2 (row m), L (ib×kb), Amk (multipliers, m2×kb), ipiv (int vector, kb).
template <class T>
void ssssm_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<SsssmArgs*>(cl_arg);
    auto A1 = codelets::cpu_tile<T>(buffers[0]), A2 = codelets::cpu_tile<T>(buffers[1]);
    auto L = codelets::cpu_tile<T>(buffers[2]), V = codelets::cpu_tile<T>(buffers[3]);
    const int* ipiv = reinterpret_cast<const int*>(STARPU_VECTOR_GET_PTR(buffers[4]));
    cpu::ssssm<T>(A1.n, A2.m, V.n, a.ib, A1.ptr, A1.ld, A2.ptr, A2.ld, L.ptr, L.ld, V.ptr, V.ld, ipiv);
}

template <class T>
void ssssm_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<SsssmArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    cl_mem ipiv = reinterpret_cast<cl_mem>(STARPU_VECTOR_GET_DEV_HANDLE(buffers[4]));
    const size_t off = size_t(STARPU_VECTOR_GET_OFFSET(buffers[4])) / sizeof(int);
    ocl::ssssm<T>(w.kernels, w.queue, codelets::tile_cols(buffers[0]), codelets::tile_rows(buffers[1]),
                  codelets::tile_cols(buffers[3]), a.ib, codelets::ocl_tile<T>(buffers[0]), codelets::ocl_tile<T>(buffers[1]),
                  codelets::ocl_tile<T>(buffers[2]), codelets::ocl_tile<T>(buffers[3]), ipiv, off);
}

template <class T>
starpu_codelet& ssssm_codelet() {
    return codelets::named_codelet<T, ssssm_cpu<T>, ssssm_opencl<T>>("ssssm", {STARPU_RW, STARPU_RW, STARPU_R, STARPU_R, STARPU_R});
}

}  // namespace

template <class T>
void tasks::ssssm(int64_t ib, TileHandle A1, TileHandle A2, TileHandle L, TileHandle Amk, TileHandle ipiv, int prio) {
    codelets::submit_buffers(ssssm_codelet<T>(), SsssmArgs{uint32_t(ib), ib},
                             {{A1, STARPU_RW}, {A2, STARPU_RW}, {L, STARPU_R}, {Amk, STARPU_R}, {ipiv, STARPU_R}}, prio);
}

#define TESSERA_INSTANTIATE(T) \
    template void tasks::ssssm<T>(int64_t, TileHandle, TileHandle, TileHandle, TileHandle, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
