// Scaled residuals of tile QR and least squares, computed with CBLAS/LAPACKE.
#include "examples/common/checks_qr.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/cpu/blas.hpp"
#include "runtime/precisions.hpp"
#include "tessera/runtime.hpp"

namespace tessera::check {
namespace {

template <class T>
std::vector<T> zeros(int64_t ld, int64_t n) {
    return std::vector<T>(size_t(std::max<int64_t>(ld, 1) * std::max<int64_t>(n, 1)), T(0));
}

}  // namespace

template <class T>
double qr_residual(int64_t m, int64_t n, const T* a, int64_t lda, const T* q, int64_t ldq, const T* f, int64_t ldf) {
    if (Runtime::rank() != 0) return 0;  // distributed: rank 0 holds the gathered arrays
    if (m == 0 || n == 0) return 0;
    const int64_t k = std::min(m, n);
    auto r = zeros<T>(k, n);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i <= std::min(j, k - 1); ++i) r[size_t(i + j * k)] = f[i + j * ldf];
    auto diff = zeros<T>(m, n);
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) diff[size_t(i + j * m)] = a[i + j * lda];
    cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, m, n, k, T(-1), q, ldq, r.data(), k, T(1), diff.data(), m);
    return ratio(lange('1', m, n, diff.data(), m), double(m) * lange('1', m, n, a, lda) * eps<T>());
}

template <class T>
double orthogonality_residual(int64_t m, int64_t k, const T* q, int64_t ldq) {
    if (Runtime::rank() != 0) return 0;  // distributed: rank 0 holds the gathered arrays
    if (m == 0 || k == 0) return 0;
    auto g = zeros<T>(k, k);
    for (int64_t i = 0; i < k; ++i) g[size_t(i + i * k)] = T(1);
    cpu::gemm<T>(Trans::ConjTrans, Trans::NoTrans, k, k, m, T(-1), q, ldq, q, ldq, T(1), g.data(), k);
    return ratio(lange('1', k, k, g.data(), k), double(m) * eps<T>());
}

template <class T>
double unmqr_residual(Side side, Trans trans, int64_t m, const T* q, int64_t ldq, int64_t rows, int64_t cols,
                      const T* c0, const T* c, int64_t ldc) {
    if (Runtime::rank() != 0) return 0;  // distributed: rank 0 holds the gathered arrays
    if (rows == 0 || cols == 0) return 0;
    auto diff = zeros<T>(rows, cols);
    for (int64_t j = 0; j < cols; ++j)
        for (int64_t i = 0; i < rows; ++i) diff[size_t(i + j * rows)] = c[i + j * ldc];
    if (side == Side::Left)
        cpu::gemm<T>(trans, Trans::NoTrans, rows, cols, m, T(-1), q, ldq, c0, ldc, T(1), diff.data(), rows);
    else
        cpu::gemm<T>(Trans::NoTrans, trans, rows, cols, m, T(-1), c0, ldc, q, ldq, T(1), diff.data(), rows);
    return ratio(lange('1', rows, cols, diff.data(), rows), double(m) * lange('1', rows, cols, c0, ldc) * eps<T>());
}

template <class T>
double least_squares_residual(Trans trans, int64_t m, int64_t n, int64_t nrhs, const T* a, int64_t lda, const T* x,
                              int64_t ldx, const T* b, int64_t ldb) {
    if (Runtime::rank() != 0) return 0;  // distributed: rank 0 holds the gathered arrays
    const bool nt = trans == Trans::NoTrans;
    const int64_t rows = nt ? m : n, cols = nt ? n : m;
    if (rows == 0 || cols == 0 || nrhs == 0) return 0;
    auto r = zeros<T>(rows, nrhs), g = zeros<T>(cols, nrhs);
    for (int64_t j = 0; j < nrhs; ++j)
        for (int64_t i = 0; i < rows; ++i) r[size_t(i + j * rows)] = b[i + j * ldb];
    const Trans other = nt ? Trans::ConjTrans : Trans::NoTrans;
    cpu::gemm<T>(trans, Trans::NoTrans, rows, nrhs, cols, T(-1), a, lda, x, ldx, T(1), r.data(), rows);
    cpu::gemm<T>(other, Trans::NoTrans, cols, nrhs, rows, T(1), a, lda, r.data(), rows, T(0), g.data(), cols);
    const double den = lange('1', m, n, a, lda) * lange('1', rows, nrhs, r.data(), rows) * double(cols) * eps<T>();
    return ratio(lange('1', cols, nrhs, g.data(), cols), den);
}

template <class T>
double agreement(int64_t rows, int64_t cols, const T* x, int64_t ldx, const T* xref, int64_t ldref, int64_t scale) {
    if (Runtime::rank() != 0) return 0;  // distributed: rank 0 holds the gathered arrays
    if (rows == 0 || cols == 0) return 0;
    auto diff = zeros<T>(rows, cols);
    for (int64_t j = 0; j < cols; ++j)
        for (int64_t i = 0; i < rows; ++i) diff[size_t(i + j * rows)] = x[i + j * ldx] - xref[i + j * ldref];
    const double den = lange('1', rows, cols, xref, ldref) * double(std::max<int64_t>(scale, 1)) * eps<T>();
    return ratio(lange('1', rows, cols, diff.data(), rows), den);
}

template <class T>
std::vector<T> lapacke_gels(Trans trans, int64_t m, int64_t n, int64_t nrhs, const T* a, int64_t lda, const T* b,
                            int64_t ldb, int* info) {
    const size_t xsize = size_t(std::max<int64_t>(ldb, 1) * std::max<int64_t>(nrhs, 1));
    std::vector<T> acopy = reference_copy(a, size_t(std::max<int64_t>(lda, 1) * std::max<int64_t>(n, 1)));
    std::vector<T> x = reference_copy(b, xsize);
    const char t = cpu::lapack_trans<T>(trans);
    const int im = int(m), in = int(n), inrhs = int(nrhs), ilda = int(lda), ildb = int(ldb);
    if constexpr (std::is_same_v<T, float>)
        *info = LAPACKE_sgels(LAPACK_COL_MAJOR, t, im, in, inrhs, acopy.data(), ilda, x.data(), ildb);
    else if constexpr (std::is_same_v<T, double>)
        *info = LAPACKE_dgels(LAPACK_COL_MAJOR, t, im, in, inrhs, acopy.data(), ilda, x.data(), ildb);
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        *info = LAPACKE_cgels(LAPACK_COL_MAJOR, t, im, in, inrhs, acopy.data(), ilda, x.data(), ildb);
    else
        *info = LAPACKE_zgels(LAPACK_COL_MAJOR, t, im, in, inrhs, acopy.data(), ilda, x.data(), ildb);
    x.resize(xsize);
    return x;
}

#define TESSERA_INSTANTIATE(T)                                                                                    \
    template double qr_residual(int64_t, int64_t, const T*, int64_t, const T*, int64_t, const T*, int64_t);      \
    template double orthogonality_residual(int64_t, int64_t, const T*, int64_t);                                 \
    template double unmqr_residual(Side, Trans, int64_t, const T*, int64_t, int64_t, int64_t, const T*, const T*, \
                                   int64_t);                                                                      \
    template double least_squares_residual(Trans, int64_t, int64_t, int64_t, const T*, int64_t, const T*, int64_t, \
                                           const T*, int64_t);                                                    \
    template double agreement(int64_t, int64_t, const T*, int64_t, const T*, int64_t, int64_t);                   \
    template std::vector<T> lapacke_gels(Trans, int64_t, int64_t, int64_t, const T*, int64_t, const T*, int64_t, int*);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::check
