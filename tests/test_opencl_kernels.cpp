// The OpenCL BLAS-like tile kernels and their launchers (kernels/opencl/launch.hpp: gemm, syrk, herk,
// lacpy, norm_tile), run directly on the first OpenCL CPU device (PoCL) without StarPU and checked against CBLAS
// with the scaled residuals of docs/architecture.md#numerical-checks (threshold 60); everything a kernel
// must not write is NaN or random and compared bit for bit afterwards. Typed over s, d, c, z: complex
// cases use ConjTrans too, complex alpha and beta, and random real and imaginary parts. The triangular
// kernels (trsm, trmm, trtri, potrf) are in test_opencl_triangular.cpp.
#include "tests/opencl_checks.hpp"

#include "kernels/cpu/lag2.hpp"
#include "kernels/cpu/norms.hpp"

#include <gtest/gtest.h>

namespace {

using namespace tessera;
using namespace tessera::ocltest;

TYPED_TEST_SUITE(OpenCLKernels, Precisions);

// ---- gemm -----------------------------------------------------------------------------------

/// One product through ocl::gemm, or (narrow) through ocl::gemm_narrow, which must take it.
template <class T>
void run_gemm(const ocl::DeviceKernels& dk, cl_command_queue q, std::mt19937_64& rng, Trans ta, Trans tb, int64_t m,
              int64_t n, int64_t k, T alpha, T beta, bool narrow = false) {
    SCOPED_TRACE(::testing::Message() << (narrow ? "gemm_narrow " : "gemm ") << char(ta) << char(tb) << " m=" << m
                                      << " n=" << n << " k=" << k << " alpha=" << alpha << " beta=" << beta);
    const bool nta = ta == Trans::NoTrans, ntb = tb == Trans::NoTrans;
    DevMat<T> A(nta ? m : k, nta ? k : m, 5), B(ntb ? k : n, ntb ? n : k, 7), C(m, n, 11);
    fill_random(A, rng);
    fill_random(B, rng);
    A.upload();
    B.upload();
    auto [c0, ref, c0norm] = start_update(C, beta, rng);

    if (narrow)
        ASSERT_TRUE(ocl::gemm_narrow<T>(dk, q, ta, tb, m, n, k, alpha, A.mat(), B.mat(), beta, C.mat()));
    else
        ocl::gemm<T>(dk, q, ta, tb, m, n, k, alpha, A.mat(), B.mat(), beta, C.mat());
    C.download();

    const std::vector<T> ad = A.dense(), bd = B.dense();
    ref_gemm<T>(ta, tb, m, n, k, alpha, ad.data(), std::max<int64_t>(A.rows, 1), bd.data(),
                std::max<int64_t>(B.rows, 1), beta, ref.data(), std::max<int64_t>(m, 1));
    std::vector<T> diff = C.dense();
    for (size_t e = 0; e < diff.size(); ++e) diff[e] -= ref[e];
    const double num = norm1(m, n, diff.data(), m);
    const double den = (absd(alpha) * norm1(A.rows, A.cols, ad.data(), A.rows) *
                            norm1(B.rows, B.cols, bd.data(), B.rows) +
                        absd(beta) * c0norm) *
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
    // Complex: the 9 combinations of N, T, C on every size, complex alpha and beta.
    for (const Size& s : sizes)
        for (Trans ta : ops<T>())
            for (Trans tb : ops<T>()) {
                run_gemm<T>(this->dk(), this->q(), this->rng, ta, tb, s.m, s.n, s.k, scalar<T>(1.25, 0.5),
                            scalar<T>(-0.75, 0.25));
                if (s.k == 0 || s.m == 37)  // beta = 0 over a NaN C: C must be overwritten
                    run_gemm<T>(this->dk(), this->q(), this->rng, ta, tb, s.m, s.n, s.k, scalar<T>(-0.5, 1), T(0));
            }
    // ConjTrans is Trans for real types; alpha = 0 scales C only.
    run_gemm<T>(this->dk(), this->q(), this->rng, Trans::ConjTrans, Trans::ConjTrans, 33, 20, 40, T(0.5), T(2));
    run_gemm<T>(this->dk(), this->q(), this->rng, Trans::NoTrans, Trans::NoTrans, 33, 20, 40, T(0),
                scalar<T>(2, -1));
}

// The narrow products (gemm_narrow.cl), every op on both kernels (op(A) = A: _n; Aᵀ, Aᴴ: _t):
// one to eight columns, rows that fill no work-group, one row group whose k is split over several
// work-groups (m = 8, k = 4096: partial sums added in order), and beta = 0 over a NaN C.
TYPED_TEST(OpenCLKernels, GemmNarrow) {
    using T = TypeParam;
    const ocl::DeviceKernels& dk = this->dk();
    ASSERT_GE(dk.params().gemm_narrow, 8);
    struct Size {
        int64_t m, n, k;
    };
    const Size sizes[] = {{1, 1, 128}, {37, 1, 300}, {300, 3, 129}, {8, 8, 4096}, {130, 5, 700}, {65, 2, 1000}};
    for (const Size& s : sizes)
        for (Trans ta : ops<T>())
            for (Trans tb : ops<T>()) {
                run_gemm<T>(dk, this->q(), this->rng, ta, tb, s.m, s.n, s.k, scalar<T>(1.25, 0.5),
                            scalar<T>(-0.75, 0.25), true);
                if (s.m == 37 || s.m == 8)
                    run_gemm<T>(dk, this->q(), this->rng, ta, tb, s.m, s.n, s.k, scalar<T>(-0.5, 1), T(0), true);
            }
    // gemm() takes it: the same shapes through the dispatch.
    run_gemm<T>(dk, this->q(), this->rng, Trans::NoTrans, Trans::NoTrans, 300, 3, 129, T(1), T(1));
    run_gemm<T>(dk, this->q(), this->rng, Trans::Trans, Trans::NoTrans, 8, 8, 4096, T(1), T(0));
    // Shapes it declines (wider C, shallower k), enqueuing nothing: a null queue would fail.
    const ocl::Mat z{nullptr, 0, 1};
    EXPECT_FALSE(ocl::gemm_narrow<T>(dk, nullptr, Trans::NoTrans, Trans::NoTrans, 300, 9, 300, T(1), z, z, T(0), z));
    EXPECT_FALSE(ocl::gemm_narrow<T>(dk, nullptr, Trans::Trans, Trans::NoTrans, 300, 1, ocl::kNarrowMinK - 1, T(1), z,
                                     z, T(0), z));
}

// Sums of narrow products (ocl::gemm_narrow_sum, a block row of a solve): terms of different depths
// (one below a work-group's split, one split over many groups), op(A) = A and Aᵀ/Aᴴ, one to eight
// columns, beta = 0 over a NaN C; checked against the sum of the reference products.
TYPED_TEST(OpenCLKernels, GemmNarrowSum) {
    using T = TypeParam;
    const ocl::DeviceKernels& dk = this->dk();
    struct Case {
        int64_t m, n;
        std::vector<int64_t> ks;
    };
    const Case cases[] = {{37, 1, {128, 300}}, {300, 3, {4096, 129, 700}}, {8, 8, {1000}}, {130, 2, {256, 256, 256, 200}}};
    for (const Case& c : cases)
        for (Trans ta : ops<T>())
            for (T beta : {scalar<T>(-0.75, 0.25), T(0)}) {
                SCOPED_TRACE(::testing::Message() << "gemm_narrow_sum " << char(ta) << " m=" << c.m << " n=" << c.n
                                                  << " terms=" << c.ks.size() << " beta=" << beta);
                const bool nta = ta == Trans::NoTrans;
                const T alpha = scalar<T>(-1, 0.5);
                std::vector<std::unique_ptr<DevMat<T>>> As, Bs;
                std::vector<ocl::NarrowTerm> terms;
                for (int64_t k : c.ks) {
                    As.push_back(std::make_unique<DevMat<T>>(nta ? c.m : k, nta ? k : c.m, 5));
                    Bs.push_back(std::make_unique<DevMat<T>>(k, c.n, 3));
                    fill_random(*As.back(), this->rng);
                    fill_random(*Bs.back(), this->rng);
                    As.back()->upload();
                    Bs.back()->upload();
                    terms.push_back({As.back()->mat(), Bs.back()->mat(), k});
                }
                DevMat<T> C(c.m, c.n, 11);
                auto [c0, ref, c0norm] = start_update(C, beta, this->rng);
                ASSERT_TRUE(ocl::gemm_narrow_sum<T>(dk, this->q(), ta, c.m, c.n, alpha, terms, beta, C.mat()));
                C.download();
                for (T& v : ref) v = beta * v;  // start_update's C (zeros for beta = 0)
                double den = absd(beta) * c0norm;
                int64_t depth = 0;
                for (size_t t = 0; t < terms.size(); ++t) {
                    const std::vector<T> ad = As[t]->dense(), bd = Bs[t]->dense();
                    ref_gemm<T>(ta, Trans::NoTrans, c.m, c.n, c.ks[t], alpha, ad.data(), As[t]->rows, bd.data(),
                                c.ks[t], T(1), ref.data(), c.m);
                    den += absd(alpha) * norm1(As[t]->rows, As[t]->cols, ad.data(), As[t]->rows) *
                           norm1(c.ks[t], c.n, bd.data(), c.ks[t]);
                    depth += c.ks[t];
                }
                std::vector<T> diff = C.dense();
                for (size_t e = 0; e < diff.size(); ++e) diff[e] -= ref[e];
                EXPECT_TRUE(residual_ok(norm1(c.m, c.n, diff.data(), c.m), den * double(depth) * eps<T>(),
                                        "gemm_narrow_sum"));
                EXPECT_TRUE(untouched(C, c0, [](int64_t, int64_t) { return true; }));
            }
    // What it declines, enqueuing nothing (a null queue would fail): no term, alpha = 0, a wide C, a
    // shallow term.
    const ocl::Mat z{nullptr, 0, 1};
    const std::vector<ocl::NarrowTerm> one{{z, z, 300}}, shallow{{z, z, 300}, {z, z, ocl::kNarrowMinK - 1}};
    EXPECT_FALSE(ocl::gemm_narrow_sum<T>(dk, nullptr, Trans::NoTrans, 300, 1, T(1), {}, T(1), z));
    EXPECT_FALSE(ocl::gemm_narrow_sum<T>(dk, nullptr, Trans::NoTrans, 300, 1, T(0), one, T(1), z));
    EXPECT_FALSE(ocl::gemm_narrow_sum<T>(dk, nullptr, Trans::NoTrans, 300, 9, T(1), one, T(1), z));
    EXPECT_FALSE(ocl::gemm_narrow_sum<T>(dk, nullptr, Trans::Trans, 300, 1, T(1), shallow, T(1), z));
}

// ---- syrk, herk -----------------------------------------------------------------------------

TYPED_TEST(OpenCLKernels, Syrk) {
    using T = TypeParam;
    struct Size {
        int64_t n, k;
    };
    const Size sizes[] = {{1, 1}, {37, 29}, {64, 64}, {130, 3}, {20, 0}};
    // Complex: complex symmetric (cblas_xsyrk), ConjTrans taken as Trans (ocl::syrk's contract).
    for (const Size& s : sizes)
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
            for (Trans tr : ops<T>()) {
                SCOPED_TRACE(::testing::Message() << "syrk " << char(uplo) << char(tr) << " n=" << s.n << " k=" << s.k);
                const bool nt = tr == Trans::NoTrans;
                const T alpha = scalar<T>(0.75, -0.5), beta = scalar<T>(-1.5, 0.25);
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
                const double den = (absd(alpha) * na * na + absd(beta) * norm1(s.n, s.n, c0d.data(), s.n)) *
                                   double(std::max<int64_t>(s.k, 1)) * eps<T>();
                EXPECT_TRUE(residual_ok(norm1(s.n, s.n, diff.data(), s.n), den, "syrk"));
                EXPECT_TRUE(untouched(C, c0, [uplo](int64_t i, int64_t j) {
                    return uplo == Uplo::Lower ? i >= j : i <= j;
                }));
            }
}

/// One herk against ref_herk on the uplo triangle. beta = 0: C's uplo triangle is NaN and must not
/// be read. nan_diag_im (complex): the imaginary parts of C's diagonal are NaN, which BLAS xHERK
/// assumes zero and does not read. Complex: C's diagonal must come out with exact zero imaginary
/// parts. The other triangle must stay as it is.
template <class T>
void run_herk(const ocl::DeviceKernels& dk, cl_command_queue q, std::mt19937_64& rng, Uplo uplo, Trans tr, int64_t n,
              int64_t k, real_t<T> beta, bool nan_diag_im) {
    using R = real_t<T>;
    SCOPED_TRACE(::testing::Message() << "herk " << char(uplo) << char(tr) << " n=" << n << " k=" << k << " beta="
                                      << beta << (nan_diag_im ? ", NaN imaginary parts on C's diagonal" : ""));
    const bool nt = tr == Trans::NoTrans;
    const R alpha = R(0.75);
    auto in = [uplo](int64_t i, int64_t j) { return uplo == Uplo::Lower ? i >= j : i <= j; };
    DevMat<T> A(nt ? n : k, nt ? k : n, 3), C(n, n, 9);
    fill_random(A, rng);
    fill_random(C, rng);  // both triangles; complex: nonzero imaginary parts on the diagonal
    std::vector<T> ref = C.dense();
    if (beta == R(0))
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < n; ++i)
                if (in(i, j)) {
                    C(i, j) = nan_value<T>();
                    ref[size_t(i + j * n)] = T(0);
                }
    if constexpr (is_complex_v<T>)
        if (nan_diag_im)
            for (int64_t i = 0; i < n; ++i) {
                C(i, i) = T(std::real(C(i, i)), nan_value<R>());
                ref[size_t(i + i * n)] = T(std::real(C(i, i)), R(0));
            }
    A.upload();
    C.upload();
    const std::vector<T> c0 = C.h;
    const double c0norm = norm1(n, n, ref.data(), n);

