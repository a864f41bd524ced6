// Scaled residuals of docs/architecture.md#numerical-checks computed with CBLAS/LAPACKE in the working
// precision; seeded test matrices.
#include "examples/common/checks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/blas.hpp"
#include "runtime/precisions.hpp"
#include "tessera/runtime.hpp"

namespace tessera::check {

template <class T>
double eps() {
    return double(std::numeric_limits<real_t<T>>::epsilon()) / 2;
}

template <class T>
double lange(char norm, int64_t m, int64_t n, const T* a, int64_t lda) {
    if (m == 0 || n == 0) return 0;
    // The _work forms: LAPACKE_xlange returns −5 for an array holding a NaN (its NaN check), a
    // negative "norm" that made every residual built from it pass; xLANGE itself propagates NaN.
    std::vector<real_t<T>> work(size_t(norm == 'I' || norm == 'i' ? m : 1));  // the 'I' norm's row sums
    if constexpr (std::is_same_v<T, float>)
        return LAPACKE_slange_work(LAPACK_COL_MAJOR, norm, int(m), int(n), a, int(lda), work.data());
    else if constexpr (std::is_same_v<T, double>)
        return LAPACKE_dlange_work(LAPACK_COL_MAJOR, norm, int(m), int(n), a, int(lda), work.data());
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        return LAPACKE_clange_work(LAPACK_COL_MAJOR, norm, int(m), int(n), a, int(lda), work.data());
    else return LAPACKE_zlange_work(LAPACK_COL_MAJOR, norm, int(m), int(n), a, int(lda), work.data());
}

bool passes(double residual) { return std::isfinite(residual) && residual >= 0 && residual <= kThreshold; }

double ratio(double num, double den) {
    if (!(num >= 0) || !(den >= 0) || std::isinf(den)) return NAN;  // NaN, negative or infinite
    if (num == 0) return 0;
    return den == 0 ? INFINITY : num / den;
}

template <class T>
std::vector<T> random_matrix(int64_t m, int64_t n, int64_t lda, uint64_t seed) {
    std::vector<T> a(size_t(std::max<int64_t>(lda, 1) * std::max<int64_t>(n, 1)));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) a[size_t(i + j * lda)] = random_scalar<T>(seed, uint64_t(i), uint64_t(j));
    return a;
}

template <class T>
std::vector<T> random_spd(int64_t n, int64_t lda, uint64_t seed) {
    std::vector<T> a(size_t(std::max<int64_t>(lda, 1) * std::max<int64_t>(n, 1)));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) a[size_t(i + j * lda)] = random_hpd_entry<T>(seed, uint64_t(i), uint64_t(j), n);
    return a;
}

template <class T>
void generate_random(TileMatrix<T>& A, uint64_t seed, int64_t rows) {
    const int64_t random_rows = rows < 0 ? A.m() : std::min(rows, A.m());
    A.generate([seed, random_rows](int64_t i0, int64_t j0, int64_t m, int64_t n, T* t, int64_t ld) {
        const int64_t mr = std::clamp<int64_t>(random_rows - i0, 0, m);  // the tile's random rows
        for (int64_t j = 0; j < n; ++j) {
            for (int64_t i = 0; i < mr; ++i) t[i + j * ld] = random_scalar<T>(seed, uint64_t(i0 + i), uint64_t(j0 + j));
            std::fill(t + j * ld + mr, t + j * ld + m, T(0));
        }
    });
}

template <class T>
void generate_random_spd(TileMatrix<T>& A, uint64_t seed) {
    check_arg(A.m() == A.n(), "check::generate_random_spd", "A.m()", (long long)A.m(), "must equal A.n()");
    const int64_t order = A.n();
    A.generate([seed, order](int64_t i0, int64_t j0, int64_t m, int64_t n, T* t, int64_t ld) {
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < m; ++i) t[i + j * ld] = random_hpd_entry<T>(seed, uint64_t(i0 + i), uint64_t(j0 + j), order);
    });
}

template <class T>
LapackArray<T> lapack_copy(const TileMatrix<T>& A) {
    if (Runtime::rank() != 0) {  // distributed: the copy is gathered on rank 0 only
        A.to_lapack(nullptr, 0);
        return {};
    }
    const int64_t lda = std::max<int64_t>(A.m(), 1);
    LapackArray<T> a(size_t(lda * std::max<int64_t>(A.n(), 1)));
    A.to_lapack(a.data(), lda);
    return a;
}

template <class T>
static std::vector<T> copy_of(int64_t m, int64_t n, const T* a, int64_t lda) {
    std::vector<T> c(size_t(std::max<int64_t>(lda, 1) * std::max<int64_t>(n, 1)));
    for (int64_t j = 0; j < n; ++j) std::copy(a + j * lda, a + j * lda + m, c.begin() + j * lda);
    return c;
}

