// The OpenCL triangular tile kernels and their launchers (kernels/opencl/launch.hpp: trsm, trmm,
// trtri, potrf), run directly on the first OpenCL CPU device (PoCL) without StarPU and checked
// against CBLAS/LAPACKE with the scaled residuals of docs/architecture.md#numerical-checks (threshold
// 60); the triangles a kernel must not read are NaN, and what it must not write is compared bit for
// bit afterwards.
// Typed over s, d, c, z: ConjTrans for complex, Hermitian matrices for potrf (whose diagonal's
// imaginary parts are not read), LAPACK's info for matrices that are not positive definite.
#include "tests/opencl_checks.hpp"

#include <gtest/gtest.h>

namespace {

using namespace tessera;
using namespace tessera::ocltest;

TYPED_TEST_SUITE(OpenCLKernels, Precisions);

// ---- trsm -----------------------------------------------------------------------------------

/// A triangular n×n A for trsm/trmm/trtri: referenced triangle off-diagonal in [-1,1]/n, diagonal
/// in [1,2] (NaN when Unit: it must not be read), the other triangle NaN; complex: both parts of
/// the off-diagonal in [-1,1]/n, the diagonal's imaginary part in [-0.5,0.5] (a missing conjugate
/// of the diagonal shows). Returns the dense op-free matrix a_clean that CBLAS reads (zeros
/// outside the triangle, ones on a unit diagonal).
template <class T>
std::vector<T> fill_triangular(DevMat<T>& A, Uplo uplo, Diag diag, std::mt19937_64& rng) {
    const int64_t n = A.rows;
    std::vector<T> clean(size_t(n * n), T(0));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) {
            if (i == j) {
                const T d = T(1.5) + T(0.5) * testutil::uniform_scalar<T>(rng);
                A(i, j) = diag == Diag::Unit ? nan_value<T>() : d;
                clean[size_t(i + j * n)] = diag == Diag::Unit ? T(1) : d;
            } else if (uplo == Uplo::Lower ? i > j : i < j) {
                A(i, j) = testutil::uniform_scalar<T>(rng) / real_t<T>(n);
                clean[size_t(i + j * n)] = A(i, j);
            }
        }
    return clean;
}

/// The operands of one trsm or trmm case: the triangular A (na×na, na = m Left, n Right; filled by
/// fill_triangular, a_clean its dense form for the reference) and a random B (m×n), uploaded;
/// a0, b0 and b0d keep them as they were. finish() downloads both and checks that nothing of A
/// was written and nothing outside B.
template <class T>
struct TriangularCase {
    TriangularCase(std::mt19937_64& rng, Side side, Uplo uplo, Diag diag, int64_t m, int64_t n)
        : na(side == Side::Left ? m : n), A(na, na, 4), B(m, n, 6), a_clean(fill_triangular(A, uplo, diag, rng)) {
        fill_random(B, rng);
        A.upload();
        B.upload();
        a0 = A.h, b0 = B.h, b0d = B.dense();
    }
    void finish() {
        B.download();
        A.download();
        EXPECT_TRUE(untouched(B, b0, [](int64_t, int64_t) { return true; }));
        EXPECT_TRUE(untouched(A, a0, [](int64_t, int64_t) { return false; }));
    }
    const T alpha = scalar<T>(-1.5, 0.5);
    int64_t na;
    DevMat<T> A, B;
    std::vector<T> a_clean, a0, b0, b0d;
};