    ocl::herk<T>(dk, q, uplo, tr, n, k, alpha, A.mat(), beta, C.mat());
    C.download();

    const std::vector<T> ad = A.dense();
    ref_herk<T>(uplo, tr, n, k, alpha, ad.data(), std::max<int64_t>(A.rows, 1), beta, ref.data(), n);
    std::vector<T> diff = C.dense();
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) {
            T& d = diff[size_t(i + j * n)];
            d = in(i, j) ? d - ref[size_t(i + j * n)] : T(0);
        }
    const double na = norm1(A.rows, A.cols, ad.data(), A.rows);
    const double den = (absd(alpha) * na * na + absd(beta) * c0norm) * double(std::max<int64_t>(k, 1)) * eps<T>();
    EXPECT_TRUE(residual_ok(norm1(n, n, diff.data(), n), den, "herk"));
    if constexpr (is_complex_v<T>) {
        int64_t bad = -1;  // the first diagonal element with a nonzero imaginary part
        for (int64_t i = n - 1; i >= 0; --i)
            if (std::imag(C(i, i)) != R(0)) bad = i;
        EXPECT_EQ(bad, -1) << "C(bad, bad) = " << (bad >= 0 ? C(bad, bad) : T(0));
    }
    EXPECT_TRUE(untouched(C, c0, in));
}

