// LAPACK-layout forms of the mixed-precision solvers (tessera/mixed.hpp): DSPOSV, ZCPOSV, DSGESV
// and ZCGESV with LAPACK's arguments, on the tile algorithms of mixed.cpp.
#include <algorithm>

#include "algorithms/common.hpp"
#include "tessera/mixed.hpp"

namespace tessera::lapack {

namespace {

template <class T>
int64_t posv_mixed(const char* func, char uplo, int64_t n, int64_t nrhs, T* a, int64_t lda, const T* b,
                   int64_t ldb, T* x, int64_t ldx, int64_t& iter, const Options& opts) {
    const Uplo u = uplo_from_char(uplo);
    check_dim(func, "n", n);
    check_dim(func, "nrhs", nrhs);
    const Options o = detail::with_tuned_nb<T>(opts, "potrf", func, std::max(n, nrhs));
    auto A = detail::lapack_tiles(a, lda, n, n, o, func, "lda");
    auto B = detail::lapack_tiles(b, ldb, n, nrhs, o, func, "ldb");
    auto X = detail::lapack_tiles(static_cast<const T*>(x), ldx, n, nrhs, o, func, "ldx");
    const int64_t info = tessera::posv_mixed(u, A, B, X, iter);
    detail::lapack_result(A, a, lda);
    detail::lapack_result(X, x, ldx);
    return info;
}

template <class T>
int64_t gesv_mixed(const char* func, int64_t n, int64_t nrhs, T* a, int64_t lda, int64_t* ipiv, const T* b,
                   int64_t ldb, T* x, int64_t ldx, int64_t& iter, const Options& opts) {
    check_dim(func, "n", n);
    check_dim(func, "nrhs", nrhs);
    check_arg(ipiv != nullptr || n == 0, func, "ipiv", 0, "must not be null");
    const Options o = detail::with_tuned_nb<T>(opts, "getrf", func, std::max(n, nrhs));
    auto A = detail::lapack_tiles(a, lda, n, n, o, func, "lda");
    auto B = detail::lapack_tiles(b, ldb, n, nrhs, o, func, "ldb");
    auto X = detail::lapack_tiles(static_cast<const T*>(x), ldx, n, nrhs, o, func, "ldx");
    std::vector<int64_t> piv;
    const int64_t info = tessera::gesv_mixed(A, piv, B, X, iter);
    detail::lapack_result(A, a, lda);
    detail::lapack_result(X, x, ldx);
    std::copy(piv.begin(), piv.end(), ipiv);
    return info;
}

}  // namespace

int64_t dsposv(char uplo, int64_t n, int64_t nrhs, double* a, int64_t lda, const double* b, int64_t ldb, double* x,
               int64_t ldx, int64_t& iter, const Options& opts) {
    return posv_mixed("lapack::dsposv", uplo, n, nrhs, a, lda, b, ldb, x, ldx, iter, opts);
}

int64_t zcposv(char uplo, int64_t n, int64_t nrhs, std::complex<double>* a, int64_t lda, const std::complex<double>* b,
               int64_t ldb, std::complex<double>* x, int64_t ldx, int64_t& iter, const Options& opts) {
    return posv_mixed("lapack::zcposv", uplo, n, nrhs, a, lda, b, ldb, x, ldx, iter, opts);
}

int64_t dsgesv(int64_t n, int64_t nrhs, double* a, int64_t lda, int64_t* ipiv, const double* b, int64_t ldb, double* x,
               int64_t ldx, int64_t& iter, const Options& opts) {
    return gesv_mixed("lapack::dsgesv", n, nrhs, a, lda, ipiv, b, ldb, x, ldx, iter, opts);
}

int64_t zcgesv(int64_t n, int64_t nrhs, std::complex<double>* a, int64_t lda, int64_t* ipiv,
               const std::complex<double>* b, int64_t ldb, std::complex<double>* x, int64_t ldx, int64_t& iter,
               const Options& opts) {
    return gesv_mixed("lapack::zcgesv", n, nrhs, a, lda, ipiv, b, ldb, x, ldx, iter, opts);
}

}  // namespace tessera::lapack
