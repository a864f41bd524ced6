// The OpenCL tile kernels and their launchers (kernels/opencl/launch.hpp), run directly on the
// first OpenCL CPU device (PoCL) without StarPU and checked against CBLAS/LAPACKE with the scaled
// residuals of DESIGN.md (threshold 60). Every buffer is larger than the matrix it holds (nonzero
// offset, ld > rows, a tail), and everything a kernel must not write is filled with NaN or random
// values and compared bit for bit afterwards; the triangles a kernel must not read are NaN.
#include <gtest/gtest.h>

#include <cblas.h>
#include <lapacke.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "kernels/opencl/launch.hpp"

namespace {

using namespace tessera;
namespace ocl = tessera::ocl;

constexpr double kThreshold = 60.0;

// ---------------------------------------------------------------------------------------------
// One OpenCL CPU device, context and queue, and the program built once per precision.

class Env {
public:
    static Env& get() {
        static Env env;
        return env;
    }
    cl_context ctx() const { return ctx_; }
    cl_command_queue queue() const { return q_; }

    template <class T>
    const ocl::DeviceKernels& kernels() {
        auto& slot = std::is_same_v<T, float> ? single_ : double_;
        if (!slot) slot = build(std::is_same_v<T, float> ? 's' : 'd');
        return *slot;
    }

private:
    Env() {
        if (!std::getenv("POCL_CACHE_DIR")) {  // before any OpenCL call
            std::string dir = (std::filesystem::temp_directory_path() / "tessera-pocl-XXXXXX").string();
            if (mkdtemp(dir.data())) {
                setenv("POCL_CACHE_DIR", dir.c_str(), 0);
                cache_dir_ = dir;
            }
        }
        cl_uint nplat = 0;
        ocl::check(clGetPlatformIDs(0, nullptr, &nplat), "clGetPlatformIDs");
        std::vector<cl_platform_id> plats(nplat);
        ocl::check(clGetPlatformIDs(nplat, plats.data(), nullptr), "clGetPlatformIDs");
        // The first CPU device (PoCL); TESSERA_TEST_OPENCL_DEVICE=gpu runs the same checks on the first GPU.
        const char* want = std::getenv("TESSERA_TEST_OPENCL_DEVICE");
        const bool gpu = want && std::string(want) == "gpu";
        for (cl_platform_id p : plats) {
            cl_uint ndev = 0;
            if (clGetDeviceIDs(p, gpu ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_CPU, 1, &dev_, &ndev) == CL_SUCCESS &&
                ndev > 0)
                break;
            dev_ = nullptr;
        }
        if (!dev_)
            throw std::runtime_error(gpu ? "no OpenCL GPU device" : "no OpenCL CPU device (install pocl-opencl-icd)");
        info_ = ocl::query_device(dev_);
        cl_int err = CL_SUCCESS;
        ctx_ = clCreateContext(nullptr, 1, &dev_, nullptr, nullptr, &err);
        ocl::check(err, "clCreateContext");
        q_ = clCreateCommandQueue(ctx_, dev_, 0, &err);
        ocl::check(err, "clCreateCommandQueue");
    }
    ~Env() {
        single_.reset();
        double_.reset();
        if (q_) clReleaseCommandQueue(q_);
        if (ctx_) clReleaseContext(ctx_);
        std::error_code ec;
        if (!cache_dir_.empty()) std::filesystem::remove_all(cache_dir_, ec);
    }