TYPED_TEST(OpenCLKernels, Herk) {
    using T = TypeParam;
    using R = real_t<T>;
    struct Size {
        int64_t n, k;
    };
    const Size sizes[] = {{1, 1}, {37, 29}, {64, 64}, {130, 3}, {20, 0}};
    // Complex: cblas_xherk, NoTrans and ConjTrans. Real: herk is syrk (ConjTrans is Trans).
    for (const Size& s : sizes)
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
            for (Trans tr : {Trans::NoTrans, Trans::ConjTrans})
                for (R beta : {R(-1.5), R(0)})
                    run_herk<T>(this->dk(), this->q(), this->rng, uplo, tr, s.n, s.k, beta, false);
    if constexpr (is_complex_v<T>) {  // Trans is refused for complex T, and uplo General always
        const ocl::Mat z{nullptr, 0, 1};
        EXPECT_THROW(ocl::herk<T>(this->dk(), nullptr, Uplo::Lower, Trans::Trans, 5, 5, R(1), z, R(0), z),
                     Error);
        EXPECT_THROW(ocl::herk<T>(this->dk(), nullptr, Uplo::General, Trans::NoTrans, 5, 5, R(1), z, R(0), z),
                     Error);
    }
}

// ---- NaN in the imaginary parts of a Hermitian diagonal: not read ---------------------------

