// gemm codelet: C = alpha·op(A)·op(B) + beta·C on one tile. With beta = 0, C is only written
// (STARPU_W: its old contents never travel, and a temporary tile may be its first write); the two
// codelets share one perfmodel (the same kernels at the same cost). gemm_pair: both products of a
// symmetric matrix's off-diagonal tile.
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

// gemm_pair: C1 += alpha·A·B1 and C2 += alpha·op(A)·B2 (a symmetric matrix's off-diagonal tile, for
// both block rows it touches). On OpenCL devices with one column, one read of A (ocl::gemm_narrow_pair).
template <class T>
struct GemmPairArgs {
    uint32_t flags;
    Trans op;
    T alpha;
};

template <class T>
void gemm_pair_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<GemmPairArgs<T>*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), B1 = codelets::cpu_tile<T>(buffers[1]);
    auto B2 = codelets::cpu_tile<T>(buffers[2]), C1 = codelets::cpu_tile<T>(buffers[3]);
    auto C2 = codelets::cpu_tile<T>(buffers[4]);
    cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, C1.m, C1.n, A.n, a.alpha, A.ptr, A.ld, B1.ptr, B1.ld, T(1), C1.ptr,
                 C1.ld);
    cpu::gemm<T>(a.op, Trans::NoTrans, C2.m, C2.n, A.m, a.alpha, A.ptr, A.ld, B2.ptr, B2.ld, T(1), C2.ptr, C2.ld);
}

template <class T>
void gemm_pair_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<GemmPairArgs<T>*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    const int64_t m = codelets::tile_rows(buffers[0]), k = codelets::tile_cols(buffers[0]);
    const int64_t n = codelets::tile_cols(buffers[3]);
    const ocl::Mat A = codelets::ocl_tile<T>(buffers[0]), B1 = codelets::ocl_tile<T>(buffers[1]);
    const ocl::Mat B2 = codelets::ocl_tile<T>(buffers[2]), C1 = codelets::ocl_tile<T>(buffers[3]);
    const ocl::Mat C2 = codelets::ocl_tile<T>(buffers[4]);
    if (n == 1 && ocl::gemm_narrow_pair<T>(w.kernels, w.queue, a.op == Trans::ConjTrans, m, k, a.alpha, A, B1, B2, C1, C2))
        return;
    ocl::gemm<T>(w.kernels, w.queue, Trans::NoTrans, Trans::NoTrans, m, n, k, a.alpha, A, B1, T(1), C1);
    ocl::gemm<T>(w.kernels, w.queue, a.op, Trans::NoTrans, k, n, m, a.alpha, A, B2, T(1), C2);
}

template <class T>
starpu_codelet& gemm_pair_codelet() {
    return codelets::named_codelet<T, gemm_pair_cpu<T>, gemm_pair_opencl<T>>(
        "gemm_pair", {STARPU_R, STARPU_R, STARPU_R, STARPU_RW, STARPU_RW});
}

}  // namespace

template <class T>
void tasks::gemm_pair(Trans op, T alpha, TileHandle A, TileHandle B1, TileHandle B2, TileHandle C1, TileHandle C2,
                      int prio) {
    GemmPairArgs<T> args{codelets::pack_flags(codelets::op_flag<T>(op)), op, alpha};
    codelets::submit(gemm_pair_codelet<T>(), args, {A, B1, B2, C1, C2}, prio);
}

template <class T>
void tasks::gemm(Trans ta, Trans tb, T alpha, TileHandle A, TileHandle B, T beta, TileHandle C, int prio) {
    GemmArgs<T> args{codelets::pack_flags(codelets::op_flag<T>(ta), codelets::op_flag<T>(tb)), ta, tb, alpha, beta};
    codelets::submit(gemm_codelet<T>(beta == T(0)), args, {A, B, C}, prio);
}

#define TESSERA_INSTANTIATE(T)                                                                 \
    template void tasks::gemm<T>(Trans, Trans, T, TileHandle, TileHandle, T, TileHandle, int); \
    template void tasks::gemm_pair<T>(Trans, T, TileHandle, TileHandle, TileHandle, TileHandle, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
