// Residuals of a computed solution X of A·X ≈ B on LAPACK column-major arrays, in the precision
// the system was solved in (s, d, c or z), as docs/architecture.md#numerical-checks defines them; norms of
// complex arrays are taken on the moduli of their entries (LAPACK's xLANGE). Header-only; shared by
// tessera-solve and the airport applications.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

#include "examples/common/checks.hpp"
#include "kernels/cpu/blas.hpp"

namespace tessera::solve {

/// Backward error ‖B − A·X‖ / ((‖A‖·‖X‖ + ‖B‖)·max(m, n)·eps) in 1-norms; A m×n, X n×nrhs, B m×nrhs.
template <class T>
double backward_error(int64_t m, int64_t n, int64_t nrhs, const T* a, int64_t lda, const T* x, int64_t ldx,
                      const T* b, int64_t ldb) {
    return check::solve_residual(Trans::NoTrans, m, n, nrhs, a, lda, x, ldx, b, ldb);
}

/// Least-squares optimality ‖Aᴴ·(B − A·X)‖ / (‖A‖·‖B − A·X‖·max(m, n)·eps) in 1-norms (Aᴴ is Aᵀ
/// for real T): small when the residual is orthogonal to A's columns. 0 when B − A·X vanishes. Meaningless (large) when
/// B − A·X is itself at rounding level, as for a consistent system; see backward_error then.
template <class T>
double ls_orthogonality(int64_t m, int64_t n, int64_t nrhs, const T* a, int64_t lda, const T* x, int64_t ldx,
                        const T* b, int64_t ldb) {
    if (m == 0 || n == 0 || nrhs == 0) return 0;
    std::vector<T> r(size_t(m * nrhs)), atr(size_t(n * nrhs));
    for (int64_t j = 0; j < nrhs; ++j)
        for (int64_t i = 0; i < m; ++i) r[size_t(i + j * m)] = b[i + j * ldb];
    cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, m, nrhs, n, T(-1), a, lda, x, ldx, T(1), r.data(), m);
    cpu::gemm<T>(Trans::ConjTrans, Trans::NoTrans, n, nrhs, m, T(1), a, lda, r.data(), m, T(0), atr.data(), n);
    const double num = check::lange('1', n, nrhs, atr.data(), n);
    const double den = check::lange('1', m, n, a, lda) * check::lange('1', m, nrhs, r.data(), m) *
                       double(std::max(m, n)) * check::eps<T>();
    return check::ratio(num, den);
}

/// ‖x − y‖ / ‖y‖ over `count` entries in the 2-norm, accumulated in double (|·|² of complex entries).
template <class T, class U>
double relative_difference(int64_t count, const T* x, const U* y) {
    double num = 0, den = 0;
    for (int64_t i = 0; i < count; ++i) {
        const std::complex<double> xi(x[i]), yi(y[i]);
        num += std::norm(xi - yi);
        den += std::norm(yi);
    }
    return den == 0 ? std::sqrt(num) : std::sqrt(num / den);
}

/// Whether every entry is finite (both parts of a complex one).
template <class T>
bool all_finite(const std::vector<T>& v) {
    return std::all_of(v.begin(), v.end(),
                       [](T e) { return std::isfinite(double(std::real(e))) && std::isfinite(double(std::imag(e))); });
}

}  // namespace tessera::solve