/// One trsm of B (m×n) against CBLAS: scaled residual, forward error, and neither the triangle
/// A must not read nor anything of A written.
template <class T>
void run_trsm(const ocl::DeviceKernels& dk, cl_command_queue q, std::mt19937_64& rng, Side side, Uplo uplo, Trans tr,
              Diag diag, int64_t m, int64_t n) {
    SCOPED_TRACE(::testing::Message() << "trsm " << char(side) << char(uplo) << char(tr) << char(diag) << " m=" << m
                                      << " n=" << n);
    TriangularCase<T> c(rng, side, uplo, diag, m, n);
    ocl::trsm<T>(dk, q, side, uplo, tr, diag, m, n, c.alpha, c.A.mat(), c.B.mat());
    c.finish();

    const std::vector<T> x = c.B.dense();
    // Residual alpha·B − op(A)·X (Left) or alpha·B − X·op(A) (Right).
    std::vector<T> r = c.b0d;
    if (side == Side::Left)
        ref_gemm<T>(tr, Trans::NoTrans, m, n, m, T(-1), c.a_clean.data(), c.na, x.data(), m, c.alpha, r.data(), m);
    else
        ref_gemm<T>(Trans::NoTrans, tr, m, n, n, T(-1), x.data(), m, c.a_clean.data(), c.na, c.alpha, r.data(), m);
    const double nA = norm1(c.na, c.na, c.a_clean.data(), c.na);
    const double nX = norm1(m, n, x.data(), m);
    const double nB = norm1(m, n, c.b0d.data(), m);
    EXPECT_TRUE(residual_ok(norm1(m, n, r.data(), m), (nA * nX + absd(c.alpha) * nB) * double(c.na) * eps<T>(),
                            "trsm residual"));
    // Forward error against CBLAS (A is well conditioned by construction).
    std::vector<T> xref = c.b0d;
    ref_trsm<T>(side, uplo, tr, diag, m, n, c.alpha, c.a_clean.data(), c.na, xref.data(), m);
    std::vector<T> dx = x;
    for (size_t e = 0; e < dx.size(); ++e) dx[e] -= xref[e];
    EXPECT_TRUE(residual_ok(norm1(m, n, dx.data(), m), norm1(m, n, xref.data(), m) * double(c.na) * eps<T>(),
                            "trsm vs CBLAS"));
}

TYPED_TEST(OpenCLKernels, Trsm) {
    using T = TypeParam;
    struct Size {
        int64_t m, n;
    };
    // dim (m Left, n Right) against TESSERA_TRSM_BS = 64, the diagonal blocks the launcher inverts,
    // and TESSERA_TRSM_LEAF = 256, the rows one launch solves: below a block, exactly one block,
    // one leaf of 3 and 4 blocks with and without a partial last one, two leaves (300) and three
    // (600: uneven recursive halves, two deep), and a single right-hand side (nvec = 1); nvec
    // against the 8 columns per work-group (TESSERA_TRSM_NV·TRSM_NG = 2·4): 17, 65 and 70 leave
    // partial groups.
    const Size sizes[] = {{33, 17}, {64, 64}, {130, 70}, {1, 1}, {192, 65}, {200, 1}, {1, 200}, {300, 40}, {20, 600}};
    for (const Size& s : sizes)
        for (Side side : {Side::Left, Side::Right})
            for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
                for (Trans tr : ops<T>())
                    for (Diag diag : {Diag::NonUnit, Diag::Unit})
                        run_trsm<T>(this->dk(), this->q(), this->rng, side, uplo, tr, diag, s.m, s.n);
}

// The leaf kernel at other sizes than the defaults (a tuned table's): blocks of 32, leaves of
// 100 rows (rounded down to 96: three blocks), 2 columns per work-item and 2 groups of them per
// work-group; real and complex.
TEST(OpenCLTrsm, OtherLeafShapes) {
    const std::string opts = "-DTESSERA_TRSM_BS=32 -DTESSERA_TRSM_LEAF=100 -DTESSERA_TRSM_NV=2 -DTESSERA_TRSM_NG=2";
    std::mt19937_64 rng(7);
    const auto dkd = Env::get().build_variant('d', opts);
    const auto dkc = Env::get().build_variant('c', opts);
    for (Side side : {Side::Left, Side::Right})
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
            run_trsm<double>(*dkd, Env::get().queue(), rng, side, uplo, Trans::Trans, Diag::NonUnit, 250, 23);
            run_trsm<std::complex<float>>(*dkc, Env::get().queue(), rng, side, uplo, Trans::ConjTrans, Diag::Unit, 23,
                                          250);
        }
}

