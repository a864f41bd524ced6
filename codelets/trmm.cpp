// trmm and trtri codelets: B = alpha·op(A)·B or alpha·B·op(A) with A triangular, and W = A⁻¹ of a
// triangular tile (the tile Cholesky's inverse-based panel on OpenCL devices).
#include "codelets/codelet.hpp"
#include "codelets/tasks.hpp"
#include "kernels/cpu/blas.hpp"

namespace tessera {
namespace {

template <class T>
struct TrmmArgs {
    uint32_t flags;
    Side side;
    Uplo uplo;
    Trans trans;
    Diag diag;
    T alpha;
};

template <class T>
void trmm_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TrmmArgs<T>*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), B = codelets::cpu_tile<T>(buffers[1]);
    cpu::trmm<T>(a.side, a.uplo, a.trans, a.diag, B.m, B.n, a.alpha, A.ptr, A.ld, B.ptr, B.ld);
}

template <class T>
void trmm_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TrmmArgs<T>*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    ocl::trmm<T>(w.kernels, w.queue, a.side, a.uplo, a.trans, a.diag, codelets::tile_rows(buffers[1]),
                 codelets::tile_cols(buffers[1]), a.alpha, codelets::ocl_tile<T>(buffers[0]),
                 codelets::ocl_tile<T>(buffers[1]));
}

template <class T>
starpu_codelet& trmm_codelet() {
    static const std::string name = prec_letter<T>() + std::string("trmm");
    static starpu_codelet cl = codelets::make_codelet(name.c_str(), trmm_cpu<T>, trmm_opencl<T>, {STARPU_R, STARPU_RW},
                                                      codelets::history_model("tessera_" + name));
    return cl;
}

struct TrtriArgs {
    uint32_t flags;
    Uplo uplo;
    Diag diag;
};

template <class T>
void trtri_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TrtriArgs*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), W = codelets::cpu_tile<T>(buffers[1]);
    cpu::trtri<T>(a.uplo, a.diag, W.n, A.ptr, A.ld, W.ptr, W.ld);  // info > 0 only after potrf failed: its info stands
}

template <class T>
void trtri_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TrtriArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    ocl::trtri<T>(w.kernels, w.queue, a.uplo, a.diag, codelets::tile_cols(buffers[1]),
                  codelets::ocl_tile<T>(buffers[0]), codelets::ocl_tile<T>(buffers[1]));
}

template <class T>
starpu_codelet& trtri_codelet() {
    static const std::string name = prec_letter<T>() + std::string("trtri");
    static starpu_codelet cl = codelets::make_codelet(name.c_str(), trtri_cpu<T>, trtri_opencl<T>, {STARPU_R, STARPU_W},
                                                      codelets::history_model("tessera_" + name));
    return cl;
}

}  // namespace

template <class T>
void tasks::trmm(Side side, Uplo uplo, Trans trans, Diag diag, T alpha, TileHandle A, TileHandle B, int prio) {
    TrmmArgs<T> args{codelets::pack_flags(char(side), char(uplo), char(trans), char(diag)), side, uplo, trans, diag, alpha};
    codelets::submit(trmm_codelet<T>(), args, {A, B}, prio);
}

template <class T>
void tasks::trtri(Uplo uplo, Diag diag, TileHandle A, TileHandle W, int prio) {
    TrtriArgs args{codelets::pack_flags(char(uplo), char(diag)), uplo, diag};
    codelets::submit(trtri_codelet<T>(), args, {A, W}, prio);
}

#define TESSERA_INSTANTIATE(T)                                                                   \
    template void tasks::trmm<T>(Side, Uplo, Trans, Diag, T, TileHandle, TileHandle, int); \
    template void tasks::trtri<T>(Uplo, Diag, TileHandle, TileHandle, int);
TESSERA_INSTANTIATE(float)
TESSERA_INSTANTIATE(double)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
