// trsm codelet: B = alpha·op(A)⁻¹·B (Left) or alpha·B·op(A)⁻¹ (Right) on one tile.
#include "codelets/codelet.hpp"
#include "codelets/tasks.hpp"
#include "kernels/cpu/blas.hpp"

namespace tessera {
namespace {

template <class T>
struct TrsmArgs {
    uint32_t flags;
    Side side;
    Uplo uplo;
    Trans trans;
    Diag diag;
    T alpha;
};

template <class T>
void trsm_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TrsmArgs<T>*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), B = codelets::cpu_tile<T>(buffers[1]);
    cpu::trsm<T>(a.side, a.uplo, a.trans, a.diag, B.m, B.n, a.alpha, A.ptr, A.ld, B.ptr, B.ld);
}

template <class T>
void trsm_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TrsmArgs<T>*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    ocl::trsm<T>(w.kernels, w.queue, a.side, a.uplo, a.trans, a.diag, codelets::tile_rows(buffers[1]),
                 codelets::tile_cols(buffers[1]), a.alpha, codelets::ocl_tile<T>(buffers[0]),
                 codelets::ocl_tile<T>(buffers[1]));
}

template <class T>
starpu_codelet& trsm_codelet() {
    static const std::string name = prec_letter<T>() + std::string("trsm");
    static starpu_codelet cl = codelets::make_codelet(name.c_str(), trsm_cpu<T>, trsm_opencl<T>, {STARPU_R, STARPU_RW},
                                                      codelets::history_model("tessera_" + name));
    return cl;
}

}  // namespace

template <class T>
void tasks::trsm(Side side, Uplo uplo, Trans trans, Diag diag, T alpha, TileHandle A, TileHandle B, int prio) {
    TrsmArgs<T> args{codelets::pack_flags(char(side), char(uplo), char(trans), char(diag)), side, uplo, trans, diag, alpha};
    codelets::submit(trsm_codelet<T>(), args, {A, B}, prio);
}

template void tasks::trsm<float>(Side, Uplo, Trans, Diag, float, TileHandle, TileHandle, int);
template void tasks::trsm<double>(Side, Uplo, Trans, Diag, double, TileHandle, TileHandle, int);

}  // namespace tessera