// The one-launch solve of few columns (tessera_trsm_chain, on NVIDIA GPUs by default;
// TESSERA_TRSM_CHAIN=2 takes it on PoCL too): more than one leaf of 256 rows and at most 8 columns,
// in every side, uplo, op and diag, real and complex, dim 300 (a partial last block) and 641 (ten
// blocks and one row), 1, 3 and 8 columns. After the last solve the launch's ticket counter, past
// W's blocks in the workspace, counts one work-group per block of 64: the chain ran.
TEST(OpenCLTrsm, ChainOfFewColumns) {
    const std::string opts = "-DTESSERA_TRSM_CHAIN=2";
    std::mt19937_64 rng(11);
    const auto dkd = Env::get().build_variant('d', opts);
    const auto dkc = Env::get().build_variant('c', opts);
    cl_command_queue q = Env::get().queue();
    const struct {
        int64_t m, n;
    } sizes[] = {{300, 1}, {641, 8}, {3, 300}, {5, 641}};
    for (const auto& s : sizes)
        for (Side side : {Side::Left, Side::Right})
            for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
                for (Diag diag : {Diag::NonUnit, Diag::Unit}) {
                    for (Trans tr : {Trans::NoTrans, Trans::Trans})
                        run_trsm<double>(*dkd, q, rng, side, uplo, tr, diag, s.m, s.n);
                    for (Trans tr : {Trans::NoTrans, Trans::ConjTrans})
                        run_trsm<std::complex<float>>(*dkc, q, rng, side, uplo, tr, diag, s.m, s.n);
                }
    // The last solve: Right, dim 641 (11 blocks), with the complex program.
    cl_int sync[12] = {};
    const size_t wbytes = size_t(11) * 64 * 64 * sizeof(std::complex<float>);
    ASSERT_EQ(clEnqueueReadBuffer(q, dkc->scratch(wbytes + sizeof sync), CL_TRUE, wbytes, sizeof sync, sync, 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(sync[0], 11);
    for (int k = 1; k < 12; ++k) EXPECT_EQ(sync[k], 1) << "block " << k - 1;
}

// ---- trmm, trtri ----------------------------------------------------------------------------

/// `zeroed`: A's other triangle holds zeros instead of NaN, and ocl::trmm is told so (it then reads A
/// as stored where diag is NonUnit).
template <class T>
void run_trmm(const ocl::DeviceKernels& dk, cl_command_queue q, std::mt19937_64& rng, Side side, Uplo uplo, Trans tr,
              Diag diag, int64_t m, int64_t n, bool zeroed = false) {
    SCOPED_TRACE(::testing::Message() << "trmm " << char(side) << char(uplo) << char(tr) << char(diag) << " m=" << m
                                      << " n=" << n << (zeroed ? " zeroed" : ""));
    TriangularCase<T> c(rng, side, uplo, diag, m, n);
    if (zeroed) {
        for (int64_t j = 0; j < c.na; ++j)
            for (int64_t i = 0; i < c.na; ++i)
                if (uplo == Uplo::Lower ? i < j : i > j) c.A(i, j) = T(0);
        c.A.upload();
        c.a0 = c.A.h;
    }
    ocl::trmm<T>(dk, q, side, uplo, tr, diag, m, n, c.alpha, c.A.mat(), c.B.mat(), zeroed);
    c.finish();
    // Reference alpha·op(A)·B0 (Left) or alpha·B0·op(A) (Right) through GEMM on a_clean.
    std::vector<T> ref(size_t(m * n), T(0)), diff = c.B.dense();
    if (side == Side::Left)
        ref_gemm<T>(tr, Trans::NoTrans, m, n, m, c.alpha, c.a_clean.data(), c.na, c.b0d.data(), m, T(0), ref.data(), m);
    else
        ref_gemm<T>(Trans::NoTrans, tr, m, n, n, c.alpha, c.b0d.data(), m, c.a_clean.data(), c.na, T(0), ref.data(), m);
    for (size_t e = 0; e < diff.size(); ++e) diff[e] -= ref[e];
    const double den =
        absd(c.alpha) * norm1(c.na, c.na, c.a_clean.data(), c.na) * norm1(m, n, c.b0d.data(), m) * double(c.na) *
        eps<T>();
    EXPECT_TRUE(residual_ok(norm1(m, n, diff.data(), m), den, "trmm vs reference"));
}

TYPED_TEST(OpenCLKernels, Trmm) {
    using T = TypeParam;
    // 2050: a triangle of order >= 2048 is applied in two blocks (ocl::trmm skips its zero half);
    // every combination in s and d, a few in c and z (4× the flops; the split is precision-free).
    std::vector<std::pair<int64_t, int64_t>> sizes = {{33, 17}, {1, 1}, {130, 70}, {1, 40}};
    if constexpr (!is_complex_v<T>) sizes.insert(sizes.end(), {{2050, 8}, {8, 2050}});
    for (auto [m, n] : sizes)
        for (Side side : {Side::Left, Side::Right})
            for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
                for (Trans tr : ops<T>())
                    for (Diag diag : {Diag::NonUnit, Diag::Unit}) {
                        run_trmm<T>(this->dk(), this->q(), this->rng, side, uplo, tr, diag, m, n);
                        run_trmm<T>(this->dk(), this->q(), this->rng, side, uplo, tr, diag, m, n, true);
                    }
    if constexpr (is_complex_v<T>) {
        const ocl::DeviceKernels& dk = this->dk();
        cl_command_queue q = this->q();
        run_trmm<T>(dk, q, this->rng, Side::Left, Uplo::Lower, Trans::ConjTrans, Diag::NonUnit, 2050, 8);
        run_trmm<T>(dk, q, this->rng, Side::Left, Uplo::Upper, Trans::NoTrans, Diag::Unit, 2050, 8);
        run_trmm<T>(dk, q, this->rng, Side::Right, Uplo::Upper, Trans::ConjTrans, Diag::Unit, 8, 2050);
        run_trmm<T>(dk, q, this->rng, Side::Right, Uplo::Lower, Trans::Trans, Diag::NonUnit, 8, 2050);
    }
}

/// W = A⁻¹ for the n×n triangular A (uplo; dense, ld n, zeros in its other triangle):
/// ‖A·W − I‖ / (‖A‖·‖W‖·n·eps) within the threshold, and exact zeros in W's other triangle.
template <class T>
::testing::AssertionResult inverse_ok(const std::vector<T>& a, const std::vector<T>& w, int64_t n, Uplo uplo,
                                      const std::string& what) {
    std::vector<T> r(size_t(n * n), T(0));
    for (int64_t i = 0; i < n; ++i) r[size_t(i + i * n)] = T(-1);
    ref_gemm<T>(Trans::NoTrans, Trans::NoTrans, n, n, n, T(1), a.data(), n, w.data(), n, T(1), r.data(), n);
    ::testing::AssertionResult res = residual_ok(
        norm1(n, n, r.data(), n), norm1(n, n, a.data(), n) * norm1(n, n, w.data(), n) * double(n) * eps<T>(), what);
    if (!res) return res;
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i)
            if ((uplo == Uplo::Lower ? i < j : i > j) && w[size_t(i + j * n)] != T(0))
                return ::testing::AssertionFailure() << what << ": W's other triangle is not zero at (" << i << ", " << j
                                                     << ")";
    return ::testing::AssertionSuccess();
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
                EXPECT_TRUE(inverse_ok(a_clean, W.dense(), n, uplo, "trtri"));
                EXPECT_TRUE(untouched(W, w0, [](int64_t, int64_t) { return true; }));
                EXPECT_TRUE(untouched(A, a0, [](int64_t, int64_t) { return false; }));
            }
}

