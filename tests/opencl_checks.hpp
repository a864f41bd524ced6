// Matrices, fills, norms and CBLAS/LAPACKE references of the OpenCL kernel tests
// (test_opencl_kernels, test_opencl_triangular), and their typed fixture OpenCLKernels. Every
// buffer is larger than the matrix it holds (nonzero offset, ld > rows, a tail), so that what a
// kernel must not write can be compared bit for bit afterwards; residuals are docs/architecture.md's scaled
// ones with threshold kThreshold.
#pragma once

#include "kernels/cpu/cblas_lapacke.hpp"  // first: CBLAS/LAPACKE with std::complex as their complex types

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "kernels/opencl/launch.hpp"
#include "tests/opencl_env.hpp"
#include "tests/uniform.hpp"

namespace tessera::ocltest {

constexpr double kThreshold = 60.0;

/// re, or re + i·im for complex T (the real runs keep their real scalars).
template <class T>
T scalar(double re, double im) {
    if constexpr (is_complex_v<T>)
        return T(real_t<T>(re), real_t<T>(im));
    else
        return T(re);
}

/// |x| (the modulus for complex T) in double.
template <class T>
double absd(T x) {
    return double(std::abs(x));
}

/// The ops to run: NoTrans and Trans, and ConjTrans for complex T (ConjTrans is Trans for real T).
template <class T>
std::vector<Trans> ops() {
    if constexpr (is_complex_v<T>)
        return {Trans::NoTrans, Trans::Trans, Trans::ConjTrans};
    else
        return {Trans::NoTrans, Trans::Trans};
}

/// A rows×cols column-major matrix at element offset `off` of a buffer with leading dimension
/// ld = rows + 3 and a tail; everything outside the matrix starts as NaN.
template <class T>
struct DevMat {
    int64_t rows, cols, ld;
    size_t off;
    std::vector<T> h;
    cl_mem mem = nullptr;

    DevMat(int64_t r, int64_t c, size_t offset)
        : rows(r), cols(c), ld(r + 3), off(offset), h(offset + size_t(ld) * size_t(c) + 5, nan_value<T>()) {}
    DevMat(const DevMat&) = delete;
    ~DevMat() {
        if (mem) clReleaseMemObject(mem);
    }
    T& operator()(int64_t i, int64_t j) { return h[off + size_t(i + j * ld)]; }
    T operator()(int64_t i, int64_t j) const { return h[off + size_t(i + j * ld)]; }
    T* data() { return h.data() + off; }
    const T* data() const { return h.data() + off; }
    ocl::Mat mat() const { return {mem, off, ld}; }

