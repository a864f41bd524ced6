// syrk codelet: C = alpha·op(A)·op(A)ᵀ + beta·C on the uplo triangle of one diagonal tile.
#include "codelets/codelet.hpp"
#include "codelets/tasks.hpp"
#include "kernels/cpu/blas.hpp"

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
    static const std::string name = prec_letter<T>() + std::string("syrk");
    static starpu_codelet cl = codelets::make_codelet<syrk_cpu<T>, syrk_opencl<T>>(name.c_str(), {STARPU_R, STARPU_RW},
                                                      codelets::history_model("tessera_" + name));
    return cl;
}

}  // namespace

template <class T>
void tasks::syrk(Uplo uplo, Trans trans, T alpha, TileHandle A, T beta, TileHandle C, int prio) {
    SyrkArgs<T> args{codelets::pack_flags(char(uplo), char(trans)), uplo, trans, alpha, beta};
    codelets::submit(syrk_codelet<T>(), args, {A, C}, prio);
}

template void tasks::syrk<float>(Uplo, Trans, float, TileHandle, float, TileHandle, int);
template void tasks::syrk<double>(Uplo, Trans, double, TileHandle, double, TileHandle, int);

}  // namespace tessera
