// Host launchers of the triangular products (gemm_triangular, trmm) and of laset and geadd
// (lacpy.cl): the products are gemm() calls over the nonzero part of the triangle, so their flops
// run on the GEMM dispatch (NVIDIA path first). The tile Cholesky on an OpenCL device inverts each diagonal tile once (trtri) and applies
// the inverse to the tiles below it (trmm) instead of one trsm each (algorithms/cholesky.cpp).
#include "kernels/opencl/launch.hpp"
#include "kernels/opencl/launch_util.hpp"
#include "runtime/precisions.hpp"

#include <algorithm>

namespace tessera::ocl {

template <class T>
void laset(const DeviceKernels& dk, cl_command_queue q, int64_t m, int64_t n, T alpha, T beta, Mat B) {
    check_prec<T>(dk, "laset");
    if (m == 0 || n == 0) return;
    cl_kernel kernel = dk.get("tessera_laset");
    const cl_int cm = to_int(m, "laset", "m"), cn = to_int(n, "laset", "n"), ldb = to_int(B.ld, "laset", "ldb");
    const cl_ulong offB = B.off;
    set_args(kernel, "clSetKernelArg(tessera_laset)", cm, cn, alpha, beta, B.mem, offB, ldb);
    enqueue_2d(q, kernel, m, n, "clEnqueueNDRangeKernel(tessera_laset)");
}

namespace {

// B = alpha·Re(A) on the m×n region, imaginary parts zero (lacpy.cl's tessera_scale_real_part, complex
// programs only): symm()'s Hermitian diagonal, whose imaginary parts are not read.
template <class T>
void scale_real_part(const DeviceKernels& dk, cl_command_queue q, int64_t m, int64_t n, real_t<T> alpha, Mat A,
                     Mat B) {
    cl_kernel kernel = dk.get("tessera_scale_real_part");
    const cl_int cm = to_int(m, "scale_real_part", "m"), cn = to_int(n, "scale_real_part", "n");
    const cl_int lda = to_int(A.ld, "scale_real_part", "lda"), ldb = to_int(B.ld, "scale_real_part", "ldb");
    const cl_ulong offA = A.off, offB = B.off;
    set_args(kernel, "clSetKernelArg(tessera_scale_real_part)", cm, cn, alpha, A.mem, offA, lda, B.mem, offB, ldb);
    enqueue_2d(q, kernel, m, n, "clEnqueueNDRangeKernel(tessera_scale_real_part)");
}

}  // namespace

template <class T>
void geadd(const DeviceKernels& dk, cl_command_queue q, int64_t m, int64_t n, T alpha, Mat A, T beta, Mat B) {
    check_prec<T>(dk, "geadd");
    if (m == 0 || n == 0) return;
    cl_kernel kernel = dk.get("tessera_geadd");
    const cl_int cm = to_int(m, "geadd", "m"), cn = to_int(n, "geadd", "n");
    const cl_int lda = to_int(A.ld, "geadd", "lda"), ldb = to_int(B.ld, "geadd", "ldb");
    const cl_ulong offA = A.off, offB = B.off;
    set_args(kernel, "clSetKernelArg(tessera_geadd)", cm, cn, alpha, A.mem, offA, lda, beta, B.mem, offB, ldb);
    enqueue_2d(q, kernel, m, n, "clEnqueueNDRangeKernel(tessera_geadd)");
}

template <class T>
void gemm_triangular(const DeviceKernels& dk, cl_command_queue q, Side side, Uplo uplo, Trans trans, int64_t m,
                     int64_t n, T alpha, Mat S, Mat B, T beta, Mat C) {
    // op(S) is triangular: split C's rows (Left) or columns (Right) into `parts` blocks and give each
    // block's GEMM only the k-range where op(S) is nonzero, (parts + 1) / (2·parts) of the flops of
    // one full GEMM; blocks of at least 1024 keep each GEMM wide enough to fill the device.
    const bool left = side == Side::Left;
    const int64_t k = left ? m : n;
    const int64_t parts = std::clamp<int64_t>(k / 1024, 1, 4);
    const int64_t kb = int64_t(round_up(size_t((k + parts - 1) / parts), 64));  // aligned block offsets
    const bool op_lower = (uplo == Uplo::Lower) != (trans != Trans::NoTrans);  // op(S) lower triangular
    // The output block [b0, b0 + bn) is a row block of op(S) (Left) or a column block (Right); its
    // nonzero k-range starts at 0 (op(S) lower and Left, or upper and Right) or at b0.
    const bool from_zero = left == op_lower;
    const auto s_at = [&](int64_t r, int64_t c) {  // op(S) from (r, c), as stored
        return trans == Trans::NoTrans ? Mat{S.mem, S.off + size_t(r + c * S.ld), S.ld}
                                       : Mat{S.mem, S.off + size_t(c + r * S.ld), S.ld};
    };
    for (int64_t b0 = 0; b0 < k; b0 += kb) {
        const int64_t bn = std::min(kb, k - b0);
        const int64_t l0 = from_zero ? 0 : b0, l1 = from_zero ? b0 + bn : k;
        if (left)  // C(b, :) = alpha·op(S)(b, l)·B(l, :) + beta·C(b, :)
            gemm<T>(dk, q, trans, Trans::NoTrans, bn, n, l1 - l0, alpha, s_at(b0, l0),
                    Mat{B.mem, B.off + size_t(l0), B.ld}, beta, Mat{C.mem, C.off + size_t(b0), C.ld});
        else  // C(:, b) = alpha·B(:, l)·op(S)(l, b) + beta·C(:, b)
            gemm<T>(dk, q, Trans::NoTrans, trans, m, bn, l1 - l0, alpha, Mat{B.mem, B.off + size_t(l0 * B.ld), B.ld},
                    s_at(l0, b0), beta, Mat{C.mem, C.off + size_t(b0 * C.ld), C.ld});
    }
}

template <class T>
void trmm(const DeviceKernels& dk, cl_command_queue q, Side side, Uplo uplo, Trans trans, Diag diag, int64_t m,
          int64_t n, T alpha, Mat A, Mat B, bool zeroed) {
    check_prec<T>(dk, "trmm");
    if (uplo == Uplo::General) throw Error("tessera::ocl::trmm: uplo must be Lower or Upper");
    to_int(m, "trmm", "m");
    to_int(n, "trmm", "n");
    if (m == 0 || n == 0) return;
    if (alpha == T(0)) {  // B = 0, reading neither A nor B (BLAS): a GEMM with k = 0 and beta = 0
        gemm<T>(dk, q, Trans::NoTrans, Trans::NoTrans, m, n, 0, T(0), B, B, T(0), B);
        return;
    }
    // Scratch: the k×k triangle S of A (zeros in the other one; A itself when it has them) and a
    // copy Bc of B; leading dimensions in multiples of 8 elements, as the GEMM kernels' aligned
    // loads prefer.
    const bool left = side == Side::Left;
    const int64_t k = left ? m : n;
    const bool unit = diag == Diag::Unit, lower = uplo == Uplo::Lower, as_stored = zeroed && !unit;
    const int64_t lds = as_stored ? 0 : int64_t(round_up(size_t(k), 8)), ldc = int64_t(round_up(size_t(m), 8));
    cl_mem s = dk.scratch(size_t(lds * k + ldc * n) * sizeof(T));
    const Mat S = as_stored ? A : Mat{s, 0, lds}, Bc{s, size_t(lds * k), ldc};
    if (!as_stored) {
        laset<T>(dk, q, k, k, T(0), unit ? T(1) : T(0), S);
        if (!unit) {
            lacpy<T>(dk, q, uplo, k, k, A, S);
        } else if (k > 1) {  // the strict triangle: the uplo trapezoid of the (k−1)×(k−1) block next to the diagonal
            const Mat a{A.mem, A.off + size_t(lower ? 1 : A.ld), A.ld}, t{s, size_t(lower ? 1 : lds), lds};
            lacpy<T>(dk, q, uplo, k - 1, k - 1, a, t);
        }
    }
    lacpy<T>(dk, q, Uplo::General, m, n, B, Bc);
    gemm_triangular<T>(dk, q, side, uplo, trans, m, n, alpha, S, Bc, T(0), B);
}

template <class T>
void symm(const DeviceKernels& dk, cl_command_queue q, bool hermitian, Side side, Uplo uplo, int64_t m, int64_t n,
          T alpha, Mat A, Mat B, T beta, Mat C) {
    check_prec<T>(dk, "symm");
    if (uplo == Uplo::General) throw Error("tessera::ocl::symm: uplo must be Lower or Upper");
    to_int(m, "symm", "m");
    to_int(n, "symm", "n");
    if (m == 0 || n == 0) return;
    const bool left = side == Side::Left, lower = uplo == Uplo::Lower;
    const Trans tt = hermitian && is_complex_v<T> ? Trans::ConjTrans : Trans::Trans;
    // A narrow C (the mixed solvers' residuals): C = alpha·tri(A)·B + beta·C with A's uplo triangle,
    // then C += alpha·op(strict(A))·B with its strict triangle, each product reading only its own.
    if (left && gemm_narrow<T>(dk, q, Trans::NoTrans, Trans::NoTrans, m, n, m, alpha, A, B, beta, C,
                               lower ? NarrowPart::LowerDiag : NarrowPart::UpperDiag, hermitian && is_complex_v<T>)) {
        gemm_narrow<T>(dk, q, tt, Trans::NoTrans, m, n, m, alpha, A, B, T(1), C,
                       lower ? NarrowPart::Lower : NarrowPart::Upper);
        return;
    }
    // A = S + op(S) with S the strict uplo triangle of A plus half its diagonal (zeros elsewhere) and
    // op ᵀ (symm) or ᴴ (hemm: half the diagonal's real parts, so that S + Sᴴ has A's real diagonal and
    // its imaginary parts are not read, as in the narrow path above and xHEMM):
    // C = alpha·S·B + beta·C, then C += alpha·op(S)·B (Right: B·S, B·op(S)), two triangular GEMMs.
    const int64_t k = left ? m : n;
    const int64_t lds = int64_t(round_up(size_t(k), 8));
    cl_mem s = dk.scratch(size_t(lds * k) * sizeof(T));
    const Mat S{s, 0, lds};
    laset<T>(dk, q, k, k, T(0), T(0), S);
    if (k > 1) {  // the strict triangle: the uplo trapezoid of the (k−1)×(k−1) block next to the diagonal
        const Mat a{A.mem, A.off + size_t(lower ? 1 : A.ld), A.ld}, t{s, size_t(lower ? 1 : lds), lds};
        lacpy<T>(dk, q, uplo, k - 1, k - 1, a, t);
    }
    // The diagonals as 1×k matrices (leading dimension ld + 1): S's = A's / 2 (hemm: Re(A's) / 2).
    const Mat diag_a{A.mem, A.off, A.ld + 1}, diag_s{s, 0, lds + 1};
    if (tt == Trans::ConjTrans)
        scale_real_part<T>(dk, q, 1, k, real_t<T>(0.5), diag_a, diag_s);
    else
        geadd<T>(dk, q, 1, k, T(0.5), diag_a, T(0), diag_s);
    gemm_triangular<T>(dk, q, side, uplo, Trans::NoTrans, m, n, alpha, S, B, beta, C);
    gemm_triangular<T>(dk, q, side, uplo, tt, m, n, alpha, S, B, T(1), C);
}

#define TESSERA_INSTANTIATE(T)                                                                                  \
    template void laset<T>(const DeviceKernels&, cl_command_queue, int64_t, int64_t, T, T, Mat);               \
    template void geadd<T>(const DeviceKernels&, cl_command_queue, int64_t, int64_t, T, Mat, T, Mat);          \
    template void gemm_triangular<T>(const DeviceKernels&, cl_command_queue, Side, Uplo, Trans, int64_t, int64_t, \
                                     T, Mat, Mat, T, Mat);                                                    \
    template void trmm<T>(const DeviceKernels&, cl_command_queue, Side, Uplo, Trans, Diag, int64_t, int64_t, T, \
                          Mat, Mat, bool);                                                                    \
    template void symm<T>(const DeviceKernels&, cl_command_queue, bool, Side, Uplo, int64_t, int64_t, T, Mat, Mat, T, \
                          Mat);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::ocl