// BLAS xHERK assumes the imaginary parts of C's diagonal are zero and does not read them, and
// ocl::potrf documents that it does not read those of A's diagonal (its trailing updates are
// herks with beta = 1; test_opencl_triangular.cpp): a NaN there must not reach the result.
// Complex only.

TYPED_TEST(OpenCLKernels, HerkNaNImaginaryDiagonal) {
    using T = TypeParam;
    using R = real_t<T>;
    if constexpr (!is_complex_v<T>) {
        GTEST_SKIP() << "complex only";
    } else {
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
            for (Trans tr : {Trans::NoTrans, Trans::ConjTrans})
                for (R beta : {R(1), R(-1.5)})
                    run_herk<T>(this->dk(), this->q(), this->rng, uplo, tr, 37, 29, beta, true);
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
    for (Trans ta : {Trans::NoTrans, Trans::Trans}) {  // the narrow products (gemm_narrow.cl)
        DevMat<T> A(ta == Trans::NoTrans ? 20 : 200, ta == Trans::NoTrans ? 200 : 20, 1), B(200, 3, 2), C(20, 3, 3);
        fill_random(C, this->rng);
        A.upload();
        B.upload();
        C.upload();
        const std::vector<T> c0 = C.dense();
        ASSERT_TRUE(ocl::gemm_narrow<T>(this->dk(), this->q(), ta, Trans::NoTrans, 20, 3, 200, T(0), A.mat(), B.mat(),
                                        T(2), C.mat()));
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
    EXPECT_NO_THROW(ocl::herk<T>(dk, nullptr, Uplo::Upper, Trans::ConjTrans, 0, 5, real_t<T>(1), z, real_t<T>(0), z));
    EXPECT_NO_THROW(ocl::trsm<T>(dk, nullptr, Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, 0, 5, T(1), z, z));
    EXPECT_NO_THROW(ocl::trsm<T>(dk, nullptr, Side::Right, Uplo::Upper, Trans::Trans, Diag::NonUnit, 5, 0, T(1), z, z));
    EXPECT_NO_THROW(ocl::lacpy<T>(dk, nullptr, Uplo::General, 0, 0, z, z));
    int info = -1;
    EXPECT_NO_THROW(ocl::potrf<T>(dk, nullptr, Uplo::Lower, 0, z, &info));
    EXPECT_EQ(info, 0);
}

// ---- a program built with extra options: the launchers' parameters are the compiled ones ------

// Tools build variants with options of their own (tessera-tune, gpu_gemm --variant); a launcher that
// read the library's options instead would size its launches for kernels that were not built.
TEST(OpenCLProgram, ParamsAreThoseTheProgramWasBuiltWith) {
    auto dk = Env::get().build_variant('d', "-DTESSERA_TRSM_BS=32 -DTESSERA_QR_SB=100 -DTESSERA_QR_SB=128");
    EXPECT_EQ(dk->params().trsm_bs, 32);
    EXPECT_EQ(dk->compiled_local("tessera_trtri_blocks")[0], 32u);  // the kernel agrees
    EXPECT_EQ(dk->params().qr_sb, 128);  // the last definition, as the compiler takes it
    EXPECT_NE(dk->options().find("-DTESSERA_TRSM_BS=32"), std::string::npos);
}

// ---- the launchers' workspaces -------------------------------------------------------------

size_t mem_size(cl_mem m) {
    size_t bytes = 0;
    EXPECT_EQ(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof bytes, &bytes, nullptr), CL_SUCCESS);
    return bytes;
}

cl_uint mem_references(cl_mem m) {
    cl_uint count = 0;
    EXPECT_EQ(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof count, &count, nullptr), CL_SUCCESS);
    return count;
}

