// Tile LU with incremental pivoting (Buttari, Langou, Kurzak, Dongarra 2009, algorithm 2): per step
// k, getrf of the diagonal tile, gessm along row k, tstrf down column k, ssssm on the trailing
// pairs; and the matching solve (getrs_incpiv) and gesv_incpiv.
#include <algorithm>

#include "algorithms/common.hpp"
#include "codelets/tasks.hpp"
#include "codelets/tasks_lu.hpp"
#include "tessera/blas3.hpp"
#include "tessera/lu.hpp"
#include "runtime/precisions.hpp"

namespace tessera {

template <class T>
void getrf_incpiv_async(TileMatrix<T>& A, IncpivFactors<T>& F, Sequence& seq, const Options& opts) {
    detail::SubmitScope scope(seq);
    detail::require_runtime("getrf_incpiv");
    const int64_t mt = A.mt(), nt = A.nt(), kt = std::min(mt, nt), nb = A.nb();
    const int64_t ib = std::min(detail::resolve_ib<T>(opts, nb, "getrf", "getrf_incpiv"), nb);
    F.reset(A.m(), A.n(), nb, ib, A.distribution());
    auto prio = [kt](int64_t k, int64_t dist) { return int(3 * (kt - k) - dist); };
    for (int64_t k = 0; k < kt; ++k) {
        // Only the last transformation of column k sets U's diagonal: it alone reports info.
        tasks::getrf_incpiv<T>(A.handle(k, k), F.ipiv(k, k), k + 1 == mt ? detail::info_slot(k * nb) : nullptr, prio(k, 0));
        if (k + 1 < nt) {
            // gessm reads L_kk from a copy, so that tstrf (which rewrites U_kk) need not wait for it.
            tasks::lacpy<T>(Uplo::Lower, A.handle(k, k), F.diag(k), prio(k, 0));
            for (int64_t j = k + 1; j < nt; ++j)
                tasks::gessm<T>(F.ipiv(k, k), F.diag(k), A.handle(k, j), prio(k, j == k + 1 ? 1 : 3));
        }
        for (int64_t i = k + 1; i < mt; ++i) {
            tasks::tstrf<T>(ib, A.handle(k, k), A.handle(i, k), F.l(i, k), F.ipiv(i, k),
                            i + 1 == mt ? detail::info_slot(k * nb) : nullptr, prio(k, 1));
            for (int64_t j = k + 1; j < nt; ++j)
                tasks::ssssm<T>(ib, A.handle(k, j), A.handle(i, j), F.l(i, k), A.handle(i, k), F.ipiv(i, k),
                                prio(k, j == k + 1 ? 2 : 4));
        }
    }
}

template <class T>
int64_t getrf_incpiv(TileMatrix<T>& A, IncpivFactors<T>& F, const Options& opts) {
    Sequence seq;
    getrf_incpiv_async(A, F, seq, opts);
    return seq.wait();
}

template <class T>
void getrs_incpiv_async(const TileMatrix<T>& A, const IncpivFactors<T>& F, TileMatrix<T>& B, Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime("getrs_incpiv");
    check_arg(A.m() == A.n(), "getrs_incpiv", "A", A.m(), "rows must equal columns");
    check_arg(B.m() == A.n(), "getrs_incpiv", "B", B.m(), "rows must equal the order of A");
    check_arg(A.nb() == B.nb(), "getrs_incpiv", "nb", B.nb(), "must be the same for A and B");
    check_arg(!F.empty() && F.m() == A.m() && F.n() == A.n() && F.nb() == A.nb(), "getrs_incpiv", "F", F.m(),
              "must hold getrf_incpiv's factors of A");
    const int64_t mt = A.mt(), nt = B.nt();
    for (int64_t k = 0; k < mt; ++k) {
        for (int64_t j = 0; j < nt; ++j) tasks::gessm<T>(F.ipiv(k, k), A.handle(k, k), B.handle(k, j), int(mt - k));
        for (int64_t i = k + 1; i < mt; ++i)
            for (int64_t j = 0; j < nt; ++j)
                tasks::ssssm<T>(F.ib(), B.handle(k, j), B.handle(i, j), F.l(i, k), A.handle(i, k), F.ipiv(i, k), int(mt - k));
    }
    trsm_async(Side::Left, Uplo::Upper, Trans::NoTrans, Diag::NonUnit, T(1), A, B, seq);
}

template <class T>
void getrs_incpiv(const TileMatrix<T>& A, const IncpivFactors<T>& F, TileMatrix<T>& B) {
    Sequence seq;
    getrs_incpiv_async(A, F, B, seq);
    seq.wait();
}

template <class T>
void gesv_incpiv_async(TileMatrix<T>& A, IncpivFactors<T>& F, TileMatrix<T>& B, Sequence& seq, const Options& opts) {
    detail::SubmitScope scope(seq);
    check_arg(A.m() == A.n(), "gesv_incpiv", "A", A.m(), "rows must equal columns");
    check_arg(B.m() == A.n(), "gesv_incpiv", "B", B.m(), "rows must equal the order of A");
    getrf_incpiv_async(A, F, seq, opts);
    getrs_incpiv_async(A, F, B, seq);
}

template <class T>
int64_t gesv_incpiv(TileMatrix<T>& A, IncpivFactors<T>& F, TileMatrix<T>& B, const Options& opts) {
    check_arg(A.m() == A.n(), "gesv_incpiv", "A", A.m(), "rows must equal columns");
    check_arg(B.m() == A.n(), "gesv_incpiv", "B", B.m(), "rows must equal the order of A");
    check_arg(A.nb() == B.nb(), "gesv_incpiv", "nb", B.nb(), "must be the same for A and B");
    const int64_t info = getrf_incpiv(A, F, opts);
    if (info == 0) getrs_incpiv(A, F, B);
    return info;
}

namespace lapack {

template <class T>
int64_t gesv_incpiv(int64_t n, int64_t nrhs, T* a, int64_t lda, T* b, int64_t ldb, const Options& opts) {
    check_dims("lapack::gesv_incpiv", n, nrhs, 0);
    const Options o = detail::with_tuned_nb<T>(opts, "getrf", "lapack::gesv_incpiv", std::max(n, nrhs));
    auto A = detail::lapack_tiles(a, lda, n, n, o, "lapack::gesv_incpiv", "lda");
    auto B = detail::lapack_tiles(b, ldb, n, nrhs, o, "lapack::gesv_incpiv", "ldb");
    IncpivFactors<T> F;
    const int64_t info = tessera::gesv_incpiv(A, F, B, opts);
    detail::lapack_result(A, a, lda);
    if (info == 0) detail::lapack_result(B, b, ldb);
    return info;
}

}  // namespace lapack

#define TESSERA_INSTANTIATE(T)                                                                                     \
    template void getrf_incpiv_async(TileMatrix<T>&, IncpivFactors<T>&, Sequence&, const Options&);                \
    template int64_t getrf_incpiv(TileMatrix<T>&, IncpivFactors<T>&, const Options&);                              \
    template void getrs_incpiv_async(const TileMatrix<T>&, const IncpivFactors<T>&, TileMatrix<T>&, Sequence&);    \
    template void getrs_incpiv(const TileMatrix<T>&, const IncpivFactors<T>&, TileMatrix<T>&);                     \
    template void gesv_incpiv_async(TileMatrix<T>&, IncpivFactors<T>&, TileMatrix<T>&, Sequence&, const Options&); \
    template int64_t gesv_incpiv(TileMatrix<T>&, IncpivFactors<T>&, TileMatrix<T>&, const Options&);               \
    template int64_t lapack::gesv_incpiv(int64_t, int64_t, T*, int64_t, T*, int64_t, const Options&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