// Zero the triangle of the n×n array opposite to uplo (and set a unit diagonal when asked).
template <class T>
static void keep_triangle(Uplo uplo, Diag diag, int64_t n, T* a, int64_t lda) {
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) {
            if (uplo == Uplo::Lower ? i < j : i > j) a[i + j * lda] = T(0);
            if (i == j && diag == Diag::Unit) a[i + j * lda] = T(1);
        }
}

template <class T>
double gemm_residual(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda,
                     const T* b, int64_t ldb, T beta, const T* c0, const T* c, int64_t ldc) {
    if (Runtime::rank() != 0) return 0;  // distributed: rank 0 holds the gathered arrays
    std::vector<T> ref = copy_of(m, n, c0, ldc);
    if (m > 0 && n > 0) cpu::gemm<T>(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, ref.data(), ldc);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) ref[size_t(i + j * ldc)] -= c[i + j * ldc];
    const double na = ta == Trans::NoTrans ? lange('1', m, k, a, lda) : lange('1', k, m, a, lda);
    const double nb = tb == Trans::NoTrans ? lange('1', k, n, b, ldb) : lange('1', n, k, b, ldb);
    const double den = (std::abs(alpha) * na * nb + std::abs(beta) * lange('1', m, n, c0, ldc)) *
                       double(std::max<int64_t>(k, 1)) * eps<T>();
    return ratio(lange('1', m, n, ref.data(), ldc), den);
}

// syrk_residual and herk_residual: the reference by CBLAS's xSYRK or xHERK.
template <class T>
static double rank_k_residual(bool hermitian, Uplo uplo, Trans trans, int64_t n, int64_t k, T alpha, const T* a,
                              int64_t lda, T beta, const T* c0, const T* c, int64_t ldc) {
    if (Runtime::rank() != 0) return 0;  // distributed: rank 0 holds the gathered arrays
    std::vector<T> ref = copy_of(n, n, c0, ldc), diff(size_t(std::max<int64_t>(n, 1) * std::max<int64_t>(n, 1)));
    if (n > 0 && hermitian) cpu::herk<T>(uplo, trans, n, k, std::real(alpha), a, lda, std::real(beta), ref.data(), ldc);
    else if (n > 0) cpu::syrk<T>(uplo, trans, n, k, alpha, a, lda, beta, ref.data(), ldc);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i)
            if (uplo == Uplo::Lower ? i >= j : i <= j) diff[size_t(i + j * n)] = ref[size_t(i + j * ldc)] - c[i + j * ldc];
    const double na = trans == Trans::NoTrans ? lange('1', n, k, a, lda) : lange('1', k, n, a, lda);
    const double den = (std::abs(alpha) * na * na + std::abs(beta) * lange('1', n, n, c0, ldc)) *
                       double(std::max<int64_t>(k, 1)) * eps<T>();
    return ratio(lange('1', n, n, diff.data(), std::max<int64_t>(n, 1)), den);
}

template <class T>
double syrk_residual(Uplo uplo, Trans trans, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, T beta,
                     const T* c0, const T* c, int64_t ldc) {
    return rank_k_residual(false, uplo, trans, n, k, alpha, a, lda, beta, c0, c, ldc);
}

template <class T>
double herk_residual(Uplo uplo, Trans trans, int64_t n, int64_t k, real_t<T> alpha, const T* a, int64_t lda,
                     real_t<T> beta, const T* c0, const T* c, int64_t ldc) {
    return rank_k_residual(true, uplo, trans, n, k, T(alpha), a, lda, T(beta), c0, c, ldc);
}

template <class T>
double trsm_residual(Side side, Uplo uplo, Trans trans, Diag diag, int64_t m, int64_t n, T alpha, const T* a,
                     int64_t lda, const T* b0, const T* x, int64_t ldb) {
    if (Runtime::rank() != 0) return 0;  // distributed: rank 0 holds the gathered arrays
    const int64_t order = side == Side::Left ? m : n;
    std::vector<T> tri = copy_of(order, order, a, lda);
    keep_triangle(uplo, diag, order, tri.data(), lda);
    // r = alpha·B0 − op(A)·X (Left) or alpha·B0 − X·op(A) (Right)
    std::vector<T> r = copy_of(m, n, b0, ldb);
    if (m > 0 && n > 0) {
        if (side == Side::Left) cpu::gemm<T>(trans, Trans::NoTrans, m, n, m, T(-1), tri.data(), lda, x, ldb, alpha, r.data(), ldb);
        else cpu::gemm<T>(Trans::NoTrans, trans, m, n, n, T(-1), x, ldb, tri.data(), lda, alpha, r.data(), ldb);
    }
    const double den = (lange('1', order, order, tri.data(), lda) * lange('1', m, n, x, ldb) +
                        std::abs(alpha) * lange('1', m, n, b0, ldb)) *
                       double(std::max<int64_t>(order, 1)) * eps<T>();
    return ratio(lange('1', m, n, r.data(), ldb), den);
}

