// syrk and herk codelets: C = alpha·op(A)·op(A)ᵀ + beta·C, or with op(A)ᴴ and real alpha, beta, on
// the uplo triangle of one diagonal tile. Real herk is syrk.
#include "codelets/codelet.hpp"
#include "codelets/tasks.hpp"
#include "kernels/cpu/blas.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

template <class T>
struct SyrkArgs {
    uint32_t flags;
    Uplo uplo;
    Trans trans;
    T alpha, beta;
};

template <class T>
void syrk_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<SyrkArgs<T>*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), C = codelets::cpu_tile<T>(buffers[1]);
    const int64_t k = a.trans == Trans::NoTrans ? A.n : A.m;
    cpu::syrk<T>(a.uplo, a.trans, C.n, k, a.alpha, A.ptr, A.ld, a.beta, C.ptr, C.ld);
}

template <class T>
void syrk_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<SyrkArgs<T>*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    const int64_t k = a.trans == Trans::NoTrans ? codelets::tile_cols(buffers[0]) : codelets::tile_rows(buffers[0]);
    ocl::syrk<T>(w.kernels, w.queue, a.uplo, a.trans, codelets::tile_cols(buffers[1]), k, a.alpha,
                 codelets::ocl_tile<T>(buffers[0]), a.beta, codelets::ocl_tile<T>(buffers[1]));
}

template <class T>
starpu_codelet& syrk_codelet() {
    return codelets::named_codelet<T, syrk_cpu<T>, syrk_opencl<T>>("syrk", {STARPU_R, STARPU_RW});
}

template <class T>
struct HerkArgs {
    uint32_t flags;
    Uplo uplo;
    Trans trans;
    real_t<T> alpha, beta;
};

template <class T>
void herk_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<HerkArgs<T>*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), C = codelets::cpu_tile<T>(buffers[1]);
    const int64_t k = a.trans == Trans::NoTrans ? A.n : A.m;
    cpu::herk<T>(a.uplo, a.trans, C.n, k, a.alpha, A.ptr, A.ld, a.beta, C.ptr, C.ld);
}

template <class T>
void herk_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<HerkArgs<T>*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    const int64_t k = a.trans == Trans::NoTrans ? codelets::tile_cols(buffers[0]) : codelets::tile_rows(buffers[0]);
    ocl::herk<T>(w.kernels, w.queue, a.uplo, a.trans, codelets::tile_cols(buffers[1]), k, a.alpha,
                 codelets::ocl_tile<T>(buffers[0]), a.beta, codelets::ocl_tile<T>(buffers[1]));
}

template <class T>
starpu_codelet& herk_codelet() {
    return codelets::named_codelet<T, herk_cpu<T>, herk_opencl<T>>("herk", {STARPU_R, STARPU_RW});
}

}  // namespace

template <class T>
void tasks::herk(Uplo uplo, Trans trans, real_t<T> alpha, TileHandle A, real_t<T> beta, TileHandle C, int prio) {
    if constexpr (!is_complex_v<T>) {
        syrk<T>(uplo, trans, alpha, A, beta, C, prio);
    } else {
        HerkArgs<T> args{codelets::pack_flags(char(uplo), codelets::op_flag<T>(trans)), uplo, trans, alpha, beta};
        codelets::submit(herk_codelet<T>(), args, {A, C}, prio);
    }
}

template <class T>
void tasks::syrk(Uplo uplo, Trans trans, T alpha, TileHandle A, T beta, TileHandle C, int prio) {
    SyrkArgs<T> args{codelets::pack_flags(char(uplo), codelets::op_flag<T>(trans)), uplo, trans, alpha, beta};
    codelets::submit(syrk_codelet<T>(), args, {A, C}, prio);
}

#define TESSERA_INSTANTIATE(T)                                                       \
    template void tasks::syrk<T>(Uplo, Trans, T, TileHandle, T, TileHandle, int); \
    template void tasks::herk<T>(Uplo, Trans, real_t<T>, TileHandle, real_t<T>, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
