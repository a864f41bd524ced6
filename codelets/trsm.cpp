// trsm and trmm codelets: B = alpha·op(A)⁻¹·B or alpha·B·op(A)⁻¹ (trsm), B = alpha·op(A)·B or
// alpha·B·op(A) (trmm), A a triangular tile. Both take the same arguments.
#include "codelets/codelet.hpp"
#include "codelets/tasks.hpp"
#include "kernels/cpu/blas.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

template <class T>
struct TriangularArgs {
    uint32_t flags;
    Side side;
    Uplo uplo;
    Trans trans;
    Diag diag;
    T alpha;
    bool zeroed;  // trmm: A's other triangle holds zeros (ocl::trmm reads A as stored)
};

template <class T>
void trsm_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TriangularArgs<T>*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), B = codelets::cpu_tile<T>(buffers[1]);
    cpu::trsm<T>(a.side, a.uplo, a.trans, a.diag, B.m, B.n, a.alpha, A.ptr, A.ld, B.ptr, B.ld);
}

template <class T>
void trsm_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TriangularArgs<T>*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    ocl::trsm<T>(w.kernels, w.queue, a.side, a.uplo, a.trans, a.diag, codelets::tile_rows(buffers[1]),
                 codelets::tile_cols(buffers[1]), a.alpha, codelets::ocl_tile<T>(buffers[0]),
                 codelets::ocl_tile<T>(buffers[1]));
}

template <class T>
void trmm_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TriangularArgs<T>*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), B = codelets::cpu_tile<T>(buffers[1]);
    cpu::trmm<T>(a.side, a.uplo, a.trans, a.diag, B.m, B.n, a.alpha, A.ptr, A.ld, B.ptr, B.ld);
}

template <class T>
void trmm_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TriangularArgs<T>*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    ocl::trmm<T>(w.kernels, w.queue, a.side, a.uplo, a.trans, a.diag, codelets::tile_rows(buffers[1]),
                 codelets::tile_cols(buffers[1]), a.alpha, codelets::ocl_tile<T>(buffers[0]),
                 codelets::ocl_tile<T>(buffers[1]), a.zeroed);
}

template <class T>
starpu_codelet& trsm_codelet() {
    return codelets::named_codelet<T, trsm_cpu<T>, trsm_opencl<T>>("trsm", {STARPU_R, STARPU_RW});
}

template <class T>
starpu_codelet& trmm_codelet() {
    return codelets::named_codelet<T, trmm_cpu<T>, trmm_opencl<T>>("trmm", {STARPU_R, STARPU_RW});
}

template <class T>
void submit_triangular(starpu_codelet& cl, Side side, Uplo uplo, Trans trans, Diag diag, T alpha, TileHandle A,
                       TileHandle B, int prio, bool zeroed = false) {
    TriangularArgs<T> args{codelets::pack_flags(char(side), char(uplo), codelets::op_flag<T>(trans), char(diag)), side, uplo, trans,
                           diag, alpha, zeroed};
    codelets::submit(cl, args, {A, B}, prio);
}

}  // namespace

template <class T>
void tasks::trsm(Side side, Uplo uplo, Trans trans, Diag diag, T alpha, TileHandle A, TileHandle B, int prio) {
    submit_triangular(trsm_codelet<T>(), side, uplo, trans, diag, alpha, A, B, prio);
}

template <class T>
void tasks::trmm(Side side, Uplo uplo, Trans trans, Diag diag, T alpha, TileHandle A, TileHandle B, int prio,
                 bool zeroed) {
    submit_triangular(trmm_codelet<T>(), side, uplo, trans, diag, alpha, A, B, prio, zeroed);
}

#define TESSERA_INSTANTIATE(T)                                                                   \
    template void tasks::trsm<T>(Side, Uplo, Trans, Diag, T, TileHandle, TileHandle, int); \
    template void tasks::trmm<T>(Side, Uplo, Trans, Diag, T, TileHandle, TileHandle, int, bool);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