    std::unique_ptr<ocl::DeviceKernels> build(char prec) {
        const std::string& src = ocl::program_source();
        const char* text = src.c_str();
        const size_t len = src.size();
        cl_int err = CL_SUCCESS;
        cl_program prog = clCreateProgramWithSource(ctx_, 1, &text, &len, &err);
        ocl::check(err, "clCreateProgramWithSource");
        const std::string opts = ocl::build_options(info_, prec);
        if (clBuildProgram(prog, 1, &dev_, opts.c_str(), nullptr, nullptr) != CL_SUCCESS) {
            size_t size = 0;
            clGetProgramBuildInfo(prog, dev_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
            std::string log(size, '\0');
            clGetProgramBuildInfo(prog, dev_, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
            clReleaseProgram(prog);
            throw std::runtime_error("OpenCL build failed (" + opts + "):\n" + log);
        }
        std::printf("[ OpenCL   ] %s (%s, driver %s), built with '%s'\n", info_.name.c_str(), info_.vendor.c_str(),
                    info_.driver_version.c_str(), opts.c_str());
        return std::make_unique<ocl::DeviceKernels>(ctx_, dev_, prog, prec, info_);
    }

    std::string cache_dir_;  // our temporary POCL_CACHE_DIR, removed at exit
    cl_device_id dev_ = nullptr;
    ocl::DeviceInfo info_;
    cl_context ctx_ = nullptr;
    cl_command_queue q_ = nullptr;
    std::unique_ptr<ocl::DeviceKernels> single_, double_;
};

// ---------------------------------------------------------------------------------------------
// Host/device matrices with room around them.

template <class T>
T nan_value() {
    return std::numeric_limits<T>::quiet_NaN();
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
void fill_random(DevMat<T>& a, std::mt19937_64& rng, T scale = T(1)) {
    std::uniform_real_distribution<T> u(T(-1), T(1));
    for (int64_t j = 0; j < a.cols; ++j)
        for (int64_t i = 0; i < a.rows; ++i) a(i, j) = scale * u(rng);
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
        for (int64_t i = 0; i < rows; ++i) s += std::fabs(double(a[i + j * ld]));
        if (!(s <= best)) best = s;  // NaN propagates
    }
    return best;
}

template <class T>
double eps() {
    return std::numeric_limits<T>::epsilon() / 2;
}

::testing::AssertionResult residual_ok(double num, double den, const std::string& what) {
    if (num == 0) return ::testing::AssertionSuccess();
    const double r = num / den;
    if (r <= kThreshold) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << what << ": scaled residual " << r << " > " << kThreshold;
}

// ---------------------------------------------------------------------------------------------
// CBLAS / LAPACKE by type.

CBLAS_TRANSPOSE cblas_trans(Trans t) { return t == Trans::NoTrans ? CblasNoTrans : CblasTrans; }
CBLAS_UPLO cblas_uplo(Uplo u) { return u == Uplo::Lower ? CblasLower : CblasUpper; }

template <class T>
void ref_gemm(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b,
              int64_t ldb, T beta, T* c, int64_t ldc) {
    if constexpr (std::is_same_v<T, float>)
        cblas_sgemm(CblasColMajor, cblas_trans(ta), cblas_trans(tb), int(m), int(n), int(k), alpha, a, int(lda), b,
                    int(ldb), beta, c, int(ldc));
    else
        cblas_dgemm(CblasColMajor, cblas_trans(ta), cblas_trans(tb), int(m), int(n), int(k), alpha, a, int(lda), b,
                    int(ldb), beta, c, int(ldc));
}

template <class T>
void ref_syrk(Uplo uplo, Trans t, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, T beta, T* c,
              int64_t ldc) {
    if constexpr (std::is_same_v<T, float>)
        cblas_ssyrk(CblasColMajor, cblas_uplo(uplo), cblas_trans(t), int(n), int(k), alpha, a, int(lda), beta, c,
                    int(ldc));
    else
        cblas_dsyrk(CblasColMajor, cblas_uplo(uplo), cblas_trans(t), int(n), int(k), alpha, a, int(lda), beta, c,
                    int(ldc));
}

template <class T>
void ref_trsm(Side s, Uplo u, Trans t, Diag d, int64_t m, int64_t n, T alpha, const T* a, int64_t lda, T* b,
              int64_t ldb) {
    const auto side = s == Side::Left ? CblasLeft : CblasRight;
    const auto diag = d == Diag::Unit ? CblasUnit : CblasNonUnit;
    if constexpr (std::is_same_v<T, float>)
        cblas_strsm(CblasColMajor, side, cblas_uplo(u), cblas_trans(t), diag, int(m), int(n), alpha, a, int(lda), b,
                    int(ldb));
    else
        cblas_dtrsm(CblasColMajor, side, cblas_uplo(u), cblas_trans(t), diag, int(m), int(n), alpha, a, int(lda), b,
                    int(ldb));
}

template <class T>
int ref_potrf(Uplo u, int64_t n, T* a, int64_t lda) {
    // The _work variant: no NaN pre-check, so a NaN pivot is reported by xPOTRF itself.
    const char c = u == Uplo::Lower ? 'L' : 'U';
    if constexpr (std::is_same_v<T, float>)
        return LAPACKE_spotrf_work(LAPACK_COL_MAJOR, c, int(n), a, int(lda));
    else
        return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, c, int(n), a, int(lda));
}

// ---------------------------------------------------------------------------------------------

template <class T>
class OpenCLKernels : public ::testing::Test {
protected:
    static const ocl::DeviceKernels& dk() { return Env::get().kernels<T>(); }
    static cl_command_queue q() { return Env::get().queue(); }
    std::mt19937_64 rng{20240611};
};

using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(OpenCLKernels, Precisions);

// ---- gemm -----------------------------------------------------------------------------------

template <class T>
void run_gemm(const ocl::DeviceKernels& dk, cl_command_queue q, std::mt19937_64& rng, Trans ta, Trans tb, int64_t m,
              int64_t n, int64_t k, T alpha, T beta) {
    SCOPED_TRACE(::testing::Message() << "gemm " << char(ta) << char(tb) << " m=" << m << " n=" << n << " k=" << k
                                      << " alpha=" << alpha << " beta=" << beta);
    const bool nta = ta == Trans::NoTrans, ntb = tb == Trans::NoTrans;
    DevMat<T> A(nta ? m : k, nta ? k : m, 5), B(ntb ? k : n, ntb ? n : k, 7), C(m, n, 11);
    fill_random(A, rng);
    fill_random(B, rng);
    if (beta != T(0)) fill_random(C, rng);  // beta == 0: C stays NaN and must be overwritten
    A.upload();
    B.upload();
    C.upload();
    const std::vector<T> c0 = C.h;
    std::vector<T> ref = C.dense();
    const double c0norm = beta != T(0) ? norm1(m, n, ref.data(), m) : 0.0;
    if (beta == T(0)) std::fill(ref.begin(), ref.end(), T(0));

    ocl::gemm<T>(dk, q, ta, tb, m, n, k, alpha, A.mat(), B.mat(), beta, C.mat());
    C.download();

    const std::vector<T> ad = A.dense(), bd = B.dense();
    ref_gemm<T>(ta, tb, m, n, k, alpha, ad.data(), std::max<int64_t>(A.rows, 1), bd.data(),
                std::max<int64_t>(B.rows, 1), beta, ref.data(), std::max<int64_t>(m, 1));
    std::vector<T> diff = C.dense();
    for (size_t e = 0; e < diff.size(); ++e) diff[e] -= ref[e];
    const double num = norm1(m, n, diff.data(), m);
    const double den = (std::fabs(double(alpha)) * norm1(A.rows, A.cols, ad.data(), A.rows) *
                            norm1(B.rows, B.cols, bd.data(), B.rows) +
                        std::fabs(double(beta)) * c0norm) *
                       double(std::max<int64_t>(k, 1)) * eps<T>();
    EXPECT_TRUE(residual_ok(num, den, "gemm"));
    EXPECT_TRUE(untouched(C, c0, [](int64_t, int64_t) { return true; }));
}

TYPED_TEST(OpenCLKernels, Gemm) {
    using T = TypeParam;
    struct Size {
        int64_t m, n, k;
    };
    const Size sizes[] = {{1, 1, 1}, {37, 53, 29}, {64, 64, 64}, {130, 70, 3}, {17, 9, 0}, {65, 129, 67}};
    const Trans ops[] = {Trans::NoTrans, Trans::Trans};
    for (const Size& s : sizes)
        for (Trans ta : ops)
            for (Trans tb : ops) {
                run_gemm<T>(this->dk(), this->q(), this->rng, ta, tb, s.m, s.n, s.k, T(1.25), T(-0.75));
                if (s.k == 0 || s.m == 37)  // beta = 0 over a NaN C: C must be overwritten
                    run_gemm<T>(this->dk(), this->q(), this->rng, ta, tb, s.m, s.n, s.k, T(-0.5), T(0));
            }
    // ConjTrans is Trans for real types; alpha = 0 scales C only.
    run_gemm<T>(this->dk(), this->q(), this->rng, Trans::ConjTrans, Trans::ConjTrans, 33, 20, 40, T(0.5), T(2));
    run_gemm<T>(this->dk(), this->q(), this->rng, Trans::NoTrans, Trans::NoTrans, 33, 20, 40, T(0), T(2));
}

// ---- syrk -----------------------------------------------------------------------------------

TYPED_TEST(OpenCLKernels, Syrk) {
    using T = TypeParam;
    struct Size {
        int64_t n, k;
    };
    const Size sizes[] = {{1, 1}, {37, 29}, {64, 64}, {130, 3}, {20, 0}};
    for (const Size& s : sizes)
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
            for (Trans tr : {Trans::NoTrans, Trans::Trans}) {
                SCOPED_TRACE(::testing::Message() << "syrk " << char(uplo) << char(tr) << " n=" << s.n << " k=" << s.k);
                const bool nt = tr == Trans::NoTrans;
                const T alpha = T(0.75), beta = T(-1.5);
                DevMat<T> A(nt ? s.n : s.k, nt ? s.k : s.n, 3), C(s.n, s.n, 9);
                fill_random(A, this->rng);
                fill_random(C, this->rng);  // both triangles: the other one must stay as it is
                A.upload();
                C.upload();
                const std::vector<T> c0 = C.h;
                const std::vector<T> c0d = C.dense();

                ocl::syrk<T>(this->dk(), this->q(), uplo, tr, s.n, s.k, alpha, A.mat(), beta, C.mat());
                C.download();

                std::vector<T> ref = c0d;
                const std::vector<T> ad = A.dense();
                ref_syrk<T>(uplo, tr, s.n, s.k, alpha, ad.data(), std::max<int64_t>(A.rows, 1), beta, ref.data(), s.n);
                std::vector<T> diff = C.dense();
                for (int64_t j = 0; j < s.n; ++j)
                    for (int64_t i = 0; i < s.n; ++i) {
                        const bool in = uplo == Uplo::Lower ? i >= j : i <= j;
                        T& d = diff[size_t(i + j * s.n)];
                        d = in ? d - ref[size_t(i + j * s.n)] : T(0);
                    }
                const double na = norm1(A.rows, A.cols, ad.data(), A.rows);
                const double den = (std::fabs(double(alpha)) * na * na +
                                    std::fabs(double(beta)) * norm1(s.n, s.n, c0d.data(), s.n)) *
                                   double(std::max<int64_t>(s.k, 1)) * eps<T>();
                EXPECT_TRUE(residual_ok(norm1(s.n, s.n, diff.data(), s.n), den, "syrk"));
                EXPECT_TRUE(untouched(C, c0, [uplo](int64_t i, int64_t j) {
                    return uplo == Uplo::Lower ? i >= j : i <= j;
                }));
            }
}

// ---- trsm -----------------------------------------------------------------------------------

TYPED_TEST(OpenCLKernels, Trsm) {
    using T = TypeParam;
    struct Size {
        int64_t m, n;
    };
    // dim (m Left, n Right) against TESSERA_TRSM_BS = 64, the diagonal blocks the launcher inverts:
    // below it, exactly one block, several blocks with and without a partial last one (3 and 4
    // blocks: uneven recursive halves), and a single right-hand side (nvec = 1).
    const Size sizes[] = {{33, 17}, {64, 64}, {130, 70}, {1, 1}, {192, 65}, {200, 1}, {1, 200}};
    for (const Size& s : sizes)
        for (Side side : {Side::Left, Side::Right})
            for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
                for (Trans tr : {Trans::NoTrans, Trans::Trans})
                    for (Diag diag : {Diag::NonUnit, Diag::Unit}) {
                        SCOPED_TRACE(::testing::Message() << "trsm " << char(side) << char(uplo) << char(tr)
                                                          << char(diag) << " m=" << s.m << " n=" << s.n);
                        const int64_t na = side == Side::Left ? s.m : s.n;
                        const T alpha = T(-1.5);
                        // Referenced triangle: off-diagonal in [-1,1]/na, diagonal in [1,2] (NaN
                        // when Unit: it must not be read); the other triangle NaN.
                        DevMat<T> A(na, na, 4), B(s.m, s.n, 6);
                        std::vector<T> a_clean(size_t(na * na), T(0));  // op(A) operand for CBLAS
                        std::uniform_real_distribution<T> u(T(-1), T(1));
                        for (int64_t j = 0; j < na; ++j)
                            for (int64_t i = 0; i < na; ++i) {
                                const bool in = uplo == Uplo::Lower ? i > j : i < j;
                                if (i == j) {
                                    const T d = T(1.5) + T(0.5) * u(this->rng);
                                    A(i, j) = diag == Diag::Unit ? nan_value<T>() : d;
                                    a_clean[size_t(i + j * na)] = diag == Diag::Unit ? T(1) : d;
                                } else if (in) {
                                    A(i, j) = u(this->rng) / T(na);
                                    a_clean[size_t(i + j * na)] = A(i, j);
                                }
                            }
                        fill_random(B, this->rng);
                        A.upload();
                        B.upload();
                        const std::vector<T> a0 = A.h, b0 = B.h, b0d = B.dense();

                        ocl::trsm<T>(this->dk(), this->q(), side, uplo, tr, diag, s.m, s.n, alpha, A.mat(), B.mat());
                        B.download();
                        A.download();

                        const std::vector<T> x = B.dense();
                        // Residual alpha·B − op(A)·X (Left) or alpha·B − X·op(A) (Right).
                        std::vector<T> r = b0d;
                        if (side == Side::Left)
                            ref_gemm<T>(tr, Trans::NoTrans, s.m, s.n, s.m, T(-1), a_clean.data(), na, x.data(), s.m,
                                        alpha, r.data(), s.m);
                        else
                            ref_gemm<T>(Trans::NoTrans, tr, s.m, s.n, s.n, T(-1), x.data(), s.m, a_clean.data(), na,
                                        alpha, r.data(), s.m);
                        const double nA = norm1(na, na, a_clean.data(), na);
                        const double nX = norm1(s.m, s.n, x.data(), s.m);
                        const double nB = norm1(s.m, s.n, b0d.data(), s.m);
                        EXPECT_TRUE(residual_ok(norm1(s.m, s.n, r.data(), s.m),
                                                (nA * nX + std::fabs(double(alpha)) * nB) * double(na) * eps<T>(),
                                                "trsm residual"));
                        // Forward error against CBLAS (A is well conditioned by construction).
                        std::vector<T> xref = b0d;
                        ref_trsm<T>(side, uplo, tr, diag, s.m, s.n, alpha, a_clean.data(), na, xref.data(), s.m);
                        std::vector<T> dx = x;
                        for (size_t e = 0; e < dx.size(); ++e) dx[e] -= xref[e];
                        EXPECT_TRUE(residual_ok(norm1(s.m, s.n, dx.data(), s.m),
                                                norm1(s.m, s.n, xref.data(), s.m) * double(na) * eps<T>(),
                                                "trsm vs CBLAS"));
                        EXPECT_TRUE(untouched(B, b0, [](int64_t, int64_t) { return true; }));
                        EXPECT_TRUE(untouched(A, a0, [](int64_t, int64_t) { return false; }));
                    }
}

// ---- trmm, trtri ----------------------------------------------------------------------------

/// A triangular n×n A for trmm/trtri: referenced triangle off-diagonal in [-1,1]/n, diagonal in
/// [1,2] (NaN when Unit: it must not be read), the other triangle NaN. Returns the dense op-free
/// matrix a_clean that CBLAS reads (zeros outside the triangle, ones on a unit diagonal).
template <class T>
std::vector<T> fill_triangular(DevMat<T>& A, Uplo uplo, Diag diag, std::mt19937_64& rng) {
    const int64_t n = A.rows;
    std::vector<T> clean(size_t(n * n), T(0));
    std::uniform_real_distribution<T> u(T(-1), T(1));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) {
            if (i == j) {
                const T d = T(1.5) + T(0.5) * u(rng);
                A(i, j) = diag == Diag::Unit ? nan_value<T>() : d;
                clean[size_t(i + j * n)] = diag == Diag::Unit ? T(1) : d;
            } else if (uplo == Uplo::Lower ? i > j : i < j) {
                A(i, j) = u(rng) / T(n);
                clean[size_t(i + j * n)] = A(i, j);
            }
        }
    return clean;
}

TYPED_TEST(OpenCLKernels, Trmm) {
    using T = TypeParam;
    // 2050: a triangle of order >= 2048 is applied in two blocks (ocl::trmm skips its zero half).
    const std::pair<int64_t, int64_t> sizes[] = {{33, 17}, {1, 1}, {130, 70}, {1, 40}, {2050, 8}, {8, 2050}};
    for (auto [m, n] : sizes)
        for (Side side : {Side::Left, Side::Right})
            for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
                for (Trans tr : {Trans::NoTrans, Trans::Trans})
                    for (Diag diag : {Diag::NonUnit, Diag::Unit}) {
                        SCOPED_TRACE(::testing::Message() << "trmm " << char(side) << char(uplo) << char(tr)
                                                          << char(diag) << " m=" << m << " n=" << n);
                        const int64_t na = side == Side::Left ? m : n;
                        const T alpha = T(-1.5);
                        DevMat<T> A(na, na, 4), B(m, n, 6);
                        const std::vector<T> a_clean = fill_triangular(A, uplo, diag, this->rng);
                        fill_random(B, this->rng);
                        A.upload();
                        B.upload();
                        const std::vector<T> a0 = A.h, b0 = B.h, b0d = B.dense();
                        ocl::trmm<T>(this->dk(), this->q(), side, uplo, tr, diag, m, n, alpha, A.mat(), B.mat());
                        B.download();
                        A.download();
                        // Reference alpha·op(A)·B0 (Left) or alpha·B0·op(A) (Right) through GEMM on a_clean.
                        std::vector<T> ref(size_t(m * n), T(0)), diff = B.dense();
                        if (side == Side::Left)
                            ref_gemm<T>(tr, Trans::NoTrans, m, n, m, alpha, a_clean.data(), na, b0d.data(), m, T(0),
                                        ref.data(), m);
                        else
                            ref_gemm<T>(Trans::NoTrans, tr, m, n, n, alpha, b0d.data(), m, a_clean.data(), na, T(0),
                                        ref.data(), m);
                        for (size_t e = 0; e < diff.size(); ++e) diff[e] -= ref[e];
                        const double den = std::fabs(double(alpha)) * norm1(na, na, a_clean.data(), na) *
                                           norm1(m, n, b0d.data(), m) * double(na) * eps<T>();
                        EXPECT_TRUE(residual_ok(norm1(m, n, diff.data(), m), den, "trmm vs reference"));
                        EXPECT_TRUE(untouched(B, b0, [](int64_t, int64_t) { return true; }));
                        EXPECT_TRUE(untouched(A, a0, [](int64_t, int64_t) { return false; }));
                    }
}

TYPED_TEST(OpenCLKernels, Trtri) {
    using T = TypeParam;
    // n against TESSERA_TRSM_BS = 64 (the blocks trsm inverts): one partial block, one full block,
    // several with a partial last one.
    for (int64_t n : {1, 37, 64, 150, 300})
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
            for (Diag diag : {Diag::NonUnit, Diag::Unit}) {
                SCOPED_TRACE(::testing::Message() << "trtri " << char(uplo) << char(diag) << " n=" << n);
                DevMat<T> A(n, n, 4), W(n, n, 2);
                const std::vector<T> a_clean = fill_triangular(A, uplo, diag, this->rng);
                A.upload();
                W.upload();
                const std::vector<T> a0 = A.h, w0 = W.h;
                ocl::trtri<T>(this->dk(), this->q(), uplo, diag, n, A.mat(), W.mat());
                W.download();
                A.download();
                // ‖A·W − I‖ / (‖A‖·‖W‖·n·eps), and exact zeros in W's other triangle.
                const std::vector<T> w = W.dense();
                std::vector<T> r(size_t(n * n), T(0));
                for (int64_t i = 0; i < n; ++i) r[size_t(i + i * n)] = T(-1);
                ref_gemm<T>(Trans::NoTrans, Trans::NoTrans, n, n, n, T(1), a_clean.data(), n, w.data(), n, T(1),
                            r.data(), n);
                EXPECT_TRUE(residual_ok(norm1(n, n, r.data(), n),
                                        norm1(n, n, a_clean.data(), n) * norm1(n, n, w.data(), n) * double(n) * eps<T>(),
                                        "trtri residual"));
                bool zeros = true;
                for (int64_t j = 0; j < n; ++j)
                    for (int64_t i = 0; i < n; ++i)
                        if ((uplo == Uplo::Lower ? i < j : i > j) && w[size_t(i + j * n)] != T(0)) zeros = false;
                EXPECT_TRUE(zeros) << "W's other triangle is not zero";
                EXPECT_TRUE(untouched(W, w0, [](int64_t, int64_t) { return true; }));
                EXPECT_TRUE(untouched(A, a0, [](int64_t, int64_t) { return false; }));
            }
}

// ---- potrf ----------------------------------------------------------------------------------

/// Symmetric matrix in the uplo triangle of A (the other triangle NaN); returns the full dense
/// symmetric matrix. `shift` is added to the diagonal (n makes it SPD).
template <class T>
std::vector<T> fill_symmetric(DevMat<T>& A, Uplo uplo, std::mt19937_64& rng, T shift) {
    const int64_t n = A.rows;
    std::vector<T> full(size_t(n * n));
    std::uniform_real_distribution<T> u(T(-1), T(1));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = j; i < n; ++i) {
            const T v = u(rng) + (i == j ? shift : T(0));
            full[size_t(i + j * n)] = full[size_t(j + i * n)] = v;
            if (uplo == Uplo::Lower)
                A(i, j) = v;
            else
                A(j, i) = v;
        }
    return full;
}

