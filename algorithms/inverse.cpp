// Triangular and Cholesky-based inverses: trtri (Chameleon's pztrtri), lauum (pzlauum) and potri
// (trtri then lauum, LAPACK xPOTRI), tile and LAPACK-layout forms.
#include "tessera/inverse.hpp"

#include "algorithms/common.hpp"
#include "algorithms/inverse_tiles.hpp"
#include "codelets/handles.hpp"
#include "codelets/tasks.hpp"
#include "codelets/tasks_inverse.hpp"
#include "codelets/tasks_qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera {

namespace detail {

template <class T>
void check_diagonal(const TileMatrix<T>& A) {
    for (int64_t k = 0; k < A.nt(); ++k)
        tasks::zero_diagonal<T>(A.tile_cols(k), A.handle(k, k), info_slot(k * A.nb()), int(A.nt() - k) + 2);
}

template <class T>
int64_t diagonal_info(const TileMatrix<T>& A) {
    Sequence seq;
    {
        SubmitScope scope(seq);
        check_diagonal(A);
    }
    return seq.wait();
}

template <class T>
void trtri_tiles(Uplo uplo, Diag diag, TileMatrix<T>& A, std::vector<TileHandle>* inverses) {
    const int64_t nt = A.nt();
    const bool lower = uplo == Uplo::Lower;
    // tile(i, j): the Lower triangle's tile (i, j), i ≥ j, stored at (j, i) for Upper; the Upper
    // loop is the Lower one transposed (sides swapped).
    auto tile = [&](int64_t i, int64_t j) { return lower ? A.handle(i, j) : A.handle(j, i); };
    const Side panel_side = lower ? Side::Right : Side::Left, row_side = lower ? Side::Left : Side::Right;
    auto prio = [nt](int64_t k, int64_t d) { return int(2 * (nt - k) - d); };
    if (inverses) inverses->assign(size_t(nt), nullptr);
    for (int64_t k = 0; k < nt; ++k) {
        // W = A(k, k)⁻¹ first (out of place, zeros in the other triangle: trmm reads it as stored),
        // applied to the panel and the row with trmm: OpenBLAS's single-threaded dtrmm on 480² tiles runs at ~57 Gflop/s, its
        // dtrsm at ~26 (2-core CI machine), and the triangular tiles carry n²·nb of the n³/3 flops.
        // A(k, k) itself is never written before its own inversion, so every W can start at once.
        const TileHandle w = tasks::temp_tile<T>(A.tile_cols(k), A.tile_cols(k), A.owner(k, k), A.handle(k, k));
        tasks::trtri<T>(uplo, diag, A.handle(k, k), w, prio(k, -1));
        // The panel: A(m, k) := −A(m, k)·A(k, k)⁻¹ (Upper: −A(k, k)⁻¹·A(k, m)).
        for (int64_t m = k + 1; m < nt; ++m)
            tasks::trmm<T>(panel_side, uplo, Trans::NoTrans, diag, T(-1), w, tile(m, k), prio(k, 0), true);
        // A(m, n) += A(m, k)·A(k, n) for the inverted columns n < k (Upper: A(n, m) += A(n, k)·A(k, m)).
        for (int64_t m = k + 1; m < nt; ++m)
            for (int64_t n = 0; n < k; ++n) {
                if (lower)
                    tasks::gemm<T>(Trans::NoTrans, Trans::NoTrans, T(1), A.handle(m, k), A.handle(k, n), T(1),
                                   A.handle(m, n), prio(k, 1));
                else
                    tasks::gemm<T>(Trans::NoTrans, Trans::NoTrans, T(1), A.handle(n, k), A.handle(k, m), T(1),
                                   A.handle(n, m), prio(k, 1));
            }
        // The row: A(k, n) := A(k, k)⁻¹·A(k, n) (Upper: A(n, k)·A(k, k)⁻¹).
        for (int64_t n = 0; n < k; ++n)
            tasks::trmm<T>(row_side, uplo, Trans::NoTrans, diag, T(1), w, tile(k, n), prio(k, 1), true);
        // The diagonal tile last: nothing reads A(k, k) after it. With a unit diagonal, which must
        // stay as it was, the tile is inverted again in place (nb³/3 flops; W is its workspace).
        if (inverses) {
            (*inverses)[size_t(k)] = w;
            continue;
        }
        // (lacpy_region reads and writes A(k, k): the other triangle must come along wherever it runs.)
        const int64_t kb = A.tile_cols(k);
        if (diag == Diag::NonUnit) tasks::lacpy_region<T>(uplo, kb, kb, w, A.handle(k, k), prio(k, 0));
        else tasks::trtri_inplace<T>(uplo, diag, A.handle(k, k), w, prio(k, 0));
        tasks::release_temp_tile(w);
    }
}

}  // namespace detail