    void upload() {
        cl_int err = CL_SUCCESS;
        if (!mem) {
            mem = clCreateBuffer(Env::get().ctx(), CL_MEM_READ_WRITE, h.size() * sizeof(T), nullptr, &err);
            ocl::check(err, "clCreateBuffer");
        }
        ocl::check(clEnqueueWriteBuffer(Env::get().queue(), mem, CL_TRUE, 0, h.size() * sizeof(T), h.data(), 0,
                                        nullptr, nullptr),
                   "clEnqueueWriteBuffer");
    }
    void download() {
        ocl::check(clFinish(Env::get().queue()), "clFinish");
        ocl::check(clEnqueueReadBuffer(Env::get().queue(), mem, CL_TRUE, 0, h.size() * sizeof(T), h.data(), 0,
                                       nullptr, nullptr),
                   "clEnqueueReadBuffer");
    }
    /// A dense copy of the matrix (ld = rows).
    std::vector<T> dense() const {
        std::vector<T> d(size_t(rows * cols));
        for (int64_t j = 0; j < cols; ++j)
            for (int64_t i = 0; i < rows; ++i) d[size_t(i + j * rows)] = (*this)(i, j);
        return d;
    }
};

template <class T>
void fill_random(DevMat<T>& a, std::mt19937_64& rng) {
    for (int64_t j = 0; j < a.cols; ++j)
        for (int64_t i = 0; i < a.rows; ++i) a(i, j) = testutil::uniform_scalar<T>(rng);
}

/// Every element of the buffer for which `written(i, j)` is false (including the padding, the
/// offset prefix and the tail) must be bitwise unchanged.
template <class T>
::testing::AssertionResult untouched(const DevMat<T>& now, const std::vector<T>& before,
                                     const std::function<bool(int64_t, int64_t)>& written) {
    for (size_t e = 0; e < before.size(); ++e) {
        bool in = false;
        if (e >= now.off) {
            const size_t r = e - now.off;
            const int64_t i = int64_t(r % size_t(now.ld)), j = int64_t(r / size_t(now.ld));
            in = i < now.rows && j < now.cols && written(i, j);
        }
        if (!in && std::memcmp(&now.h[e], &before[e], sizeof(T)) != 0)
            return ::testing::AssertionFailure() << "element " << e << " of the buffer changed outside the output";
    }
    return ::testing::AssertionSuccess();
}

template <class T>
double norm1(int64_t rows, int64_t cols, const T* a, int64_t ld) {
    double best = 0;
    for (int64_t j = 0; j < cols; ++j) {
        double s = 0;
        for (int64_t i = 0; i < rows; ++i) s += absd(a[i + j * ld]);
        if (!(s <= best)) best = s;  // NaN propagates
    }
    return best;
}

/// The output C of an update C = … + beta·C before it runs: C filled at random unless beta = 0 (then it
/// stays NaN and must be overwritten) and uploaded; `before`, its whole buffer (for untouched());
/// `ref`, where the reference result starts (C₀, or zeros when beta = 0); `norm`, ‖C₀‖₁ (0 when
/// beta = 0).
template <class T>
struct UpdateStart {
    std::vector<T> before, ref;
    double norm;
};
template <class T>
UpdateStart<T> start_update(DevMat<T>& C, T beta, std::mt19937_64& rng) {
    if (beta != T(0)) fill_random(C, rng);
    C.upload();
    UpdateStart<T> s{C.h, C.dense(), 0.0};
    if (beta != T(0)) s.norm = norm1(C.rows, C.cols, s.ref.data(), C.rows);
    else std::fill(s.ref.begin(), s.ref.end(), T(0));
    return s;
}

template <class T>
double eps() {
    return std::numeric_limits<real_t<T>>::epsilon() / 2;
}

::testing::AssertionResult residual_ok(double num, double den, const std::string& what) {
    // As check::ratio and check::passes: a NaN, infinite or negative norm never passes.
    const double r = !(num >= 0) || !(den >= 0) || std::isinf(den) ? NAN : num == 0 ? 0 : num / den;
    if (std::isfinite(r) && r <= kThreshold) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << what << ": scaled residual " << r << " > " << kThreshold;
}

// ---------------------------------------------------------------------------------------------
// CBLAS / LAPACKE by type (complex alpha and beta by pointer).

/// ConjTrans is CblasConjTrans for complex T and CblasTrans for real T.
template <class T>
CBLAS_TRANSPOSE cblas_trans(Trans t) {
    if (t == Trans::NoTrans) return CblasNoTrans;
    return t == Trans::ConjTrans && is_complex_v<T> ? CblasConjTrans : CblasTrans;
}
CBLAS_UPLO cblas_uplo(Uplo u) { return u == Uplo::Lower ? CblasLower : CblasUpper; }

template <class T>
void ref_gemm(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b,
              int64_t ldb, T beta, T* c, int64_t ldc) {
    const auto opa = cblas_trans<T>(ta), opb = cblas_trans<T>(tb);
    if constexpr (std::is_same_v<T, float>)
        cblas_sgemm(CblasColMajor, opa, opb, int(m), int(n), int(k), alpha, a, int(lda), b, int(ldb), beta, c,
                    int(ldc));
    else if constexpr (std::is_same_v<T, double>)
        cblas_dgemm(CblasColMajor, opa, opb, int(m), int(n), int(k), alpha, a, int(lda), b, int(ldb), beta, c,
                    int(ldc));
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        cblas_cgemm(CblasColMajor, opa, opb, int(m), int(n), int(k), &alpha, a, int(lda), b, int(ldb), &beta, c,
                    int(ldc));
    else
        cblas_zgemm(CblasColMajor, opa, opb, int(m), int(n), int(k), &alpha, a, int(lda), b, int(ldb), &beta, c,
                    int(ldc));
}

/// xSYRK, complex symmetric for complex T; ConjTrans is Trans (as ocl::syrk takes it).
template <class T>
void ref_syrk(Uplo uplo, Trans t, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, T beta, T* c,
              int64_t ldc) {
    const auto op = t == Trans::NoTrans ? CblasNoTrans : CblasTrans;
    if constexpr (std::is_same_v<T, float>)
        cblas_ssyrk(CblasColMajor, cblas_uplo(uplo), op, int(n), int(k), alpha, a, int(lda), beta, c, int(ldc));
    else if constexpr (std::is_same_v<T, double>)
        cblas_dsyrk(CblasColMajor, cblas_uplo(uplo), op, int(n), int(k), alpha, a, int(lda), beta, c, int(ldc));
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        cblas_csyrk(CblasColMajor, cblas_uplo(uplo), op, int(n), int(k), &alpha, a, int(lda), &beta, c, int(ldc));
    else
        cblas_zsyrk(CblasColMajor, cblas_uplo(uplo), op, int(n), int(k), &alpha, a, int(lda), &beta, c, int(ldc));
}

/// xHERK (real alpha and beta, trans NoTrans or ConjTrans); xSYRK for real T.
template <class T>
void ref_herk(Uplo uplo, Trans t, int64_t n, int64_t k, real_t<T> alpha, const T* a, int64_t lda, real_t<T> beta,
              T* c, int64_t ldc) {
    if constexpr (!is_complex_v<T>)
        ref_syrk<T>(uplo, t, n, k, alpha, a, lda, beta, c, ldc);
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        cblas_cherk(CblasColMajor, cblas_uplo(uplo), cblas_trans<T>(t), int(n), int(k), alpha, a, int(lda), beta, c,
                    int(ldc));
    else
        cblas_zherk(CblasColMajor, cblas_uplo(uplo), cblas_trans<T>(t), int(n), int(k), alpha, a, int(lda), beta, c,
                    int(ldc));
}

template <class T>
void ref_trsm(Side s, Uplo u, Trans t, Diag d, int64_t m, int64_t n, T alpha, const T* a, int64_t lda, T* b,
              int64_t ldb) {
    const auto side = s == Side::Left ? CblasLeft : CblasRight;
    const auto diag = d == Diag::Unit ? CblasUnit : CblasNonUnit;
    const auto op = cblas_trans<T>(t);
    if constexpr (std::is_same_v<T, float>)
        cblas_strsm(CblasColMajor, side, cblas_uplo(u), op, diag, int(m), int(n), alpha, a, int(lda), b, int(ldb));
    else if constexpr (std::is_same_v<T, double>)
        cblas_dtrsm(CblasColMajor, side, cblas_uplo(u), op, diag, int(m), int(n), alpha, a, int(lda), b, int(ldb));
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        cblas_ctrsm(CblasColMajor, side, cblas_uplo(u), op, diag, int(m), int(n), &alpha, a, int(lda), b, int(ldb));
    else
        cblas_ztrsm(CblasColMajor, side, cblas_uplo(u), op, diag, int(m), int(n), &alpha, a, int(lda), b, int(ldb));
}

template <class T>
int ref_potrf(Uplo u, int64_t n, T* a, int64_t lda) {
    // The _work variant: no NaN pre-check, so a NaN pivot is reported by xPOTRF itself.
    const char c = u == Uplo::Lower ? 'L' : 'U';
    if constexpr (std::is_same_v<T, float>)
        return LAPACKE_spotrf_work(LAPACK_COL_MAJOR, c, int(n), a, int(lda));
    else if constexpr (std::is_same_v<T, double>)
        return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, c, int(n), a, int(lda));
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        return LAPACKE_cpotrf_work(LAPACK_COL_MAJOR, c, int(n), a, int(lda));
    else
        return LAPACKE_zpotrf_work(LAPACK_COL_MAJOR, c, int(n), a, int(lda));
}

// ---------------------------------------------------------------------------------------------

template <class T>
class OpenCLKernels : public ::testing::Test {
protected:
    static const ocl::DeviceKernels& dk() { return Env::get().kernels<T>(); }
    static cl_command_queue q() { return Env::get().queue(); }
    std::mt19937_64 rng{20240611};
};

using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;

}  // namespace tessera::ocltest