// ---- potrf ----------------------------------------------------------------------------------

/// Symmetric matrix (Hermitian for complex T: full(j,i) = conj(full(i,j)), a real diagonal) in the
/// uplo triangle of A (the other triangle NaN); returns the full dense matrix. `shift` is added
/// to the diagonal (n makes it positive definite).
template <class T>
std::vector<T> fill_symmetric(DevMat<T>& A, Uplo uplo, std::mt19937_64& rng, real_t<T> shift) {
    const int64_t n = A.rows;
    std::vector<T> full(size_t(n * n));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = j; i < n; ++i) {
            T v = testutil::uniform_scalar<T>(rng);
            if (i == j) v = T(std::real(v) + shift);
            full[size_t(i + j * n)] = v;
            full[size_t(j + i * n)] = conjugate(v);
            if (uplo == Uplo::Lower)
                A(i, j) = v;
            else
                A(j, i) = conjugate(v);
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

/// ‖A₁₁ − L·Lᴴ‖ / (f·‖A‖·eps) over the leading f×f block, L = the factor's triangle in A (Upper:
/// L = Uᴴ, L(i,j) = conj(A(j,i))), `full` the n×n Hermitian (symmetric) matrix factored.
template <class T>
::testing::AssertionResult factor_ok(const DevMat<T>& A, const std::vector<T>& full, Uplo uplo, int64_t f,
                                     const std::string& what) {
    const int64_t n = A.rows;
    std::vector<T> L(size_t(f * f), T(0)), r(size_t(f * f));
    for (int64_t j = 0; j < f; ++j)
        for (int64_t i = 0; i < f; ++i) {
            if (i >= j) L[size_t(i + j * f)] = uplo == Uplo::Lower ? A(i, j) : conjugate(A(j, i));
            r[size_t(i + j * f)] = full[size_t(i + j * n)];
        }
    if (f == 0) return ::testing::AssertionSuccess();
    ref_gemm<T>(Trans::NoTrans, Trans::ConjTrans, f, f, f, T(-1), L.data(), f, L.data(), f, T(1), r.data(), f);
    return residual_ok(norm1(f, f, r.data(), f), double(f) * norm1(n, n, full.data(), n) * eps<T>(), what);
}

/// Complex T: potrf of A whose diagonal has imaginary parts (random ones up to n; NaN at n/2 if
/// with_nan), which potrf does not read: the factor is, bit for bit, the one of the same matrix
/// with a real diagonal, and it factors the Hermitian `full`.
template <class T>
void run_potrf_complex_diagonal(const ocl::DeviceKernels& dk, cl_command_queue q, std::mt19937_64& rng, Uplo uplo,
                                int64_t n, bool with_nan) {
    using R = real_t<T>;
    SCOPED_TRACE(::testing::Message() << "potrf " << char(uplo) << " n=" << n << " complex diagonal"
                                      << (with_nan ? ", NaN imaginary part at n/2" : ""));
    DevMat<T> A(n, n, 13), Areal(n, n, 13);
    const std::vector<T> full = fill_symmetric(A, uplo, rng, R(n));
    Areal.h = A.h;
    for (int64_t i = 0; i < n; ++i)
        A(i, i) = T(std::real(A(i, i)), with_nan && i == n / 2 ? nan_value<R>() : R(n) * testutil::uniform_scalar<R>(rng));
    const std::vector<T> a0 = A.h;
    EXPECT_EQ(run_potrf(dk, q, uplo, A), 0);
    EXPECT_EQ(run_potrf(dk, q, uplo, Areal), 0);
    EXPECT_TRUE(factor_ok(A, full, uplo, n, "potrf with a complex diagonal"));
    EXPECT_EQ(std::memcmp(A.h.data(), Areal.h.data(), A.h.size() * sizeof(T)), 0)
        << "the factor depends on the imaginary parts of the diagonal";
    EXPECT_TRUE(untouched(A, a0, [uplo](int64_t i, int64_t j) { return uplo == Uplo::Lower ? i >= j : i <= j; }));
}

TYPED_TEST(OpenCLKernels, Potrf) {
    using T = TypeParam;
    using R = real_t<T>;
    for (int64_t n : {1, 45, 128, 300, 700})
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
            SCOPED_TRACE(::testing::Message() << "potrf " << char(uplo) << " n=" << n);
            DevMat<T> A(n, n, 13);
            const std::vector<T> full = fill_symmetric(A, uplo, this->rng, R(n));
            const std::vector<T> a0 = A.h;
            const int info = run_potrf(this->dk(), this->q(), uplo, A);
            EXPECT_EQ(info, 0);
            EXPECT_TRUE(factor_ok(A, full, uplo, n, "potrf"));
            EXPECT_TRUE(untouched(A, a0, [uplo](int64_t i, int64_t j) { return uplo == Uplo::Lower ? i >= j : i <= j; }));
        }
    if constexpr (is_complex_v<T>)  // nonzero imaginary parts on A's diagonal are ignored
        for (int64_t n : {45, 300})
            for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
                run_potrf_complex_diagonal<T>(this->dk(), this->q(), this->rng, uplo, n, false);
}