namespace {

template <class T>
void check_square(const char* func, Uplo uplo, const TileMatrix<T>& A) {
    check_arg(uplo != Uplo::General, func, "uplo", 'G', "must be Lower or Upper");
    check_arg(A.m() == A.n(), func, "A", A.m(), "rows must equal columns");
}


}  // namespace

template <class T>
void trtri_async(Uplo uplo, Diag diag, TileMatrix<T>& A, Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime("trtri");
    check_square("trtri", uplo, A);
    if (diag == Diag::NonUnit) detail::check_diagonal(A);
    detail::trtri_tiles(uplo, diag, A);
}

template <class T>
int64_t trtri(Uplo uplo, Diag diag, TileMatrix<T>& A) {
    detail::require_runtime("trtri");
    check_square("trtri", uplo, A);
    if (diag == Diag::NonUnit)
        if (const int64_t info = detail::diagonal_info(A)) return info;
    Sequence seq;
    {
        detail::SubmitScope scope(seq);
        detail::trtri_tiles(uplo, diag, A);
    }
    return seq.wait();
}

template <class T>
void lauum_async(Uplo uplo, TileMatrix<T>& A, Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime("lauum");
    check_square("lauum", uplo, A);
    const int64_t nt = A.nt();
    const bool lower = uplo == Uplo::Lower;
    // tile(i, j) as in trtri_tiles: the Lower loop (Lᴴ·L) transposed gives the Upper one (U·Uᴴ).
    auto tile = [&](int64_t i, int64_t j) { return lower ? A.handle(i, j) : A.handle(j, i); };
    const Trans outer = lower ? Trans::ConjTrans : Trans::NoTrans;
    auto prio = [nt](int64_t k, int64_t d) { return int(2 * (nt - k) - d); };
    for (int64_t k = 0; k < nt; ++k) {
        // Row k's contribution L(k, :)ᴴ·L(k, :) to the rows above it, before row k changes.
        for (int64_t n = 0; n < k; ++n) {
            tasks::herk<T>(uplo, outer, 1, tile(k, n), 1, A.handle(n, n), prio(k, 1));
            for (int64_t m = n + 1; m < k; ++m) {
                if (lower)
                    tasks::gemm<T>(Trans::ConjTrans, Trans::NoTrans, T(1), A.handle(k, m), A.handle(k, n), T(1),
                                   A.handle(m, n), prio(k, 1));
                else
                    tasks::gemm<T>(Trans::NoTrans, Trans::ConjTrans, T(1), A.handle(n, k), A.handle(m, k), T(1),
                                   A.handle(n, m), prio(k, 1));
            }
        }
        // A(k, n) := L(k, k)ᴴ·A(k, n) (Upper: A(n, k)·U(k, k)ᴴ), then the diagonal tile.
        for (int64_t n = 0; n < k; ++n)
            tasks::trmm<T>(lower ? Side::Left : Side::Right, uplo, Trans::ConjTrans, Diag::NonUnit, T(1),
                           A.handle(k, k), tile(k, n), prio(k, 0));
        tasks::lauum<T>(uplo, A.handle(k, k), prio(k, 0));
    }
}

