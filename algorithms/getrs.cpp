// Solves with the partial-pivoting LU: getrs (op(A)·X = B) and gesv, tile and LAPACK-layout forms.
#include <algorithm>
#include <vector>

#include "algorithms/common.hpp"
#include "codelets/tasks_lu.hpp"
#include "tessera/blas3.hpp"
#include "tessera/lu.hpp"
#include "runtime/mpi_internal.hpp"
#include "runtime/precisions.hpp"

namespace tessera {

namespace {

// B = P·B (forward) or Pᵀ·B (backward) with getrf's pivots, one laswp task per column of B's tiles.
// In one process each task also reads A's diagonal tiles: panel k writes tile (k, k) last, so the
// task runs only once every pivot is known (getrs may follow getrf_async without a wait).
// Distributed, a rank's ipiv is complete once getrf's sequence has been waited (its pivots come
// from the ranks that factored each panel, apart from the tiles): getrs needs that wait, and the
// tasks read no diagonal tile (each would travel to the rank of every column of B).
template <class T>
void permute_rows(const TileMatrix<T>& A, const std::vector<int64_t>& ipiv, TileMatrix<T>& B, bool forward, int prio) {
    std::vector<TileHandle> diag;
    if (!detail::distributed())
        for (int64_t k = 0; k < std::min(A.mt(), A.nt()); ++k) diag.push_back(A.handle(k, k));
    for (int64_t j = 0; j < B.nt(); ++j) {
        std::vector<TileHandle> column;
        for (int64_t i = 0; i < B.mt(); ++i) column.push_back(B.handle(i, j));
        tasks::laswp<T>(column, 0, ipiv.data(), 0, int64_t(ipiv.size()), forward, diag, prio);
    }
}

template <class T>
void check_getrs(const char* func, const TileMatrix<T>& A, const std::vector<int64_t>& ipiv, const TileMatrix<T>& B) {
    check_arg(A.m() == A.n(), func, "A", A.m(), "rows must equal columns");
    check_arg(B.m() == A.n(), func, "B", B.m(), "rows must equal the order of A");
    check_arg(A.nb() == B.nb(), func, "nb", B.nb(), "must be the same for A and B");
    check_arg(int64_t(ipiv.size()) == A.n(), func, "ipiv", int64_t(ipiv.size()), "length must equal the order of A");
}

}  // namespace

template <class T>
void getrs_async(Trans trans, const TileMatrix<T>& A, const std::vector<int64_t>& ipiv, TileMatrix<T>& B,
                 Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime("getrs");
    check_getrs("getrs", A, ipiv, B);
    if (A.n() == 0 || B.n() == 0) return;
    if (trans == Trans::NoTrans) {  // A = P·L·U: X = U⁻¹·L⁻¹·P·B (P applied as LAPACK's sequential interchanges)
        permute_rows(A, ipiv, B, true, 1);
        trsm_async(Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, T(1), A, B, seq);
        trsm_async(Side::Left, Uplo::Upper, Trans::NoTrans, Diag::NonUnit, T(1), A, B, seq);
    } else {  // op(A) = op(U)·op(L)·Pᵀ: X = P·op(L)⁻¹·op(U)⁻¹·B (interchanges backward), op = ᵀ or ᴴ
        trsm_async(Side::Left, Uplo::Upper, trans, Diag::NonUnit, T(1), A, B, seq);
        trsm_async(Side::Left, Uplo::Lower, trans, Diag::Unit, T(1), A, B, seq);
        permute_rows(A, ipiv, B, false, 0);
    }
}

template <class T>
void getrs(Trans trans, const TileMatrix<T>& A, const std::vector<int64_t>& ipiv, TileMatrix<T>& B) {
    Sequence seq;
    getrs_async(trans, A, ipiv, B, seq);
    seq.wait();
}

template <class T>
void gesv_async(TileMatrix<T>& A, std::vector<int64_t>& ipiv, TileMatrix<T>& B, Sequence& seq) {
    detail::SubmitScope scope(seq);
    // Distributed, getrs needs getrf's sequence waited first (permute_rows): call gesv.
    detail::require_one_process("gesv_async");
    check_arg(A.m() == A.n(), "gesv", "A", A.m(), "rows must equal columns");
    check_arg(B.m() == A.n(), "gesv", "B", B.m(), "rows must equal the order of A");
    check_arg(A.nb() == B.nb(), "gesv", "nb", B.nb(), "must be the same for A and B");
    getrf_async(A, ipiv, seq);
    getrs_async(Trans::NoTrans, A, ipiv, B, seq);
}

template <class T>
int64_t gesv(TileMatrix<T>& A, std::vector<int64_t>& ipiv, TileMatrix<T>& B) {
    check_arg(A.m() == A.n(), "gesv", "A", A.m(), "rows must equal columns");
    check_arg(B.m() == A.n(), "gesv", "B", B.m(), "rows must equal the order of A");
    check_arg(A.nb() == B.nb(), "gesv", "nb", B.nb(), "must be the same for A and B");
    const int64_t info = getrf(A, ipiv);
    if (info == 0) getrs(Trans::NoTrans, A, ipiv, B);
    return info;
}

namespace lapack {

template <class T>
void getrs(char trans, int64_t n, int64_t nrhs, const T* a, int64_t lda, const int64_t* ipiv, T* b, int64_t ldb,
           const Options& opts) {
    const Trans t = trans_from_char(trans);
    check_dims("lapack::getrs", n, nrhs, 0);
    check_arg(ipiv != nullptr || n == 0, "lapack::getrs", "ipiv", 0, "must not be null");
    detail::check_pivots("lapack::getrs", ipiv, n);
    const Options o = detail::with_tuned_nb<T>(opts, "getrf", "lapack::getrs", std::max(n, nrhs));
    auto A = detail::lapack_tiles(a, lda, n, n, o, "lapack::getrs", "lda");
    auto B = detail::lapack_tiles(b, ldb, n, nrhs, o, "lapack::getrs", "ldb");
    const std::vector<int64_t> piv(ipiv, ipiv + n);
    tessera::getrs(t, A, piv, B);
    detail::lapack_result(B, b, ldb);
}

template <class T>
int64_t gesv(int64_t n, int64_t nrhs, T* a, int64_t lda, int64_t* ipiv, T* b, int64_t ldb, const Options& opts) {
    check_dims("lapack::gesv", n, nrhs, 0);
    check_arg(ipiv != nullptr || n == 0, "lapack::gesv", "ipiv", 0, "must not be null");
    const Options o = detail::with_tuned_nb<T>(opts, "getrf", "lapack::gesv", std::max(n, nrhs));
    auto A = detail::lapack_tiles(a, lda, n, n, o, "lapack::gesv", "lda");
    auto B = detail::lapack_tiles(b, ldb, n, nrhs, o, "lapack::gesv", "ldb");
    std::vector<int64_t> piv;
    const int64_t info = tessera::gesv(A, piv, B);
    detail::lapack_result(A, a, lda);
    std::copy(piv.begin(), piv.end(), ipiv);
    if (info == 0) detail::lapack_result(B, b, ldb);
    return info;
}

}  // namespace lapack

#define TESSERA_INSTANTIATE(T)                                                                                  \
    template void getrs_async(Trans, const TileMatrix<T>&, const std::vector<int64_t>&, TileMatrix<T>&,         \
                              Sequence&);                                                                       \
    template void getrs(Trans, const TileMatrix<T>&, const std::vector<int64_t>&, TileMatrix<T>&);              \
    template void gesv_async(TileMatrix<T>&, std::vector<int64_t>&, TileMatrix<T>&, Sequence&);                 \
    template int64_t gesv(TileMatrix<T>&, std::vector<int64_t>&, TileMatrix<T>&);                               \
    template void lapack::getrs(char, int64_t, int64_t, const T*, int64_t, const int64_t*, T*, int64_t,         \
                                const Options&);                                                                \
    template int64_t lapack::gesv(int64_t, int64_t, T*, int64_t, int64_t*, T*, int64_t, const Options&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