// potrf with its inverse (what the tile Cholesky's panel solves by on a device): the same factor
// as potrf alone, bit for bit, and W = its inverse as trtri would write it; W's padding untouched.
TYPED_TEST(OpenCLKernels, PotrfWithInverse) {
    using T = TypeParam;
    using R = real_t<T>;
    for (int64_t n : {1, 45, 128, 300})
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
            SCOPED_TRACE(::testing::Message() << "potrf with inverse " << char(uplo) << " n=" << n);
            DevMat<T> A(n, n, 13), alone(n, n, 13), W(n, n, 3);
            fill_symmetric(A, uplo, this->rng, R(n));
            alone.h = A.h;
            A.upload();
            W.upload();
            const std::vector<T> w0 = W.h;
            int info = -12345;
            const ocl::Mat w = W.mat();
            ocl::potrf<T>(this->dk(), this->q(), uplo, n, A.mat(), &info, &w);
            A.download();
            W.download();
            EXPECT_EQ(info, 0);
            EXPECT_EQ(run_potrf(this->dk(), this->q(), uplo, alone), 0);
            EXPECT_EQ(std::memcmp(A.h.data(), alone.h.data(), A.h.size() * sizeof(T)), 0) << "another factor";
            std::vector<T> tri(size_t(n * n), T(0));  // the factor's triangle, zeros elsewhere
            for (int64_t j = 0; j < n; ++j)
                for (int64_t i = 0; i < n; ++i)
                    if (uplo == Uplo::Lower ? i >= j : i <= j) tri[size_t(i + j * n)] = A(i, j);
            EXPECT_TRUE(inverse_ok(tri, W.dense(), n, uplo, "potrf's inverse"));
            EXPECT_TRUE(untouched(W, w0, [](int64_t, int64_t) { return true; }));
        }
}