template <class T>
int run_potrf(const ocl::DeviceKernels& dk, cl_command_queue q, Uplo uplo, DevMat<T>& A) {
    A.upload();
    int info = -12345;
    ocl::potrf<T>(dk, q, uplo, A.rows, A.mat(), &info);
    A.download();  // clFinish: the non-blocking read of info has completed
    return info;
}

/// LAPACK's info for the uplo triangle of the dense symmetric `full` (other triangle zeroed).
template <class T>
int lapack_info(std::vector<T> full, int64_t n, Uplo uplo) {
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i)
            if (uplo == Uplo::Lower ? i < j : i > j) full[size_t(i + j * n)] = T(0);
    return ref_potrf<T>(uplo, n, full.data(), n);
}

TYPED_TEST(OpenCLKernels, Potrf) {
    using T = TypeParam;
    for (int64_t n : {1, 45, 128, 300, 700})
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
            SCOPED_TRACE(::testing::Message() << "potrf " << char(uplo) << " n=" << n);
            DevMat<T> A(n, n, 13);
            const std::vector<T> full = fill_symmetric(A, uplo, this->rng, T(n));
            const std::vector<T> a0 = A.h;
            const int info = run_potrf(this->dk(), this->q(), uplo, A);
            EXPECT_EQ(info, 0);
            // ‖A − L·Lᵀ‖ / (n‖A‖eps), L = the factor's triangle (Upper: L = Uᵀ).
            std::vector<T> L(size_t(n * n), T(0));
            for (int64_t j = 0; j < n; ++j)
                for (int64_t i = j; i < n; ++i) L[size_t(i + j * n)] = uplo == Uplo::Lower ? A(i, j) : A(j, i);
            std::vector<T> r = full;
            ref_gemm<T>(Trans::NoTrans, Trans::Trans, n, n, n, T(-1), L.data(), n, L.data(), n, T(1), r.data(), n);
            EXPECT_TRUE(residual_ok(norm1(n, n, r.data(), n), double(n) * norm1(n, n, full.data(), n) * eps<T>(),
                                    "potrf"));
            EXPECT_TRUE(untouched(A, a0, [uplo](int64_t i, int64_t j) { return uplo == Uplo::Lower ? i >= j : i <= j; }));
        }
}