template <class T>
double trmm_residual(Side side, Uplo uplo, Trans trans, Diag diag, int64_t m, int64_t n, T alpha, const T* a,
                     int64_t lda, const T* b0, const T* b, int64_t ldb) {
    if (Runtime::rank() != 0) return 0;  // distributed: rank 0 holds the gathered arrays
    const int64_t order = side == Side::Left ? m : n;
    std::vector<T> ref = copy_of(m, n, b0, ldb);
    if (m > 0 && n > 0) cpu::trmm<T>(side, uplo, trans, diag, m, n, alpha, a, lda, ref.data(), ldb);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) ref[size_t(i + j * ldb)] -= b[i + j * ldb];
    std::vector<T> tri = copy_of(order, order, a, lda);
    keep_triangle(uplo, diag, order, tri.data(), lda);
    const double den = std::abs(alpha) * lange('1', order, order, tri.data(), lda) * lange('1', m, n, b0, ldb) *
                       double(std::max<int64_t>(order, 1)) * eps<T>();
    return ratio(lange('1', m, n, ref.data(), ldb), den);
}

template <class T>
double symm_residual(bool hermitian, Side side, Uplo uplo, int64_t m, int64_t n, T alpha, const T* a, int64_t lda,
                     const T* b, int64_t ldb, T beta, const T* c0, const T* c, int64_t ldc) {
    if (Runtime::rank() != 0) return 0;  // distributed: rank 0 holds the gathered arrays
    const int64_t order = side == Side::Left ? m : n;
    std::vector<T> ref = copy_of(m, n, c0, ldc);
    if (m > 0 && n > 0) cpu::symm<T>(hermitian, side, uplo, m, n, alpha, a, lda, b, ldb, beta, ref.data(), ldc);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) ref[size_t(i + j * ldc)] -= c[i + j * ldc];
    // The full A its uplo triangle defines.
    std::vector<T> full = copy_of(order, order, a, lda);
    for (int64_t j = 0; j < order; ++j)
        for (int64_t i = 0; i < order; ++i)
            if (uplo == Uplo::Lower ? i < j : i > j) {
                T t = a[j + i * lda];
                if constexpr (is_complex_v<T>)
                    if (hermitian) t = std::conj(t);
                full[size_t(i + j * lda)] = t;
            }
    const double den = (std::abs(alpha) * lange('1', order, order, full.data(), lda) * lange('1', m, n, b, ldb) +
                        std::abs(beta) * lange('1', m, n, c0, ldc)) *
                       double(std::max<int64_t>(order, 1)) * eps<T>();
    return ratio(lange('1', m, n, ref.data(), ldc), den);
}

template <class T>
double syr2k_residual(bool hermitian, Uplo uplo, Trans trans, int64_t n, int64_t k, T alpha, const T* a,
                      int64_t lda, const T* b, int64_t ldb, T beta, const T* c0, const T* c, int64_t ldc) {
    if (Runtime::rank() != 0) return 0;  // distributed: rank 0 holds the gathered arrays
    std::vector<T> ref = copy_of(n, n, c0, ldc), diff(size_t(std::max<int64_t>(n, 1) * std::max<int64_t>(n, 1)));
    if (n > 0) cpu::syr2k<T>(hermitian, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, ref.data(), ldc);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i)
            if (uplo == Uplo::Lower ? i >= j : i <= j) diff[size_t(i + j * n)] = ref[size_t(i + j * ldc)] - c[i + j * ldc];
    const int64_t rows = trans == Trans::NoTrans ? n : k, cols = trans == Trans::NoTrans ? k : n;
    const double den = (2 * std::abs(alpha) * lange('1', rows, cols, a, lda) * lange('1', rows, cols, b, ldb) +
                        std::abs(beta) * lange('1', n, n, c0, ldc)) *
                       double(std::max<int64_t>(k, 1)) * eps<T>();
    return ratio(lange('1', n, n, diff.data(), std::max<int64_t>(n, 1)), den);
}

