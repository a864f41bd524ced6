// hemm codelet: the product with a symmetric (s, d) or Hermitian (c, z) diagonal tile, for the
// residual of the mixed-precision Cholesky solver. CPU only (xSYMM / xHEMM).
#include "codelets/codelet.hpp"
#include "codelets/tasks_mixed.hpp"
#include "kernels/cpu/blas.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

template <class T>
struct HemmArgs {
    uint32_t flags;
    Side side;
    Uplo uplo;
    T alpha, beta;
};

template <class T>
void hemm_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<HemmArgs<T>*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), B = codelets::cpu_tile<T>(buffers[1]);
    auto C = codelets::cpu_tile<T>(buffers[2]);
    cpu::hemm<T>(a.side, a.uplo, C.m, C.n, a.alpha, A.ptr, A.ld, B.ptr, B.ld, a.beta, C.ptr, C.ld);
}

template <class T>
starpu_codelet& hemm_codelet() {
    return codelets::named_codelet<T, hemm_cpu<T>>("hemm", {STARPU_R, STARPU_R, STARPU_RW});
}

}  // namespace

template <class T>
void tasks::hemm(Side side, Uplo uplo, T alpha, TileHandle A, TileHandle B, T beta, TileHandle C, int prio) {
    HemmArgs<T> args{codelets::pack_flags(char(side), char(uplo)), side, uplo, alpha, beta};
    codelets::submit(hemm_codelet<T>(), args, {A, B, C}, prio);
}

#define TESSERA_INSTANTIATE(T) \
    template void tasks::hemm<T>(Side, Uplo, T, TileHandle, TileHandle, T, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