TYPED_TEST(OpenCLKernels, PotrfLarge) {
    using T = TypeParam;
    using W = std::conditional_t<is_complex_v<T>, std::complex<double>, double>;  // accumulation type
    const int64_t n = 1024;
    DevMat<T> A(n, n, 1);
    const std::vector<T> full = fill_symmetric(A, Uplo::Lower, this->rng, real_t<T>(n));
    EXPECT_EQ(run_potrf(this->dk(), this->q(), Uplo::Lower, A), 0);
    // Spot check: row 1000 of L·Lᴴ against A over the first 1001 columns.
    double err = 0, ref = 0;
    for (int64_t j = 0; j <= 1000; ++j) {
        W s = 0;
        for (int64_t p = 0; p <= j; ++p) s += W(A(1000, p)) * conjugate(W(A(j, p)));
        err = std::max(err, std::abs(s - W(full[size_t(1000 + j * n)])));
        ref = std::max(ref, absd(full[size_t(1000 + j * n)]));
    }
    EXPECT_TRUE(residual_ok(err, double(n) * ref * eps<T>(), "potrf n=1024"));
}

/// After a failure at 1-based column info, LAPACK leaves the leading (info−1)×(info−1) factor
/// valid and the rest unspecified: check the former, and that the other triangle is untouched.
template <class T>
void check_partial_factor(const DevMat<T>& A, const std::vector<T>& a0, const std::vector<T>& full, Uplo uplo,
                          int info) {
    EXPECT_TRUE(factor_ok(A, full, uplo, info - 1, "potrf leading factor"));
    EXPECT_TRUE(untouched(A, a0, [uplo](int64_t i, int64_t j) { return uplo == Uplo::Lower ? i >= j : i <= j; }));
}