template <class T>
double potrf_residual(Uplo uplo, int64_t n, const T* a, int64_t lda, const T* f, int64_t ldf) {
    if (Runtime::rank() != 0) return 0;  // distributed: rank 0 holds the gathered arrays
    if (n == 0) return 0;
    std::vector<T> tri = copy_of(n, n, f, ldf), full = copy_of(n, n, a, lda);
    keep_triangle(uplo, Diag::NonUnit, n, tri.data(), ldf);
    for (int64_t j = 0; j < n; ++j)  // A from its uplo triangle: symmetric, or Hermitian with a real diagonal
        for (int64_t i = 0; i < n; ++i) {
            if (uplo == Uplo::Lower ? i < j : i > j) full[size_t(i + j * lda)] = conjugate(a[j + i * lda]);
            if (i == j) full[size_t(i + j * lda)] = std::real(a[i + j * lda]);
        }
    const double norm_a = lange('1', n, n, full.data(), lda);
    // full = A − L·Lᴴ (or A − Uᴴ·U)
    const Trans h = Trans::ConjTrans;
    if (uplo == Uplo::Lower) cpu::gemm<T>(Trans::NoTrans, h, n, n, n, T(-1), tri.data(), ldf, tri.data(), ldf, T(1), full.data(), lda);
    else cpu::gemm<T>(h, Trans::NoTrans, n, n, n, T(-1), tri.data(), ldf, tri.data(), ldf, T(1), full.data(), lda);
    return ratio(lange('1', n, n, full.data(), lda), double(n) * norm_a * eps<T>());
}

template <class T>
double solve_residual(Trans trans, int64_t m, int64_t n, int64_t nrhs, const T* a, int64_t lda, const T* x,
                      int64_t ldx, const T* b, int64_t ldb) {
    if (Runtime::rank() != 0) return 0;  // distributed: rank 0 holds the gathered arrays
    const int64_t rows = trans == Trans::NoTrans ? m : n, cols = trans == Trans::NoTrans ? n : m;
    std::vector<T> r = copy_of(rows, nrhs, b, ldb);
    if (rows > 0 && nrhs > 0) cpu::gemm<T>(trans, Trans::NoTrans, rows, nrhs, cols, T(-1), a, lda, x, ldx, T(1), r.data(), ldb);
    const double den = (lange('1', m, n, a, lda) * lange('1', cols, nrhs, x, ldx) + lange('1', rows, nrhs, b, ldb)) *
                       double(std::max<int64_t>(std::max(m, n), 1)) * eps<T>();
    return ratio(lange('1', rows, nrhs, r.data(), ldb), den);
}

#define TESSERA_INSTANTIATE(T)                                                                                   \
    template double eps<T>();                                                                                    \
    template double lange(char, int64_t, int64_t, const T*, int64_t);                                            \
    template std::vector<T> random_matrix<T>(int64_t, int64_t, int64_t, uint64_t);                               \
    template std::vector<T> random_spd<T>(int64_t, int64_t, uint64_t);                                           \
    template void generate_random(TileMatrix<T>&, uint64_t, int64_t);                                            \
    template void generate_random_spd(TileMatrix<T>&, uint64_t);                                                 \
    template LapackArray<T> lapack_copy(const TileMatrix<T>&);                                                   \
    template double gemm_residual(Trans, Trans, int64_t, int64_t, int64_t, T, const T*, int64_t, const T*,       \
                                  int64_t, T, const T*, const T*, int64_t);                                      \
    template double syrk_residual(Uplo, Trans, int64_t, int64_t, T, const T*, int64_t, T, const T*, const T*,    \
                                  int64_t);                                                                      \
    template double herk_residual(Uplo, Trans, int64_t, int64_t, real_t<T>, const T*, int64_t, real_t<T>,        \
                                  const T*, const T*, int64_t);                                                  \
    template double trmm_residual(Side, Uplo, Trans, Diag, int64_t, int64_t, T, const T*, int64_t, const T*,     \
                                  const T*, int64_t);                                                            \
    template double symm_residual(bool, Side, Uplo, int64_t, int64_t, T, const T*, int64_t, const T*, int64_t, T, \
                                  const T*, const T*, int64_t);                                                  \
    template double syr2k_residual(bool, Uplo, Trans, int64_t, int64_t, T, const T*, int64_t, const T*, int64_t, \
                                   T, const T*, const T*, int64_t);                                              \
    template double trsm_residual(Side, Uplo, Trans, Diag, int64_t, int64_t, T, const T*, int64_t, const T*,     \
                                  const T*, int64_t);                                                            \
    template double potrf_residual(Uplo, int64_t, const T*, int64_t, const T*, int64_t);                         \
    template double solve_residual(Trans, int64_t, int64_t, int64_t, const T*, int64_t, const T*, int64_t,       \
                                   const T*, int64_t);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::check