// A workspace is reused while large enough, grows to at least twice its size, and keeps the buffer
// it outgrew alive (commands enqueued before may still use it; releasing it at once made NVIDIA's
// driver wait for the device) until the set goes.
TEST(OpenCLProgram, WorkspaceGrowsGeometricallyAndKeepsTheOldBuffer) {
    auto dk = Env::get().kernels<double>().another();
    using W = ocl::DeviceKernels::Workspace;
    const cl_mem first = dk->scratch(1000, W::SplitK);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(mem_size(first), 1000u);
    EXPECT_EQ(dk->scratch(1000, W::SplitK), first);
    EXPECT_EQ(dk->scratch(10, W::SplitK), first);
    const cl_mem second = dk->scratch(1100, W::SplitK);
    EXPECT_NE(second, first);
    EXPECT_EQ(mem_size(second), 2000u);  // twice the last, not the 1100 asked for
    EXPECT_EQ(mem_references(first), 1u);  // kept, not released
    EXPECT_EQ(dk->scratch(1900, W::SplitK), second);
    const cl_mem third = dk->scratch(5000, W::SplitK);
    EXPECT_EQ(mem_size(third), 5000u);  // more than twice the last: what is asked for
    EXPECT_EQ(mem_references(first), 1u);
    EXPECT_EQ(mem_references(second), 1u);
    EXPECT_EQ(dk->scratch(100), dk->scratch(100));  // another workspace, its own buffer
    EXPECT_NE(dk->scratch(100), third);
}