TYPED_TEST(OpenCLKernels, PotrfLarge) {
    using T = TypeParam;
    const int64_t n = 1024;
    DevMat<T> A(n, n, 1);
    const std::vector<T> full = fill_symmetric(A, Uplo::Lower, this->rng, T(n));
    EXPECT_EQ(run_potrf(this->dk(), this->q(), Uplo::Lower, A), 0);
    // Spot check: row 1000 of L·Lᵀ against A over the first 1001 columns.
    double err = 0, ref = 0;
    for (int64_t j = 0; j <= 1000; ++j) {
        double s = 0;
        for (int64_t p = 0; p <= j; ++p) s += double(A(1000, p)) * double(A(j, p));
        err = std::max(err, std::fabs(s - double(full[size_t(1000 + j * n)])));
        ref = std::max(ref, std::fabs(double(full[size_t(1000 + j * n)])));
    }
    EXPECT_TRUE(residual_ok(err, double(n) * ref * eps<T>(), "potrf n=1024"));
}

/// After a failure at 1-based column info, LAPACK leaves the leading (info−1)×(info−1) factor
/// valid and the rest unspecified: check the former, and that the other triangle is untouched.
template <class T>
void check_partial_factor(const DevMat<T>& A, const std::vector<T>& a0, const std::vector<T>& full, Uplo uplo,
                          int info) {
    const int64_t n = A.rows, f = info - 1, lda = A.ld;
    std::vector<T> L(size_t(f * f), T(0)), r(size_t(f * f));
    for (int64_t j = 0; j < f; ++j)
        for (int64_t i = 0; i < f; ++i) {
            if (i >= j) L[size_t(i + j * f)] = uplo == Uplo::Lower ? A(i, j) : A(j, i);
            r[size_t(i + j * f)] = full[size_t(i + j * n)];
        }
    if (f > 0) {
        ref_gemm<T>(Trans::NoTrans, Trans::Trans, f, f, f, T(-1), L.data(), f, L.data(), f, T(1), r.data(), f);
        EXPECT_TRUE(residual_ok(norm1(f, f, r.data(), f), double(f) * norm1(n, n, full.data(), n) * eps<T>(),
                                "potrf leading factor"));
    }
    (void)lda;
    EXPECT_TRUE(untouched(A, a0, [uplo](int64_t i, int64_t j) { return uplo == Uplo::Lower ? i >= j : i <= j; }));
}

