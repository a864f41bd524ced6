// Diagonal-tile codelets of the inverses: trtri_inplace (xTRTRI in place) and lauum (xLAUUM). On
// OpenCL devices both are built from the existing launchers: ocl::trtri into a workspace tile and
// lacpy back; the triangle copied to scratch (laset, lacpy) and one herk.
#include "codelets/codelet.hpp"
#include "codelets/tasks_inverse.hpp"
#include "kernels/cpu/blas.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct TrtriArgs {
    uint32_t flags;
    Uplo uplo;
    Diag diag;
};

template <class T>
void trtri_inplace_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TrtriArgs*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]);
    cpu::trtri<T>(a.uplo, a.diag, A.n, A.ptr, A.ld);  // a zero diagonal was reported by zero_diagonal
}

template <class T>
void trtri_inplace_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<TrtriArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    const int64_t n = codelets::tile_cols(buffers[0]);
    const ocl::Mat A = codelets::ocl_tile<T>(buffers[0]), W = codelets::ocl_tile<T>(buffers[1]);
    ocl::trtri<T>(w.kernels, w.queue, a.uplo, a.diag, n, A, W);
    if (a.diag == Diag::NonUnit) {
        ocl::lacpy<T>(w.kernels, w.queue, a.uplo, n, n, W, A);
    } else if (n > 1) {  // the strict triangle: the uplo trapezoid of the (n−1)×(n−1) block next to the diagonal
        const bool lower = a.uplo == Uplo::Lower;
        ocl::lacpy<T>(w.kernels, w.queue, a.uplo, n - 1, n - 1, lower ? ocl::at(W, 1, 0) : ocl::at(W, 0, 1),
                      lower ? ocl::at(A, 1, 0) : ocl::at(A, 0, 1));
    }
}

struct LauumArgs {
    uint32_t flags;
    Uplo uplo;
};

template <class T>
void lauum_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<LauumArgs*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]);
    cpu::lauum<T>(a.uplo, A.n, A.ptr, A.ld);
}

// Lᴴ·L = herk(Lower, ConjTrans) of the lower triangle S with zeros above it, U·Uᴴ = herk(Upper,
// NoTrans) of the upper one: both write only the uplo triangle of A (twice xLAUUM's flops, on the
// device's GEMM kernels).
template <class T>
void lauum_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<LauumArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    const int64_t n = codelets::tile_cols(buffers[0]);
    const ocl::Mat A = codelets::ocl_tile<T>(buffers[0]);
    const int64_t lds = (n + 7) / 8 * 8;
    const ocl::Mat S{w.kernels.scratch(size_t(lds * n) * sizeof(T)), 0, lds};
    ocl::laset<T>(w.kernels, w.queue, n, n, T(0), T(0), S);
    ocl::lacpy<T>(w.kernels, w.queue, a.uplo, n, n, A, S);
    const Trans trans = a.uplo == Uplo::Lower ? Trans::ConjTrans : Trans::NoTrans;
    ocl::herk<T>(w.kernels, w.queue, a.uplo, trans, n, n, real_t<T>(1), S, real_t<T>(0), A);
}

template <class T>
starpu_codelet& trtri_inplace_codelet() {
    return codelets::named_codelet<T, trtri_inplace_cpu<T>, trtri_inplace_opencl<T>>("trtri_inplace",
                                                                                      {STARPU_RW, STARPU_W});
}

template <class T>
starpu_codelet& lauum_codelet() {
    return codelets::named_codelet<T, lauum_cpu<T>, lauum_opencl<T>>("lauum", {STARPU_RW});
}

}  // namespace

template <class T>
void tasks::trtri_inplace(Uplo uplo, Diag diag, TileHandle A, TileHandle W, int prio) {
    TrtriArgs args{codelets::pack_flags(char(uplo), char(diag)), uplo, diag};
    codelets::submit(trtri_inplace_codelet<T>(), args, {A, W}, prio);
}

template <class T>
void tasks::lauum(Uplo uplo, TileHandle A, int prio) {
    LauumArgs args{codelets::pack_flags(char(uplo)), uplo};
    codelets::submit(lauum_codelet<T>(), args, {A}, prio);
}

#define TESSERA_INSTANTIATE(T)                                                              \
    template void tasks::trtri_inplace<T>(Uplo, Diag, TileHandle, TileHandle, int);         \
    template void tasks::lauum<T>(Uplo, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