// ---- norm_tile: the CPU kernel's bits ------------------------------------------------------

// Every part and tile shape of the norm partials against cpu::norm_tile on the same tile: the
// column maxima and the column and row sums bit for bit (the norms' determinism over CPU workers and
// devices rests on it), the xLASSQ pairs' scale bit for bit and sumsq within its rounding.
TYPED_TEST(OpenCLKernels, NormTileMatchesCpuBits) {
    using T = TypeParam;
    using R = real_t<T>;
    struct Size {
        int64_t m, n;
    };
    // The kernel stages 32 lines × 64 entries at a time, with the next two chunks in flight: the
    // larger sizes take several strips and 1 to 5 chunks (full and partial, odd and even counts).
    for (const Size s : {Size{37, 21}, Size{16, 16}, Size{1, 1}, Size{40, 40}, Size{150, 71}, Size{65, 130}, Size{97, 97},
                         Size{256, 192}, Size{260, 260}})
        for (int tile = 0; tile <= 4; ++tile) {
            if (tile >= 3 && s.m != s.n) continue;  // symmetric tiles are square
            for (int part = 0; part <= 4; ++part)
                for (bool flag : {false, true}) {
                    const bool unit = flag && (tile == 1 || tile == 2), herm = flag && tile >= 3;
                    if (flag && !unit && !herm) continue;
                    SCOPED_TRACE(::testing::Message() << "norm_tile part " << part << " tile " << tile << " flag "
                                                      << flag << " m=" << s.m << " n=" << s.n);
                    DevMat<T> A(s.m, s.n, 3);
                    fill_random(A, this->rng);
                    if (part == 3 && (s.m == 40 || s.m == 97)) {  // near overflow: the scaled sum of squares holds
                        const R big = std::is_same_v<R, double> ? R(1e200) : R(1e30);
                        for (int64_t j = 0; j < s.n; ++j)
                            for (int64_t i = 0; i < s.m; ++i) A(i, j) *= big;
                    }
                    const int64_t len = cpu::norm_part_length(cpu::NormPart(part), s.m, s.n);
                    DevMat<R> out(len, 1, 2);
                    A.upload();
                    out.upload();
                    ocl::norm_tile<T>(this->dk(), this->q(), part, tile, unit, herm, s.m, s.n, A.mat(), out.mem,
                                      out.off);
                    out.download();
                    std::vector<R> ref(static_cast<size_t>(len));
                    cpu::norm_tile<T>(cpu::NormPart(part), cpu::NormTile(tile), unit, herm, s.m, s.n, A.data(), A.ld,
                                      ref.data());
                    for (int64_t e = 0; e < len; ++e) {
                        const R got = out(e, 0), want = ref[size_t(e)];
                        ASSERT_TRUE(std::isfinite(got)) << e;
                        if (part == 3 && e % 2 == 1)
                            EXPECT_NEAR(got, want, 4 * (double(s.m) + 4) * eps<T>() * want) << e;
                        else
                            ASSERT_EQ(std::memcmp(&got, &want, sizeof(R)), 0) << e << ": " << got << " vs " << want;
                    }
                }
        }
}

