// The narrow products of a symmetric matrix's tiles (the mixed solvers' residuals), run directly on
// the first OpenCL CPU device (PoCL) without StarPU, typed over s, d, c, z, and checked against CBLAS
// with the scaled residual of docs/architecture.md#numerical-checks; what an output must not write is
// compared bit for bit.
// - ocl::symm with a narrow C (kernels/opencl/launch_tri.cpp): two products of gemm_narrow.cl, one
//   with A's uplo triangle and one with its strict triangle transposed, each reading only its own
//   entries (symm, and hemm for complex T): A's other triangle is NaN (and, for hemm, the imaginary
//   parts of its diagonal), so a product that read it would fail.
// - ocl::symm with a wide C, both sides: two triangular GEMMs on a copy of A's strict triangle plus
//   half its diagonal (for hemm, half its real parts), with the same NaN entries.
// - ocl::gemm_narrow_pair (gemm_narrow_pair.cl): P += alpha·A·u and Q += alpha·op(A)·v from one read
//   of an off-diagonal tile.
#include "tests/opencl_checks.hpp"

#include <gtest/gtest.h>

#include <tuple>

namespace {

using namespace tessera;
using namespace tessera::ocltest;

TYPED_TEST_SUITE(OpenCLKernels, Precisions);

// C = alpha·A·B + beta·C (Left, A m×m) or alpha·B·A + beta·C (Right, A n×n) by ocl::symm, A symmetric
// (Hermitian with `hermitian`) in its uplo triangle, its other triangle NaN (and, for hemm, the
// imaginary parts of its diagonal, which xHEMM does not read), B and C m×n. Left with n ≤ 8 and
// m ≥ kNarrowMinK takes the narrow products; other shapes the triangular GEMMs.
template <class T>
void run_symm(const ocl::DeviceKernels& dk, cl_command_queue q, std::mt19937_64& rng, bool hermitian, Side side,
              Uplo uplo, int64_t m, int64_t n, T alpha, T beta) {
    SCOPED_TRACE(::testing::Message() << (hermitian ? "hemm " : "symm ") << char(side) << char(uplo) << " m=" << m
                                      << " n=" << n << " beta=" << beta);
    const bool left = side == Side::Left;
    const int64_t k = left ? m : n;
    DevMat<T> A(k, k, 3), B(m, n, 5), C(m, n, 7);
    std::vector<T> full(size_t(k * k));  // A's entries not set below stay NaN (DevMat)
    for (int64_t j = 0; j < k; ++j)
        for (int64_t i = j; i < k; ++i) {
            T v = testutil::uniform_scalar<T>(rng);
            if (i == j && hermitian) v = T(std::real(v));
            const T mirror = hermitian ? conjugate(v) : v;
            full[size_t(i + j * k)] = v;
            full[size_t(j + i * k)] = mirror;
            if (uplo == Uplo::Lower)
                A(i, j) = v;
            else
                A(j, i) = mirror;
            if (i == j && hermitian && is_complex_v<T>)  // not read by xHEMM
                A(i, i) = scalar<T>(double(std::real(v)), std::numeric_limits<double>::quiet_NaN());
        }
    fill_random(B, rng);
    A.upload();
    B.upload();
    auto [c0, ref, c0norm] = start_update(C, beta, rng);

    ocl::symm<T>(dk, q, hermitian, side, uplo, m, n, alpha, A.mat(), B.mat(), beta, C.mat());
    C.download();

    const std::vector<T> bd = B.dense();
    if (left)
        ref_gemm<T>(Trans::NoTrans, Trans::NoTrans, m, n, m, alpha, full.data(), k, bd.data(), m, beta, ref.data(), m);
    else
        ref_gemm<T>(Trans::NoTrans, Trans::NoTrans, m, n, n, alpha, bd.data(), m, full.data(), k, beta, ref.data(), m);
    std::vector<T> diff = C.dense();
    for (size_t e = 0; e < diff.size(); ++e) diff[e] -= ref[e];
    const double den = (absd(alpha) * norm1(k, k, full.data(), k) * norm1(m, n, bd.data(), m) + absd(beta) * c0norm) *
                       double(k) * eps<T>();
    EXPECT_TRUE(residual_ok(norm1(m, n, diff.data(), m), den, "symm"));
    EXPECT_TRUE(untouched(C, c0, [](int64_t, int64_t) { return true; }));
}

TYPED_TEST(OpenCLKernels, SymmNarrowReadsOneTriangle) {
    using T = TypeParam;
    ASSERT_GE(this->dk().params().gemm_narrow, 8);
    struct Size {
        int64_t m, n;
    };
    // m = kNarrowMinK, and larger with partial work-groups; 1 to 8 columns of C.
    for (const Size s : {Size{ocl::kNarrowMinK, 1}, Size{300, 1}, Size{261, 3}, Size{150, 8}})
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
            for (bool hermitian : {false, true}) {
                if (hermitian && !is_complex_v<T>) continue;
                run_symm<T>(this->dk(), this->q(), this->rng, hermitian, Side::Left, uplo, s.m, s.n,
                            scalar<T>(1.25, 0.5), scalar<T>(-0.75, 0.25));
                if (s.n == 1)
                    run_symm<T>(this->dk(), this->q(), this->rng, hermitian, Side::Left, uplo, s.m, s.n,
                                scalar<T>(-1, 0), T(0));
            }
}

TYPED_TEST(OpenCLKernels, SymmWideReadsOneTriangle) {
    using T = TypeParam;
    struct Size {
        int64_t m, n;
    };
    // C wider than the narrow products take (Left), or on the Right; A of order 1 and partial blocks.
    for (const Size s : {Size{37, 20}, Size{1, 12}, Size{20, 37}, Size{12, 1}})
        for (Side side : {Side::Left, Side::Right})
            for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
                for (bool hermitian : {false, true}) {
                    if (hermitian && !is_complex_v<T>) continue;
                    run_symm<T>(this->dk(), this->q(), this->rng, hermitian, side, uplo, s.m, s.n,
                                scalar<T>(1.25, 0.5), scalar<T>(-0.75, 0.25));
                }
}

// P += alpha·A·u and Q += alpha·op(A)·v (op ᵀ, or ᴴ with conj) by ocl::gemm_narrow_pair, A m×k.
template <class T>
void run_narrow_pair(const ocl::DeviceKernels& dk, cl_command_queue q, std::mt19937_64& rng, bool conj, int64_t m,
                     int64_t k, T alpha) {
    SCOPED_TRACE(::testing::Message() << "gemm_narrow_pair conj " << conj << " m=" << m << " k=" << k);
    DevMat<T> A(m, k, 3), U(k, 1, 5), V(m, 1, 2), P(m, 1, 7), Q(k, 1, 1);
    for (DevMat<T>* M : {&A, &U, &V, &P, &Q}) fill_random(*M, rng);
    for (DevMat<T>* M : {&A, &U, &V, &P, &Q}) M->upload();
    const std::vector<T> p0 = P.h, q0 = Q.h;
    std::vector<T> pref = P.dense(), qref = Q.dense();
    const double p0norm = norm1(m, 1, pref.data(), m), q0norm = norm1(k, 1, qref.data(), k);
    ASSERT_TRUE(ocl::gemm_narrow_pair<T>(dk, q, conj, m, k, alpha, A.mat(), U.mat(), V.mat(), P.mat(), Q.mat()));
    P.download();
    Q.download();
    const std::vector<T> ad = A.dense(), ud = U.dense(), vd = V.dense();
    ref_gemm<T>(Trans::NoTrans, Trans::NoTrans, m, 1, k, alpha, ad.data(), m, ud.data(), k, T(1), pref.data(), m);
    ref_gemm<T>(conj ? Trans::ConjTrans : Trans::Trans, Trans::NoTrans, k, 1, m, alpha, ad.data(), m, vd.data(), m,
                T(1), qref.data(), k);
    const double anorm = norm1(m, k, ad.data(), m);
    for (auto [out, ref, n0, len, inner, x] : {std::tuple{&P, &pref, p0norm, m, k, &ud}, std::tuple{&Q, &qref, q0norm, k, m, &vd}}) {
        std::vector<T> diff = out->dense();
        for (size_t e = 0; e < diff.size(); ++e) diff[e] -= (*ref)[e];
        const double den = (absd(alpha) * anorm * norm1(inner, 1, x->data(), inner) + n0) * double(inner) * eps<T>();
        EXPECT_TRUE(residual_ok(norm1(len, 1, diff.data(), len), den, out == &P ? "A·u" : "op(A)·v"));
    }
    EXPECT_TRUE(untouched(P, p0, [](int64_t, int64_t) { return true; }));
    EXPECT_TRUE(untouched(Q, q0, [](int64_t, int64_t) { return true; }));
}

TYPED_TEST(OpenCLKernels, GemmNarrowPairReadsTheTileOnce) {
    using T = TypeParam;
    struct Size {
        int64_t m, k;
    };
    // Partial column groups (32 columns) and row chunks (128 rows), several row groups, a single row
    // or column.
    for (const Size s : {Size{300, 200}, Size{130, 261}, Size{1, 45}, Size{45, 1}, Size{128, 128}, Size{1000, 70}})
        for (bool conj : {false, true}) {
            if (conj && !is_complex_v<T>) continue;
            run_narrow_pair<T>(this->dk(), this->q(), this->rng, conj, s.m, s.k, scalar<T>(-1.25, 0.5));
        }
    // alpha = 0 enqueues nothing: a null queue would fail.
    const ocl::Mat z{nullptr, 0, 1};
    EXPECT_TRUE(ocl::gemm_narrow_pair<T>(this->dk(), nullptr, false, 300, 200, T(0), z, z, z, z, z));
}

}  // namespace
