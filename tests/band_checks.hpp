// Shared checks of the band reductions (tests/test_band_tridiag.cpp on the host,
// tests/test_opencl_band_chase.cpp on an OpenCL device; test_band_bidiag.cpp takes the band and its random entries):
// random Hermitian band matrices, their eigenvalues by LAPACK, and LAPACK's test ratios of a
// reduction B = Q2·Tri·Q2ᴴ.
#pragma once

#include "kernels/cpu/cblas_lapacke.hpp"  // first: CBLAS/LAPACKE with std::complex as their complex types

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <vector>

#include "examples/common/checks.hpp"
#include "kernels/cpu/band_reflectors.hpp"
#include "kernels/cpu/blas.hpp"
#include "tests/uniform.hpp"

namespace tessera::bandtest {

template <class T>
using R = real_t<T>;

// Eigenvalues, ascending: of Tri (xSTERF on copies) and of the band (xSBEV / xHBEV 'N').
template <class T>
std::vector<R<T>> sterf(std::vector<R<T>> d, std::vector<R<T>> e) {
    if constexpr (std::is_same_v<R<T>, float>) EXPECT_EQ(LAPACKE_ssterf(int(d.size()), d.data(), e.data()), 0);
    else EXPECT_EQ(LAPACKE_dsterf(int(d.size()), d.data(), e.data()), 0);
    return d;
}
template <class T>
std::vector<R<T>> hbev(int64_t n, int64_t kd, std::vector<T> ab, int64_t ldab) {
    std::vector<R<T>> w(static_cast<size_t>(n));
    T z{};
    const int in = int(n), ik = int(kd), il = int(ldab);
    int info;
    if constexpr (std::is_same_v<T, float>) info = LAPACKE_ssbev(LAPACK_COL_MAJOR, 'N', 'L', in, ik, ab.data(), il, w.data(), &z, 1);
    else if constexpr (std::is_same_v<T, double>) info = LAPACKE_dsbev(LAPACK_COL_MAJOR, 'N', 'L', in, ik, ab.data(), il, w.data(), &z, 1);
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        info = LAPACKE_chbev(LAPACK_COL_MAJOR, 'N', 'L', in, ik, ab.data(), il, w.data(), &z, 1);
    else info = LAPACKE_zhbev(LAPACK_COL_MAJOR, 'N', 'L', in, ik, ab.data(), il, w.data(), &z, 1);
    EXPECT_EQ(info, 0);
    return w;
}

// A random Hermitian band matrix of order n, bandwidth kd, in lower band storage (ldab = kd + 3)
// and as a dense n×n matrix.
template <class T>
struct Band {
    int64_t n, kd, ldab;
    std::vector<T> ab, dense;
    double norm;  // ‖B‖₁
    Band(int64_t n_, int64_t kd_) : n(n_), kd(kd_), ldab(kd_ + 3) {
        std::mt19937_64 gen(uint64_t(1000 * n + kd + 7));
        ab.assign(size_t(ldab * std::max<int64_t>(n, 1)), T(-99));  // rows beyond the band: never read
        dense.assign(size_t(n * n), T(0));
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = j; i <= std::min(n - 1, j + kd); ++i) {
                T x = testutil::uniform_scalar<T>(gen);
                if (i == j) x = T(std::real(x));
                ab[size_t(i - j + j * ldab)] = x;
                dense[size_t(i + j * n)] = x;
                dense[size_t(j + i * n)] = conjugate(x);
            }
        norm = check::lange('O', n, n, dense.data(), n);
    }
};

// Tri = (d, e) and Q2 of a reduction of b, checked: Tri's eigenvalues (xSTERF) within 10·n·ε·‖B‖
// of xSBEV/xHBEV's; Q2 made explicit by apply_left on the identity (ldq = n + 3), with
// ‖Q2ᴴQ2 − I‖₁/(nε) and ‖B − Q2·Tri·Q2ᴴ‖₁/(n‖B‖₁ε) below 30 (LAPACK's test ratios). Returns Q2.
template <class T>
std::vector<T> checked_explicit_q2(const Band<T>& b, const std::vector<R<T>>& d, const std::vector<R<T>>& e,
                                   const cpu::BandReflectors<T>& q2) {
    const int64_t n = b.n, ldq = n + 3;
    const double eps = std::numeric_limits<R<T>>::epsilon();
    // Eigenvalues: |λ − λref| ≤ 10·n·ε·‖B‖.
    const auto lam = sterf<T>(d, e), ref = hbev<T>(n, b.kd, b.ab, b.ldab);
    for (int64_t i = 0; i < n; ++i) EXPECT_LE(std::abs(lam[size_t(i)] - ref[size_t(i)]), 10 * n * eps * b.norm) << i;

    // Q2 explicit (ldz > n); ‖Q2ᴴQ2 − I‖₁/(nε) and ‖B − Q2·Tri·Q2ᴴ‖₁/(n‖B‖₁ε) below 30.
    std::vector<T> q(size_t(ldq * n), T(0));
    for (int64_t i = 0; i < n; ++i) q[size_t(i + i * ldq)] = T(1);
    q2.apply_left(n, q.data(), ldq);
    if (n == 0) return q;
    std::vector<T> qq(size_t(n * n), T(0));
    for (int64_t i = 0; i < n; ++i) qq[size_t(i + i * n)] = T(-1);
    cpu::gemm<T>(Trans::ConjTrans, Trans::NoTrans, n, n, n, T(1), q.data(), ldq, q.data(), ldq, T(1), qq.data(), n);
    EXPECT_LT(check::lange('O', n, n, qq.data(), n) / (n * eps), 30);
    std::vector<T> w(size_t(n * n), T(0)), res = b.dense;  // w = Q2·Tri
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) {
            T x = q[size_t(i + j * ldq)] * d[size_t(j)];
            if (j > 0) x += q[size_t(i + (j - 1) * ldq)] * e[size_t(j - 1)];
            if (j + 1 < n) x += q[size_t(i + (j + 1) * ldq)] * e[size_t(j)];
            w[size_t(i + j * n)] = x;
        }
    cpu::gemm<T>(Trans::NoTrans, Trans::ConjTrans, n, n, n, T(-1), w.data(), n, q.data(), ldq, T(1), res.data(), n);
    EXPECT_LT(check::lange('O', n, n, res.data(), n) / (n * std::max(b.norm, 1.0) * eps), 30);

    return q;
}

}  // namespace tessera::bandtest
