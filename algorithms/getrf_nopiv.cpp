// Tile LU without pivoting: LU of the diagonal tile, trsm of its column and row, gemm update.
// getrs_nopiv / gesv_nopiv solve with it. For matrices that need no pivoting (diagonally dominant).
#include <algorithm>

#include "algorithms/common.hpp"
#include "codelets/tasks.hpp"
#include "codelets/tasks_lu.hpp"
#include "tessera/blas3.hpp"
#include "tessera/lu.hpp"
#include "runtime/precisions.hpp"

namespace tessera {

template <class T>
void getrf_nopiv_async(TileMatrix<T>& A, Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime("getrf_nopiv");
    const int64_t mt = A.mt(), nt = A.nt(), kt = std::min(mt, nt);
    // Critical path first: the diagonal tile, then its column and row, then the next diagonal tile's
    // update ahead of the rest of the trailing matrix.
    auto prio = [kt](int64_t k, int64_t dist) { return int(3 * (kt - k) - dist); };
    for (int64_t k = 0; k < kt; ++k) {
        tasks::getrf_nopiv<T>(A.handle(k, k), detail::info_slot(k * A.nb()), prio(k, 0));
        for (int64_t i = k + 1; i < mt; ++i)
            tasks::trsm<T>(Side::Right, Uplo::Upper, Trans::NoTrans, Diag::NonUnit, T(1), A.handle(k, k), A.handle(i, k),
                           prio(k, i == k + 1 ? 1 : 2));
        for (int64_t j = k + 1; j < nt; ++j)
            tasks::trsm<T>(Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, T(1), A.handle(k, k), A.handle(k, j),
                           prio(k, j == k + 1 ? 1 : 2));
        for (int64_t j = k + 1; j < nt; ++j)
            for (int64_t i = k + 1; i < mt; ++i)
                tasks::gemm<T>(Trans::NoTrans, Trans::NoTrans, T(-1), A.handle(i, k), A.handle(k, j), T(1), A.handle(i, j),
                               prio(k, i == k + 1 && j == k + 1 ? 2 : 4));
        // Step k's column and row are used no more.
        for (int64_t i = k; i < mt; ++i) detail::mpi_flush(A.handle(i, k));
        for (int64_t j = k + 1; j < nt; ++j) detail::mpi_flush(A.handle(k, j));
    }
}

template <class T>
int64_t getrf_nopiv(TileMatrix<T>& A) {
    Sequence seq;
    getrf_nopiv_async(A, seq);
    return seq.wait();
}

template <class T>
void getrs_nopiv_async(Trans trans, const TileMatrix<T>& A, TileMatrix<T>& B, Sequence& seq) {
    detail::SubmitScope scope(seq);
    check_arg(A.m() == A.n(), "getrs_nopiv", "A", A.m(), "rows must equal columns");
    check_arg(B.m() == A.n(), "getrs_nopiv", "B", B.m(), "rows must equal the order of A");
    if (trans == Trans::NoTrans) {
        trsm_async(Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, T(1), A, B, seq);
        trsm_async(Side::Left, Uplo::Upper, Trans::NoTrans, Diag::NonUnit, T(1), A, B, seq);
    } else {
        trsm_async(Side::Left, Uplo::Upper, trans, Diag::NonUnit, T(1), A, B, seq);
        trsm_async(Side::Left, Uplo::Lower, trans, Diag::Unit, T(1), A, B, seq);
    }
}

template <class T>
void getrs_nopiv(Trans trans, const TileMatrix<T>& A, TileMatrix<T>& B) {
    Sequence seq;
    getrs_nopiv_async(trans, A, B, seq);
    seq.wait();
}

template <class T>
void gesv_nopiv_async(TileMatrix<T>& A, TileMatrix<T>& B, Sequence& seq) {
    detail::SubmitScope scope(seq);
    check_arg(A.m() == A.n(), "gesv_nopiv", "A", A.m(), "rows must equal columns");
    check_arg(B.m() == A.n(), "gesv_nopiv", "B", B.m(), "rows must equal the order of A");
    getrf_nopiv_async(A, seq);
    getrs_nopiv_async(Trans::NoTrans, A, B, seq);
}

template <class T>
int64_t gesv_nopiv(TileMatrix<T>& A, TileMatrix<T>& B) {
    check_arg(A.m() == A.n(), "gesv_nopiv", "A", A.m(), "rows must equal columns");
    check_arg(B.m() == A.n(), "gesv_nopiv", "B", B.m(), "rows must equal the order of A");
    const int64_t info = getrf_nopiv(A);
    if (info == 0) getrs_nopiv(Trans::NoTrans, A, B);
    return info;
}

namespace lapack {

template <class T>
int64_t getrf_nopiv(int64_t m, int64_t n, T* a, int64_t lda, const Options& opts) {
    check_dims("lapack::getrf_nopiv", m, n, 0);
    const Options o = detail::with_tuned_nb<T>(opts, "getrf", "lapack::getrf_nopiv", std::max(m, n));
    auto A = detail::lapack_tiles(a, lda, m, n, o, "lapack::getrf_nopiv", "lda");
    const int64_t info = tessera::getrf_nopiv(A);
    detail::lapack_result(A, a, lda);
    return info;
}

template <class T>
int64_t gesv_nopiv(int64_t n, int64_t nrhs, T* a, int64_t lda, T* b, int64_t ldb, const Options& opts) {
    check_dims("lapack::gesv_nopiv", n, nrhs, 0);
    const Options o = detail::with_tuned_nb<T>(opts, "getrf", "lapack::gesv_nopiv", std::max(n, nrhs));
    auto A = detail::lapack_tiles(a, lda, n, n, o, "lapack::gesv_nopiv", "lda");
    auto B = detail::lapack_tiles(b, ldb, n, nrhs, o, "lapack::gesv_nopiv", "ldb");
    const int64_t info = tessera::gesv_nopiv(A, B);
    detail::lapack_result(A, a, lda);
    if (info == 0) detail::lapack_result(B, b, ldb);
    return info;
}

}  // namespace lapack

#define TESSERA_INSTANTIATE(T)                                                                             \
    template void getrf_nopiv_async(TileMatrix<T>&, Sequence&);                                            \
    template int64_t getrf_nopiv(TileMatrix<T>&);                                                          \
    template void getrs_nopiv_async(Trans, const TileMatrix<T>&, TileMatrix<T>&, Sequence&);               \
    template void getrs_nopiv(Trans, const TileMatrix<T>&, TileMatrix<T>&);                                \
    template void gesv_nopiv_async(TileMatrix<T>&, TileMatrix<T>&, Sequence&);                             \
    template int64_t gesv_nopiv(TileMatrix<T>&, TileMatrix<T>&);                                           \
    template int64_t lapack::getrf_nopiv(int64_t, int64_t, T*, int64_t, const Options&);                   \
    template int64_t lapack::gesv_nopiv(int64_t, int64_t, T*, int64_t, T*, int64_t, const Options&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