TYPED_TEST(OpenCLKernels, PotrfNotPositiveDefinite) {
    using T = TypeParam;
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
        // SPD except one negative diagonal entry: in the only block (n = 45), in the first,
        // at the start of the second and in the last block of a blocked factorization.
        const std::pair<int64_t, int64_t> cases[] = {{45, 20}, {200, 10}, {200, 64}, {200, 150}};
        for (auto [n, col] : cases) {
            SCOPED_TRACE(::testing::Message() << "potrf " << char(uplo) << " n=" << n << " negative pivot at " << col);
            DevMat<T> A(n, n, 2);
            std::vector<T> full = fill_symmetric(A, uplo, this->rng, T(n));
            A(col, col) = full[size_t(col + col * n)] = T(-1);
            const std::vector<T> a0 = A.h;
            const int info = run_potrf(this->dk(), this->q(), uplo, A);
            EXPECT_EQ(info, col + 1);
            EXPECT_EQ(info, lapack_info(full, n, uplo));
            check_partial_factor(A, a0, full, uplo, info);
        }
        for (int64_t n : {45, 200}) {  // indefinite random symmetric
            SCOPED_TRACE(::testing::Message() << "potrf " << char(uplo) << " n=" << n << " indefinite");
            DevMat<T> A(n, n, 2);
            const std::vector<T> full = fill_symmetric(A, uplo, this->rng, T(0.2));
            const std::vector<T> a0 = A.h;
            const int info = run_potrf(this->dk(), this->q(), uplo, A);
            EXPECT_GT(info, 0);
            EXPECT_EQ(info, lapack_info(full, n, uplo));
            check_partial_factor(A, a0, full, uplo, info);
        }
        for (auto [n, col] : {std::pair<int64_t, int64_t>{45, 30}, {200, 100}}) {  // NaN on the diagonal
            SCOPED_TRACE(::testing::Message() << "potrf " << char(uplo) << " n=" << n << " NaN pivot at " << col);
            DevMat<T> A(n, n, 2);
            std::vector<T> full = fill_symmetric(A, uplo, this->rng, T(n));
            A(col, col) = nan_value<T>();
            const std::vector<T> a0 = A.h;
            const int info = run_potrf(this->dk(), this->q(), uplo, A);
            // LAPACK's xPOTRF2 reports it (DISNAN); OpenBLAS's own potrf tests ajj <= 0 and
            // misses it, so the expectation is LAPACK's documented one, not the library's.
            EXPECT_EQ(info, col + 1);
            check_partial_factor(A, a0, full, uplo, info);
        }
    }
}

