// lapack::gesdd and lapack::gesvd: xGESDD's and xGESVD's arguments on LAPACK column-major arrays,
// over tessera::gesdd / gesvd (tessera/svd.hpp).
#include <algorithm>
#include <cctype>
#include <memory>
#include <string>

#include "algorithms/common.hpp"
#include "runtime/precisions.hpp"
#include "tessera/svd.hpp"

namespace tessera::lapack {

namespace {

// What one side's vectors become: 'N' none, 'S' the min(m, n) leading ones, 'A' all, 'O' the
// leading ones into a.
char side_job(char c, const char* func, const char* arg) {
    const char j = char(std::toupper(static_cast<unsigned char>(c)));
    check_char_arg(j == 'N' || j == 'S' || j == 'A' || j == 'O', func, arg, c, "must be 'N', 'S', 'A' or 'O'");
    return j;
}

// The SVD with U's job ujob and Vᴴ's job vjob (side_job's letters), LAPACK's leading-dimension rules.
template <class T>
int64_t svd_lapack(bool divide_and_conquer, char ujob, char vjob, int64_t m, int64_t n, T* a, int64_t lda,
                   real_t<T>* s, T* u, int64_t ldu, T* vt, int64_t ldvt, const Options& opts, const char* func) {
    check_dim(func, "m", m);
    check_dim(func, "n", n);
    const int64_t k = std::min(m, n);
    check_arg(lda >= std::max<int64_t>(1, m), func, "lda", lda, "must be >= max(1, m)");
    const bool u_array = ujob == 'S' || ujob == 'A', vt_array = vjob == 'S' || vjob == 'A';
    check_arg(ldu >= 1 && (!u_array || ldu >= m), func, "ldu", ldu, "must be >= 1, and >= m when u is referenced");
    check_arg(ldvt >= 1 && (vjob != 'A' || ldvt >= n) && (vjob != 'S' || ldvt >= k), func, "ldvt", ldvt,
              "must be >= 1, >= n for all of Vᴴ, >= min(m, n) for its leading rows");
    check_arg(s != nullptr || k == 0, func, "s", 0, "must not be null");
    Options o = detail::with_tuned_nb<T>(opts, "geqrf", func, std::max(m, n));
    if (opts.nb == 0) o.nb = gesvd_nb<T>(m, n);
    // U and Vᴴ in their arrays, or (job 'O') in tile matrices copied into a at the end.
    std::unique_ptr<TileMatrix<T>> U, VT;
    if (u_array) U = std::make_unique<TileMatrix<T>>(detail::lapack_output_tiles(u, ldu, m, ujob == 'A' ? m : k, o,
                                                                                 func, "ldu"));
    else if (ujob == 'O') U = std::make_unique<TileMatrix<T>>(m, k, o.nb);
    if (vt_array) VT = std::make_unique<TileMatrix<T>>(detail::lapack_output_tiles(vt, ldvt, vjob == 'A' ? n : k, n,
                                                                                   o, func, "ldvt"));
    else if (vjob == 'O') VT = std::make_unique<TileMatrix<T>>(k, n, o.nb);
    std::vector<real_t<T>> values;
    int64_t info;
    {  // A (perhaps a view of a) is gone before 'O' overwrites a
        auto A = detail::lapack_tiles(static_cast<const T*>(a), lda, m, n, o, func, "lda");
        info = divide_and_conquer ? tessera::gesdd(A, values, U.get(), VT.get())
                                  : tessera::gesvd(A, values, U.get(), VT.get());
    }
    std::copy(values.begin(), values.end(), s);
    if (U) {
        if (ujob == 'O') U->to_lapack(a, lda);
        else detail::lapack_result(*U, u, ldu);
    }
    if (VT) {
        if (vjob == 'O') VT->to_lapack(a, lda);
        else detail::lapack_result(*VT, vt, ldvt);
    }
    return info;
}

}  // namespace

template <class T>
int64_t gesdd(char jobz, int64_t m, int64_t n, T* a, int64_t lda, real_t<T>* s, T* u, int64_t ldu, T* vt,
              int64_t ldvt, const Options& opts) {
    const char* func = "lapack::gesdd";
    const char j = side_job(jobz, func, "jobz");
    char ujob = j, vjob = j;
    if (j == 'O') (m >= n ? vjob : ujob) = 'A';  // the other side in full, as xGESDD
    return svd_lapack(true, ujob, vjob, m, n, a, lda, s, u, ldu, vt, ldvt, opts, func);
}

template <class T>
int64_t gesvd(char jobu, char jobvt, int64_t m, int64_t n, T* a, int64_t lda, real_t<T>* s, T* u, int64_t ldu,
              T* vt, int64_t ldvt, const Options& opts) {
    const char* func = "lapack::gesvd";
    const char ujob = side_job(jobu, func, "jobu"), vjob = side_job(jobvt, func, "jobvt");
    check_char_arg(!(ujob == 'O' && vjob == 'O'), func, "jobvt", jobvt, "must not be 'O' when jobu is 'O'");
    return svd_lapack(false, ujob, vjob, m, n, a, lda, s, u, ldu, vt, ldvt, opts, func);
}

#define TESSERA_INSTANTIATE(T)                                                                                   \
    template int64_t gesdd(char, int64_t, int64_t, T*, int64_t, real_t<T>*, T*, int64_t, T*, int64_t,          \
                           const Options&);                                                                      \
    template int64_t gesvd(char, char, int64_t, int64_t, T*, int64_t, real_t<T>*, T*, int64_t, T*, int64_t, \
                           const Options&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::lapack