template <class T>
void lauum(Uplo uplo, TileMatrix<T>& A) {
    Sequence seq;
    lauum_async(uplo, A, seq);
    seq.wait();
}

template <class T>
void potri_async(Uplo uplo, TileMatrix<T>& A, Sequence& seq) {
    detail::SubmitScope scope(seq);
    check_square("potri", uplo, A);
    trtri_async(uplo, Diag::NonUnit, A, seq);
    lauum_async(uplo, A, seq);
}

template <class T>
int64_t potri(Uplo uplo, TileMatrix<T>& A) {
    detail::require_runtime("potri");
    check_square("potri", uplo, A);
    if (const int64_t info = detail::diagonal_info(A)) return info;
    Sequence seq;
    {
        detail::SubmitScope scope(seq);
        detail::trtri_tiles(uplo, Diag::NonUnit, A);
        lauum_async(uplo, A, seq);
    }
    return seq.wait();
}

namespace lapack {

template <class T>
int64_t trtri(char uplo, char diag, int64_t n, T* a, int64_t lda, const Options& opts) {
    const Uplo u = uplo_from_char(uplo);
    const Diag d = diag_from_char(diag);
    check_dim("lapack::trtri", "n", n);
    const Options o = detail::with_tuned_nb<T>(opts, "potrf", "lapack::trtri", n);
    auto A = detail::lapack_tiles(a, lda, n, n, o, "lapack::trtri", "lda");
    const int64_t info = tessera::trtri(u, d, A);
    if (info == 0) detail::lapack_result(A, a, lda);
    return info;
}

template <class T>
void lauum(char uplo, int64_t n, T* a, int64_t lda, const Options& opts) {
    const Uplo u = uplo_from_char(uplo);
    check_dim("lapack::lauum", "n", n);
    const Options o = detail::with_tuned_nb<T>(opts, "potrf", "lapack::lauum", n);
    auto A = detail::lapack_tiles(a, lda, n, n, o, "lapack::lauum", "lda");
    tessera::lauum(u, A);
    detail::lapack_result(A, a, lda);
}

template <class T>
int64_t potri(char uplo, int64_t n, T* a, int64_t lda, const Options& opts) {
    const Uplo u = uplo_from_char(uplo);
    check_dim("lapack::potri", "n", n);
    const Options o = detail::with_tuned_nb<T>(opts, "potrf", "lapack::potri", n);
    auto A = detail::lapack_tiles(a, lda, n, n, o, "lapack::potri", "lda");
    const int64_t info = tessera::potri(u, A);
    if (info == 0) detail::lapack_result(A, a, lda);
    return info;
}

}  // namespace lapack

#define TESSERA_INSTANTIATE(T)                                                                   \
    template void detail::check_diagonal(const TileMatrix<T>&);                                  \
    template int64_t detail::diagonal_info(const TileMatrix<T>&);                                \
    template void detail::trtri_tiles(Uplo, Diag, TileMatrix<T>&, std::vector<TileHandle>*);     \
    template void trtri_async(Uplo, Diag, TileMatrix<T>&, Sequence&);                            \
    template int64_t trtri(Uplo, Diag, TileMatrix<T>&);                                          \
    template void lauum_async(Uplo, TileMatrix<T>&, Sequence&);                                  \
    template void lauum(Uplo, TileMatrix<T>&);                                                   \
    template void potri_async(Uplo, TileMatrix<T>&, Sequence&);                                  \
    template int64_t potri(Uplo, TileMatrix<T>&);                                                \
    template int64_t lapack::trtri(char, char, int64_t, T*, int64_t, const Options&);            \
    template void lapack::lauum(char, int64_t, T*, int64_t, const Options&);                     \
    template int64_t lapack::potri(char, int64_t, T*, int64_t, const Options&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