// ---- lacpy ----------------------------------------------------------------------------------

TYPED_TEST(OpenCLKernels, Lacpy) {
    using T = TypeParam;
    struct Size {
        int64_t m, n;
    };
    for (const Size s : {Size{37, 53}, Size{53, 37}, Size{1, 1}, Size{70, 70}})
        for (Uplo uplo : {Uplo::General, Uplo::Lower, Uplo::Upper}) {
            SCOPED_TRACE(::testing::Message() << "lacpy " << char(uplo) << " m=" << s.m << " n=" << s.n);
            DevMat<T> A(s.m, s.n, 3), B(s.m, s.n, 8);
            fill_random(A, this->rng);
            fill_random(B, this->rng);
            A.upload();
            B.upload();
            const std::vector<T> a0 = A.h, b0 = B.h;
            ocl::lacpy<T>(this->dk(), this->q(), uplo, s.m, s.n, A.mat(), B.mat());
            B.download();
            A.download();
            auto in = [uplo](int64_t i, int64_t j) {
                return uplo == Uplo::General || (uplo == Uplo::Lower ? i >= j : i <= j);
            };
            for (int64_t j = 0; j < s.n; ++j)
                for (int64_t i = 0; i < s.m; ++i)
                    if (in(i, j)) {
                        ASSERT_EQ(std::memcmp(&B(i, j), &A(i, j), sizeof(T)), 0) << i << "," << j;
                    }
            EXPECT_TRUE(untouched(B, b0, in));
            EXPECT_TRUE(untouched(A, a0, [](int64_t, int64_t) { return false; }));
        }
}