TYPED_TEST(OpenCLKernels, PotrfNotPositiveDefinite) {
    using T = TypeParam;
    using R = real_t<T>;
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
        // SPD except one negative diagonal entry: in the only block (n = 45), in the first,
        // at the start of the second and in the last block of a blocked factorization.
        const std::pair<int64_t, int64_t> cases[] = {{45, 20}, {200, 10}, {200, 64}, {200, 150}};
        for (auto [n, col] : cases) {
            SCOPED_TRACE(::testing::Message() << "potrf " << char(uplo) << " n=" << n << " negative pivot at " << col);
            DevMat<T> A(n, n, 2);
            std::vector<T> full = fill_symmetric(A, uplo, this->rng, R(n));
            A(col, col) = full[size_t(col + col * n)] = T(-1);
            const std::vector<T> a0 = A.h;
            const int info = run_potrf(this->dk(), this->q(), uplo, A);
            EXPECT_EQ(info, col + 1);
            EXPECT_EQ(info, lapack_info(full, n, uplo));
            check_partial_factor(A, a0, full, uplo, info);
        }
        for (int64_t n : {45, 200}) {  // indefinite random symmetric (Hermitian)
            SCOPED_TRACE(::testing::Message() << "potrf " << char(uplo) << " n=" << n << " indefinite");
            DevMat<T> A(n, n, 2);
            const std::vector<T> full = fill_symmetric(A, uplo, this->rng, R(0.2));
            const std::vector<T> a0 = A.h;
            const int info = run_potrf(this->dk(), this->q(), uplo, A);
            EXPECT_GT(info, 0);
            EXPECT_EQ(info, lapack_info(full, n, uplo));
            check_partial_factor(A, a0, full, uplo, info);
        }
        for (auto [n, col] : {std::pair<int64_t, int64_t>{45, 30}, {200, 100}}) {  // NaN on the diagonal
            SCOPED_TRACE(::testing::Message() << "potrf " << char(uplo) << " n=" << n << " NaN pivot at " << col);
            DevMat<T> A(n, n, 2);
            std::vector<T> full = fill_symmetric(A, uplo, this->rng, R(n));
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

// Leaves that factor (and invert) 4 columns per barrier step, against the default 2 of the tests
// above (one column per step is the same code with groups of one), in complex double: leaves of 64
// columns, sizes that leave partial groups (45, 130, 199), and failing pivots at each position of a
// group (info and the leading factor, as LAPACK leaves them). One program variant: a PoCL build
// costs about 20 s.
template <class T>
void run_potrf_column_groups(const ocl::DeviceKernels& dk, std::mt19937_64& rng, const std::string& opts) {
    using R = real_t<T>;
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
        for (int64_t n : {45, 130, 199}) {
            SCOPED_TRACE(::testing::Message() << opts << " potrf " << char(uplo) << " n=" << n);
            DevMat<T> A(n, n, 3);
            const std::vector<T> full = fill_symmetric(A, uplo, rng, R(n));
            const std::vector<T> a0 = A.h;
            EXPECT_EQ(run_potrf(dk, Env::get().queue(), uplo, A), 0);
            EXPECT_TRUE(factor_ok(A, full, uplo, n, "potrf"));
            EXPECT_TRUE(untouched(A, a0, [uplo](int64_t i, int64_t j) { return uplo == Uplo::Lower ? i >= j : i <= j; }));
        }
        for (int64_t col : {0, 21, 66, 67, 130}) {  // leaves [0, 64), [64, 128), [128, 150)
            const int64_t n = 150;
            SCOPED_TRACE(::testing::Message() << opts << " potrf " << char(uplo) << " negative pivot at " << col);
            DevMat<T> A(n, n, 2);
            std::vector<T> full = fill_symmetric(A, uplo, rng, R(n));
            A(col, col) = full[size_t(col + col * n)] = T(-1);
            const std::vector<T> a0 = A.h;
            const int info = run_potrf(dk, Env::get().queue(), uplo, A);
            EXPECT_EQ(info, col + 1);
            EXPECT_EQ(info, lapack_info(full, n, uplo));
            check_partial_factor(A, a0, full, uplo, info);
        }
    }
}

TEST(OpenCLPotrf, OtherColumnGroups) {
    std::mt19937_64 rng(11);
    const std::string four = "-DTESSERA_POTRF_COLS=4 -DTESSERA_POTRF_BS=64";
    run_potrf_column_groups<std::complex<double>>(*Env::get().build_variant('z', four), rng, four);
}

// ocl::potrf does not read the imaginary parts of A's diagonal (its trailing updates are herks with
// beta = 1, test_opencl_kernels.cpp's HerkNaNImaginaryDiagonal): a NaN there must not reach the
// result. Complex only.
TYPED_TEST(OpenCLKernels, PotrfNaNImaginaryDiagonal) {
    using T = TypeParam;
    if constexpr (!is_complex_v<T>) {
        GTEST_SKIP() << "complex only";
    } else {
        // n = 45: one leaf; n = 300: recursive, the NaN in a trailing block updated by herk.
        for (int64_t n : {45, 300})
            for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
                run_potrf_complex_diagonal<T>(this->dk(), this->q(), this->rng, uplo, n, true);
    }
}

}  // namespace
