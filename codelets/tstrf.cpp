// tstrf codelet (CPU): LU with pivoting of [U_kk; A_mk] by blocks of ib columns (incremental pivoting).
#include <vector>

#include "codelets/lu_codelet.hpp"
#include "codelets/tasks_lu.hpp"
#include "kernels/cpu/lu.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct TstrfArgs {
    uint32_t flags;  // ib
    int64_t ib;
    int* info;
};

// Buffers: U (diagonal tile), A (tile below), L (ib×kb), ipiv (int vector, kb).
template <class T>
void tstrf_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TstrfArgs*>(cl_arg);
    auto U = codelets::cpu_tile<T>(buffers[0]), A = codelets::cpu_tile<T>(buffers[1]), L = codelets::cpu_tile<T>(buffers[2]);
    int* ipiv = reinterpret_cast<int*>(STARPU_VECTOR_GET_PTR(buffers[3]));
    const int64_t kb = A.n;
    thread_local std::vector<T> work;  // per worker, grown on demand
    T* w = codelets::workspace(work, size_t((a.ib + A.m) * a.ib));
    const int info = cpu::tstrf<T>(A.m, kb, a.ib, U.ptr, U.ld, A.ptr, A.ld, L.ptr, L.ld, ipiv, w);
    if (a.info) *a.info = info;
}

template <class T>
starpu_codelet& tstrf_codelet() {
    return codelets::named_codelet<T, tstrf_cpu<T>>("tstrf", {STARPU_RW, STARPU_RW, STARPU_W, STARPU_W});
}

}  // namespace

template <class T>
void tasks::tstrf(int64_t ib, TileHandle U, TileHandle A, TileHandle L, TileHandle ipiv, int* info, int prio) {
    codelets::submit_buffers(tstrf_codelet<T>(), TstrfArgs{uint32_t(ib), ib, info},
                             {{U, STARPU_RW}, {A, STARPU_RW}, {L, STARPU_W}, {ipiv, STARPU_W}}, prio);
}

#define TESSERA_INSTANTIATE(T) \
    template void tasks::tstrf<T>(int64_t, TileHandle, TileHandle, TileHandle, TileHandle, int*, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