// ---- alpha = 0: A (and B for trsm) are not read, as in BLAS --------------------------------

TYPED_TEST(OpenCLKernels, ZeroAlphaReadsNoOperand) {
    using T = TypeParam;
    {
        DevMat<T> A(20, 30, 1), B(30, 10, 2), C(20, 10, 3);  // A and B all NaN
        fill_random(C, this->rng);
        A.upload();
        B.upload();
        C.upload();
        const std::vector<T> c0 = C.dense();
        ocl::gemm<T>(this->dk(), this->q(), Trans::NoTrans, Trans::NoTrans, 20, 10, 30, T(0), A.mat(), B.mat(), T(2),
                     C.mat());
        C.download();
        const std::vector<T> c = C.dense();
        for (size_t e = 0; e < c.size(); ++e) ASSERT_EQ(c[e], T(2) * c0[e]) << e;
    }
    {
        DevMat<T> A(33, 33, 1), B(33, 17, 2);  // B all NaN
        for (int64_t j = 0; j < 33; ++j)
            for (int64_t i = j; i < 33; ++i) A(i, j) = i == j ? T(2) : T(0.01);
        A.upload();
        B.upload();
        ocl::trsm<T>(this->dk(), this->q(), Side::Left, Uplo::Lower, Trans::NoTrans, Diag::NonUnit, 33, 17, T(0),
                     A.mat(), B.mat());
        B.download();
        for (T x : B.dense()) ASSERT_EQ(x, T(0));
    }
}

