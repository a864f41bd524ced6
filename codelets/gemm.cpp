// gemm codelet: C = alpha·op(A)·op(B) + beta·C on one tile. With beta = 0, C is only written
// (STARPU_W: its old contents never travel, and a temporary tile may be its first write); the two
// codelets share one perfmodel (the same kernels at the same cost).
#include "codelets/codelet.hpp"
#include "codelets/tasks.hpp"
#include "kernels/cpu/blas.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

template <class T>
struct GemmArgs {
    uint32_t flags;
    Trans ta, tb;
    T alpha, beta;
};

template <class T, bool Overwrite>
void gemm_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<GemmArgs<T>*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), B = codelets::cpu_tile<T>(buffers[1]), C = codelets::cpu_tile<T>(buffers[2]);
    const int64_t k = a.ta == Trans::NoTrans ? A.n : A.m;
    cpu::gemm<T>(a.ta, a.tb, C.m, C.n, k, a.alpha, A.ptr, A.ld, B.ptr, B.ld, a.beta, C.ptr, C.ld);
}

template <class T, bool Overwrite>
void gemm_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<GemmArgs<T>*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    const int64_t k = a.ta == Trans::NoTrans ? codelets::tile_cols(buffers[0]) : codelets::tile_rows(buffers[0]);
    ocl::gemm<T>(w.kernels, w.queue, a.ta, a.tb, codelets::tile_rows(buffers[2]), codelets::tile_cols(buffers[2]), k,
                 a.alpha, codelets::ocl_tile<T>(buffers[0]), codelets::ocl_tile<T>(buffers[1]), a.beta,
                 codelets::ocl_tile<T>(buffers[2]));
}

template <class T>
starpu_codelet& gemm_codelet(bool overwrite) {
    if (overwrite)
        return codelets::named_codelet<T, gemm_cpu<T, true>, gemm_opencl<T, true>>("gemm", {STARPU_R, STARPU_R, STARPU_W});
    return codelets::named_codelet<T, gemm_cpu<T, false>, gemm_opencl<T, false>>("gemm", {STARPU_R, STARPU_R, STARPU_RW});
}

}  // namespace

template <class T>
void tasks::gemm(Trans ta, Trans tb, T alpha, TileHandle A, TileHandle B, T beta, TileHandle C, int prio) {
    GemmArgs<T> args{codelets::pack_flags(codelets::op_flag<T>(ta), codelets::op_flag<T>(tb)), ta, tb, alpha, beta};
    codelets::submit(gemm_codelet<T>(beta == T(0)), args, {A, B, C}, prio);
}

#define TESSERA_INSTANTIATE(T) \
    template void tasks::gemm<T>(Trans, Trans, T, TileHandle, TileHandle, T, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
