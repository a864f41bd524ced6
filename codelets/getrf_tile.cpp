// Diagonal-tile LU codelets (CPU): without pivoting (getrf_nopiv) and with partial pivoting inside
// the tile into an int pivot vector (the first kernel of incremental pivoting).
#include "codelets/lu_codelet.hpp"
#include "codelets/tasks_lu.hpp"
#include "kernels/cpu/lu.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct TileArgs {
    uint32_t flags;
    int* info;
};

template <class T>
void nopiv_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TileArgs*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]);
    *a.info = cpu::getrf_nopiv<T>(A.m, A.n, A.ptr, A.ld);
}

template <class T>
void incpiv_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TileArgs*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]);
    int* ipiv = reinterpret_cast<int*>(STARPU_VECTOR_GET_PTR(buffers[1]));
    const int info = cpu::getrf<T>(A.m, A.n, A.ptr, A.ld, ipiv);
    if (a.info) *a.info = info;
}

template <class T>
starpu_codelet& nopiv_codelet() {
    return codelets::named_codelet<T, nopiv_cpu<T>>("getrf_nopiv", {STARPU_RW});
}

template <class T>
starpu_codelet& incpiv_codelet() {
    return codelets::named_codelet<T, incpiv_cpu<T>>("getrf_incpiv", {STARPU_RW, STARPU_W});
}

}  // namespace

template <class T>
void tasks::getrf_nopiv(TileHandle A, int* info, int prio) {
    codelets::submit_buffers(nopiv_codelet<T>(), TileArgs{0, info}, {{A, STARPU_RW}}, prio);
}

template <class T>
void tasks::getrf_incpiv(TileHandle A, TileHandle ipiv, int* info, int prio) {
    codelets::submit_buffers(incpiv_codelet<T>(), TileArgs{0, info}, {{A, STARPU_RW}, {ipiv, STARPU_W}}, prio);
}

#define TESSERA_INSTANTIATE(T) \
    template void tasks::getrf_nopiv<T>(TileHandle, int*, int); \
    template void tasks::getrf_incpiv<T>(TileHandle, TileHandle, int*, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