// The mixed-precision solvers' conversions on a device (lacpy.cl's tessera_lag2_down / _up) against
// cpu::lag2_down / lag2_up: a rounding to float and a widening (and one addition) are correctly
// rounded in IEEE arithmetic on both, so the results are compared bit for bit, also scaled by a
// power of 2 (alpha = 2^-20, exact; the FP16 Cholesky's σ); entries outside the uplo trapezoid stay
// untouched (NaN); the overflow flag as xLAG2S's (±FLT_MAX of alpha·A; NaN not reported).
template <class T>
void run_lag2(std::mt19937_64& rng) {
    using L = cpu::low_t<T>;
    const ocl::DeviceKernels& dk = Env::get().kernels<T>();
    const cl_command_queue q = Env::get().queue();
    const int64_t m = 37, n = 21;
    for (double alpha : {1.0, 0x1p-20})
    for (Uplo uplo : {Uplo::General, Uplo::Lower, Uplo::Upper}) {
        SCOPED_TRACE(::testing::Message() << "lag2_down uplo " << char(uplo) << " alpha " << alpha);
        DevMat<T> A(m, n, 3);
        DevMat<L> B(m, n, 2);
        fill_random(A, rng);
        A(4, 9) = A(4, 9) * real_t<T>(std::nan(""));  // converted, not reported
        A.upload();
        B.upload();
        int info = -1;
        ocl::lag2_down<T>(dk, q, uplo, m, n, alpha, A.mat(), B.mat(), &info);
        B.download();
        EXPECT_EQ(info, 0);
        std::vector<L> ref(size_t(m * n));
        EXPECT_EQ(cpu::lag2_down<T>(uplo, m, n, alpha, A.data(), A.ld, ref.data(), m), 0);
        EXPECT_EQ(ref[0], L(A(0, 0) * real_t<T>(alpha)));
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < m; ++i) {
                const bool in = uplo == Uplo::General || (uplo == Uplo::Lower ? i >= j : i <= j);
                const L got = B(i, j);
                if (!in) {
                    EXPECT_TRUE(std::isnan(std::real(got))) << i << "," << j << " outside the trapezoid was written";
                } else if (i == 4 && j == 9) {
                    EXPECT_TRUE(std::isnan(std::real(got)) || std::isnan(std::imag(got)));
                } else {
                    EXPECT_EQ(got, ref[size_t(i + j * m)]) << i << "," << j;
                }
            }
    }
    // An entry beyond ±FLT_MAX (a real part, then for complex an imaginary part) sets the flag, unless
    // alpha brings it within.
    for (double alpha : {1.0, 0x1p-20})
    for (int which = 0; which < (is_complex_v<T> ? 2 : 1); ++which) {
        DevMat<T> A(m, n, 1);
        DevMat<L> B(m, n, 1);
        fill_random(A, rng);
        if constexpr (is_complex_v<T>) A(30, 3) = which == 0 ? T(-1e39, 0.5) : T(0.5, 1e39);
        else A(30, 3) = T(-1e39);
        A.upload();
        B.upload();
        int info = -1;
        ocl::lag2_down<T>(dk, q, Uplo::General, m, n, alpha, A.mat(), B.mat(), &info);
        ocl::check(clFinish(q), "clFinish");
        EXPECT_EQ(info, alpha == 1 ? 1 : 0) << (which ? "imaginary part" : "real part") << ", alpha " << alpha;
    }
    for (bool accumulate : {false, true}) {
        SCOPED_TRACE(::testing::Message() << "lag2_up accumulate " << accumulate);
        DevMat<L> A(m, n, 2);
        DevMat<T> B(m, n, 3);
        fill_random(A, rng);
        fill_random(B, rng);
        const std::vector<T> b0 = B.h;
        A.upload();
        B.upload();
        ocl::lag2_up<T>(dk, q, accumulate, m, n, A.mat(), B.mat());
        B.download();
        std::vector<T> ref(size_t(m * n));
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < m; ++i) ref[size_t(i + j * m)] = b0[B.off + size_t(i + j * B.ld)];
        cpu::lag2_up<T>(accumulate, m, n, A.data(), A.ld, ref.data(), m);
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < m; ++i) EXPECT_EQ(B(i, j), ref[size_t(i + j * m)]) << i << "," << j;
    }
}

TEST(OpenCLLag2, MatchesCpuBits) {
    std::mt19937_64 rng(31);
    run_lag2<double>(rng);
    run_lag2<std::complex<double>>(rng);
}

}  // namespace