// ---- empty sizes: nothing is enqueued (a null queue and null buffers would make any call fail) --

TYPED_TEST(OpenCLKernels, EmptySizesEnqueueNothing) {
    using T = TypeParam;
    const ocl::DeviceKernels& dk = this->dk();
    const ocl::Mat z{nullptr, 0, 1};
    EXPECT_NO_THROW(ocl::gemm<T>(dk, nullptr, Trans::NoTrans, Trans::NoTrans, 0, 5, 5, T(1), z, z, T(0), z));
    EXPECT_NO_THROW(ocl::gemm<T>(dk, nullptr, Trans::NoTrans, Trans::Trans, 5, 0, 5, T(1), z, z, T(0), z));
    EXPECT_NO_THROW(ocl::syrk<T>(dk, nullptr, Uplo::Lower, Trans::NoTrans, 0, 5, T(1), z, T(0), z));
    EXPECT_NO_THROW(ocl::trsm<T>(dk, nullptr, Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, 0, 5, T(1), z, z));
    EXPECT_NO_THROW(ocl::trsm<T>(dk, nullptr, Side::Right, Uplo::Upper, Trans::Trans, Diag::NonUnit, 5, 0, T(1), z, z));
    EXPECT_NO_THROW(ocl::lacpy<T>(dk, nullptr, Uplo::General, 0, 0, z, z));
    int info = -1;
    EXPECT_NO_THROW(ocl::potrf<T>(dk, nullptr, Uplo::Lower, 0, z, &info));
    EXPECT_EQ(info, 0);
}

}  // namespace
