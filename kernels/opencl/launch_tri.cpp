// Host launchers of the triangular products and inverses (trmm, trtri) and of laset (lacpy.cl):
// built from lacpy/laset copies and gemm(), so their flops run on the GEMM dispatch (NVIDIA path
// first). The tile Cholesky on an OpenCL device inverts each diagonal tile once (trtri) and applies
// the inverse to the tiles below it (trmm) instead of one trsm each (algorithms/cholesky.cpp).
#include "kernels/opencl/launch.hpp"
#include "kernels/opencl/launch_util.hpp"

namespace tessera::ocl {

template <class T>
void laset(const DeviceKernels& dk, cl_command_queue q, int64_t m, int64_t n, T alpha, T beta, Mat B) {
    check_prec<T>(dk, "laset");
    if (m == 0 || n == 0) return;
    cl_kernel kernel = dk.get("tessera_laset");
    const cl_int cm = to_int(m, "laset", "m"), cn = to_int(n, "laset", "n"), ldb = to_int(B.ld, "laset", "ldb");
    const cl_ulong offB = B.off;
    set_args(kernel, "clSetKernelArg(tessera_laset)", cm, cn, alpha, beta, B.mem, offB, ldb);
    const size_t local[2] = {64, 4};
    const size_t global[2] = {round_up(size_t(m), local[0]), round_up(size_t(n), local[1])};
    enqueue(q, kernel, 2, global, local, "clEnqueueNDRangeKernel(tessera_laset)");
}

template <class T>
void trmm(const DeviceKernels& dk, cl_command_queue q, Side side, Uplo uplo, Trans trans, Diag diag, int64_t m,
          int64_t n, T alpha, Mat A, Mat B) {
    check_prec<T>(dk, "trmm");
    if (uplo == Uplo::General) throw std::invalid_argument("tessera::ocl::trmm: uplo must be Lower or Upper");
    to_int(m, "trmm", "m");
    to_int(n, "trmm", "n");
    if (m == 0 || n == 0) return;
    if (alpha == T(0)) {  // B = 0, reading neither A nor B (BLAS): a GEMM with k = 0 and beta = 0
        gemm<T>(dk, q, Trans::NoTrans, Trans::NoTrans, m, n, 0, T(0), B, B, T(0), B);
        return;
    }
    // Scratch: the k×k triangle S of A (zeros in the other one) and a copy Bc of B; leading
    // dimensions in multiples of 8 elements, as the GEMM kernels' aligned loads prefer.
    const bool left = side == Side::Left;
    const int64_t k = left ? m : n;
    const int64_t lds = int64_t(round_up(size_t(k), 8)), ldc = int64_t(round_up(size_t(m), 8));
    cl_mem s = dk.scratch(size_t(lds * k + ldc * n) * sizeof(T));
    const Mat S{s, 0, lds}, Bc{s, size_t(lds * k), ldc};
    const bool unit = diag == Diag::Unit, lower = uplo == Uplo::Lower;
    laset<T>(dk, q, k, k, T(0), unit ? T(1) : T(0), S);
    if (!unit) {
        lacpy<T>(dk, q, uplo, k, k, A, S);
    } else if (k > 1) {  // the strict triangle: the uplo trapezoid of the (k−1)×(k−1) block next to the diagonal
        const Mat a{A.mem, A.off + size_t(lower ? 1 : A.ld), A.ld}, t{s, size_t(lower ? 1 : lds), lds};
        lacpy<T>(dk, q, uplo, k - 1, k - 1, a, t);
    }
    lacpy<T>(dk, q, Uplo::General, m, n, B, Bc);
    if (left) gemm<T>(dk, q, trans, Trans::NoTrans, m, n, m, alpha, S, Bc, T(0), B);
    else gemm<T>(dk, q, Trans::NoTrans, trans, m, n, n, alpha, Bc, S, T(0), B);
}

template <class T>
void trtri(const DeviceKernels& dk, cl_command_queue q, Uplo uplo, Diag diag, int64_t n, Mat A, Mat W) {
    check_prec<T>(dk, "trtri");
    if (uplo == Uplo::General) throw std::invalid_argument("tessera::ocl::trtri: uplo must be Lower or Upper");
    to_int(n, "trtri", "n");
    if (n == 0) return;
    laset<T>(dk, q, n, n, T(0), T(1), W);
    trsm<T>(dk, q, Side::Left, uplo, Trans::NoTrans, diag, n, n, T(1), A, W);
}

#define TESSERA_INSTANTIATE(T)                                                                                  \
    template void laset<T>(const DeviceKernels&, cl_command_queue, int64_t, int64_t, T, T, Mat);               \
    template void trmm<T>(const DeviceKernels&, cl_command_queue, Side, Uplo, Trans, Diag, int64_t, int64_t, T, \
                          Mat, Mat);                                                                            \
    template void trtri<T>(const DeviceKernels&, cl_command_queue, Uplo, Diag, int64_t, Mat, Mat);
TESSERA_INSTANTIATE(float)
TESSERA_INSTANTIATE(double)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::ocl
