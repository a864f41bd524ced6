// Tile BLAS-3 algorithms: trmm, symm / hemm, syr2k / her2k (loops of Chameleon's pztrmm, pzsymm /
// pzhemm, pzsyr2k / pzher2k) and their LAPACK-layout forms.
#include <algorithm>

#include "algorithms/common.hpp"
#include "codelets/tasks.hpp"
#include "runtime/precisions.hpp"
#include "tessera/blas3.hpp"

namespace tessera {

template <class T>
void trmm_async(Side side, Uplo uplo, Trans trans, Diag diag, T alpha, const TileMatrix<T>& A, TileMatrix<T>& B,
                Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime("trmm");
    detail::check_triangular_operands("trmm", side, uplo, A, B);
    // op(A) upper triangular: a tile row (Left) of the product needs B's rows below it, which are
    // overwritten later, so the rows go from the first on; a tile column (Right) needs B's columns
    // to its left, so the columns go from the last on. Lower op(A): the reverse orders. Each tile of
    // B is first multiplied by the diagonal tile (trmm), then gets the other tiles' gemm updates,
    // submitted before the tiles they read are overwritten (StarPU's sequential consistency).
    const bool upper = (uplo == Uplo::Upper) == (trans == Trans::NoTrans);
    const int64_t kt = A.nt();
    auto op_a = [&](int64_t r, int64_t c) { return trans == Trans::NoTrans ? A.handle(r, c) : A.handle(c, r); };
    for (int64_t s = 0; s < kt; ++s) {
        const bool ascending = side == Side::Left ? upper : !upper;
        const int64_t k = ascending ? s : kt - 1 - s;
        // The tiles of op(A) that multiply B's tile row / column k besides the diagonal one.
        const bool after = side == Side::Left ? upper : !upper;  // indices above k, else below
        const int64_t lo = after ? k + 1 : 0, hi = after ? kt : k;
        const int prio = int(kt - s);
        if (side == Side::Left) {
            for (int64_t j = 0; j < B.nt(); ++j) {
                tasks::trmm<T>(side, uplo, trans, diag, alpha, A.handle(k, k), B.handle(k, j), prio);
                for (int64_t l = lo; l < hi; ++l)
                    tasks::gemm<T>(trans, Trans::NoTrans, alpha, op_a(k, l), B.handle(l, j), T(1), B.handle(k, j), prio);
            }
        } else {
            for (int64_t i = 0; i < B.mt(); ++i) {
                tasks::trmm<T>(side, uplo, trans, diag, alpha, A.handle(k, k), B.handle(i, k), prio);
                for (int64_t l = lo; l < hi; ++l)
                    tasks::gemm<T>(Trans::NoTrans, trans, alpha, B.handle(i, l), op_a(l, k), T(1), B.handle(i, k), prio);
            }
        }
    }
    detail::flush_received(A);
    detail::flush_received(B);
}

namespace {

// C = alpha·A·B + beta·C or alpha·B·A + beta·C, A symmetric (hemm: Hermitian) from its uplo
// triangle: each C tile gets a symm task with the diagonal tile of A and gemms with A's stored
// off-diagonal tiles, transposed (conjugate-transposed for hemm) where the needed tile lies in the
// other triangle (Chameleon's pzsymm / pzhemm).
template <class T>
void symmetric_product(const char* func, bool hermitian, Side side, Uplo uplo, T alpha, const TileMatrix<T>& A,
                       const TileMatrix<T>& B, T beta, TileMatrix<T>& C, Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime(func);
    check_arg(uplo != Uplo::General, func, "uplo", 'G', "must be Lower or Upper");
    check_arg(A.m() == A.n(), func, "A", A.n(), "must be square");
    const int64_t order = side == Side::Left ? C.m() : C.n();
    check_arg(A.n() == order, func, "A", A.n(), side == Side::Left ? "order must equal rows of C" : "order must equal columns of C");
    check_arg(B.m() == C.m(), func, "B", B.m(), "rows must equal rows of C");
    check_arg(B.n() == C.n(), func, "B", B.n(), "columns must equal columns of C");
    check_arg(A.nb() == C.nb() && B.nb() == C.nb(), func, "nb", A.nb(), "must be the same for A, B and C");
    const Trans tt = hermitian ? Trans::ConjTrans : Trans::Trans;
    // A's tile (r, c), r ≠ c, as a stored tile and the op that gives it.
    auto a_tile = [&](int64_t r, int64_t c) {
        const bool stored = (uplo == Uplo::Lower) == (r > c);
        return std::pair{stored ? A.handle(r, c) : A.handle(c, r), stored ? Trans::NoTrans : tt};
    };
    const int64_t kt = A.nt();
    for (int64_t j = 0; j < C.nt(); ++j)
        for (int64_t i = 0; i < C.mt(); ++i)
            for (int64_t l = 0; l < kt; ++l) {
                const T lbeta = l == 0 ? beta : T(1);
                if (side == Side::Left) {
                    if (l == i) tasks::symm<T>(hermitian, side, uplo, alpha, A.handle(i, i), B.handle(i, j), lbeta, C.handle(i, j));
                    else {
                        auto [a, op] = a_tile(i, l);
                        tasks::gemm<T>(op, Trans::NoTrans, alpha, a, B.handle(l, j), lbeta, C.handle(i, j));
                    }
                } else {
                    if (l == j) tasks::symm<T>(hermitian, side, uplo, alpha, A.handle(j, j), B.handle(i, j), lbeta, C.handle(i, j));
                    else {
                        auto [a, op] = a_tile(l, j);
                        tasks::gemm<T>(Trans::NoTrans, op, alpha, B.handle(i, l), a, lbeta, C.handle(i, j));
                    }
                }
            }
    detail::flush_received(A);
    detail::flush_received(B);
}

// C = alpha·op(A)·op(B)ᵀ + alpha·op(B)·op(A)ᵀ + beta·C (syr2k), or with ᴴ and conj(alpha) on the
// second term, beta real (her2k), on the uplo triangle: a syr2k task per diagonal tile and k step,
// two gemms per off-diagonal one (Chameleon's pzsyr2k / pzher2k).
template <class T>
void rank_2k_update(const char* func, bool hermitian, Uplo uplo, Trans trans, T alpha, const TileMatrix<T>& A,
                    const TileMatrix<T>& B, T beta, TileMatrix<T>& C, Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime(func);
    check_arg(uplo != Uplo::General, func, "uplo", 'G', "must be Lower or Upper");
    check_trans<T>(func, trans, hermitian);
    check_arg(C.m() == C.n(), func, "C", C.n(), "must be square");
    const int64_t an = trans == Trans::NoTrans ? A.m() : A.n(), k = trans == Trans::NoTrans ? A.n() : A.m();
    check_arg(an == C.n(), func, "A", an, "rows of op(A) must equal the order of C");
    check_arg(B.m() == A.m() && B.n() == A.n(), func, "B", B.m(), "must have the shape of A");
    check_arg(A.nb() == C.nb() && B.nb() == C.nb(), func, "nb", A.nb(), "must be the same for A, B and C");
    const int64_t kt = (k + C.nb() - 1) / C.nb();
    auto op = [&](const TileMatrix<T>& X, int64_t r, int64_t l) {
        return trans == Trans::NoTrans ? X.handle(r, l) : X.handle(l, r);
    };
    const Trans transposed = hermitian ? Trans::ConjTrans : Trans::Trans;
    const Trans other = trans == Trans::NoTrans ? transposed : Trans::NoTrans;
    T alpha2 = alpha;
    if constexpr (is_complex_v<T>)
        if (hermitian) alpha2 = std::conj(alpha);
    for (int64_t j = 0; j < C.nt(); ++j)
        for (int64_t i = 0; i < C.mt(); ++i) {
            if (uplo == Uplo::Lower ? i < j : i > j) continue;
            if (kt == 0) tasks::scale<T>(beta, C.handle(i, j), i == j ? uplo : Uplo::General);
            for (int64_t l = 0; l < kt; ++l) {
                const T lbeta = l == 0 ? beta : T(1);
                if (i == j) tasks::syr2k<T>(hermitian, uplo, trans, alpha, op(A, j, l), op(B, j, l), lbeta, C.handle(j, j));
                else {
                    tasks::gemm<T>(trans, other, alpha, op(A, i, l), op(B, j, l), lbeta, C.handle(i, j));
                    tasks::gemm<T>(trans, other, alpha2, op(B, i, l), op(A, j, l), T(1), C.handle(i, j));
                }
            }
        }
    detail::flush_received(A);
    detail::flush_received(B);
}

}  // namespace

template <class T>
void symm_async(Side side, Uplo uplo, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B, T beta,
                TileMatrix<T>& C, Sequence& seq) {
    symmetric_product("symm", false, side, uplo, alpha, A, B, beta, C, seq);
}

template <class T>
void hemm_async(Side side, Uplo uplo, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B, T beta,
                TileMatrix<T>& C, Sequence& seq) {
    symmetric_product("hemm", true, side, uplo, alpha, A, B, beta, C, seq);
}

template <class T>
void syr2k_async(Uplo uplo, Trans trans, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B, T beta,
                 TileMatrix<T>& C, Sequence& seq) {
    rank_2k_update("syr2k", false, uplo, trans, alpha, A, B, beta, C, seq);
}

template <class T>
void her2k_async(Uplo uplo, Trans trans, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B, real_t<T> beta,
                 TileMatrix<T>& C, Sequence& seq) {
    rank_2k_update("her2k", true, uplo, trans, alpha, A, B, T(beta), C, seq);
}

template <class T>
void trmm(Side side, Uplo uplo, Trans trans, Diag diag, T alpha, const TileMatrix<T>& A, TileMatrix<T>& B) {
    Sequence seq;
    trmm_async(side, uplo, trans, diag, alpha, A, B, seq);
    seq.wait();
}

template <class T>
void symm(Side side, Uplo uplo, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B, T beta, TileMatrix<T>& C) {
    Sequence seq;
    symm_async(side, uplo, alpha, A, B, beta, C, seq);
    seq.wait();
}

template <class T>
void hemm(Side side, Uplo uplo, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B, T beta, TileMatrix<T>& C) {
    Sequence seq;
    hemm_async(side, uplo, alpha, A, B, beta, C, seq);
    seq.wait();
}

template <class T>
void syr2k(Uplo uplo, Trans trans, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B, T beta, TileMatrix<T>& C) {
    Sequence seq;
    syr2k_async(uplo, trans, alpha, A, B, beta, C, seq);
    seq.wait();
}

template <class T>
void her2k(Uplo uplo, Trans trans, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B, real_t<T> beta,
           TileMatrix<T>& C) {
    Sequence seq;
    her2k_async(uplo, trans, alpha, A, B, beta, C, seq);
    seq.wait();
}

namespace lapack {

template <class T>
void trmm(char side, char uplo, char trans, char diag, int64_t m, int64_t n, T alpha, const T* a, int64_t lda, T* b,
          int64_t ldb, const Options& opts) {
    const Side s = side_from_char(side);
    const Uplo u = uplo_from_char(uplo);
    const Trans t = trans_from_char(trans);
    const Diag d = diag_from_char(diag);
    check_dims("lapack::trmm", m, n, 0);
    const int64_t order = s == Side::Left ? m : n;
    const Options o = detail::with_tuned_nb<T>(opts, "gemm", "lapack::trmm", std::max(m, n));
    auto A = detail::lapack_tiles(a, lda, order, order, o, "lapack::trmm", "lda");
    auto B = detail::lapack_tiles(b, ldb, m, n, o, "lapack::trmm", "ldb");
    tessera::trmm(s, u, t, d, alpha, A, B);
    detail::lapack_result(B, b, ldb);
}

template <class T, class Product>
void symmetric_lapack(const char* func, char side, char uplo, int64_t m, int64_t n, const T* a, int64_t lda,
                      const T* b, int64_t ldb, T* c, int64_t ldc, const Options& opts, Product product) {
    const Side s = side_from_char(side);
    const Uplo u = uplo_from_char(uplo);
    check_dims(func, m, n, 0);
    const int64_t order = s == Side::Left ? m : n;
    const Options o = detail::with_tuned_nb<T>(opts, "gemm", func, std::max(m, n));
    auto A = detail::lapack_tiles(a, lda, order, order, o, func, "lda");
    auto B = detail::lapack_tiles(b, ldb, m, n, o, func, "ldb");
    auto C = detail::lapack_tiles(c, ldc, m, n, o, func, "ldc");
    product(s, u, A, B, C);
    detail::lapack_result(C, c, ldc);
}

template <class T>
void symm(char side, char uplo, int64_t m, int64_t n, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb,
          T beta, T* c, int64_t ldc, const Options& opts) {
    symmetric_lapack("lapack::symm", side, uplo, m, n, a, lda, b, ldb, c, ldc, opts,
                     [&](Side s, Uplo u, TileMatrix<T>& A, TileMatrix<T>& B, TileMatrix<T>& C) {
                         tessera::symm(s, u, alpha, A, B, beta, C);
                     });
}

template <class T>
void hemm(char side, char uplo, int64_t m, int64_t n, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb,
          T beta, T* c, int64_t ldc, const Options& opts) {
    symmetric_lapack("lapack::hemm", side, uplo, m, n, a, lda, b, ldb, c, ldc, opts,
                     [&](Side s, Uplo u, TileMatrix<T>& A, TileMatrix<T>& B, TileMatrix<T>& C) {
                         tessera::hemm(s, u, alpha, A, B, beta, C);
                     });
}

template <class T, class Update>
void rank_2k_lapack(const char* func, char uplo, char trans, int64_t n, int64_t k, const T* a, int64_t lda,
                    const T* b, int64_t ldb, T* c, int64_t ldc, const Options& opts, Update update) {
    const Uplo u = uplo_from_char(uplo);
    const Trans t = trans_from_char(trans);
    check_dims(func, n, n, k);
    const Options o = detail::with_tuned_nb<T>(opts, "gemm", func, std::max(n, k));
    const int64_t rows = t == Trans::NoTrans ? n : k, cols = t == Trans::NoTrans ? k : n;
    auto A = detail::lapack_tiles(a, lda, rows, cols, o, func, "lda");
    auto B = detail::lapack_tiles(b, ldb, rows, cols, o, func, "ldb");
    auto C = detail::lapack_tiles(c, ldc, n, n, o, func, "ldc");
    update(u, t, A, B, C);
    detail::lapack_result(C, c, ldc);
}

template <class T>
void syr2k(char uplo, char trans, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb,
           T beta, T* c, int64_t ldc, const Options& opts) {
    rank_2k_lapack("lapack::syr2k", uplo, trans, n, k, a, lda, b, ldb, c, ldc, opts,
                   [&](Uplo u, Trans t, TileMatrix<T>& A, TileMatrix<T>& B, TileMatrix<T>& C) {
                       tessera::syr2k(u, t, alpha, A, B, beta, C);
                   });
}

template <class T>
void her2k(char uplo, char trans, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb,
           real_t<T> beta, T* c, int64_t ldc, const Options& opts) {
    rank_2k_lapack("lapack::her2k", uplo, trans, n, k, a, lda, b, ldb, c, ldc, opts,
                   [&](Uplo u, Trans t, TileMatrix<T>& A, TileMatrix<T>& B, TileMatrix<T>& C) {
                       tessera::her2k(u, t, alpha, A, B, beta, C);
                   });
}

}  // namespace lapack

#define TESSERA_INSTANTIATE(T)                                                                                        \
    template void trmm_async(Side, Uplo, Trans, Diag, T, const TileMatrix<T>&, TileMatrix<T>&, Sequence&);            \
    template void trmm(Side, Uplo, Trans, Diag, T, const TileMatrix<T>&, TileMatrix<T>&);                             \
    template void symm_async(Side, Uplo, T, const TileMatrix<T>&, const TileMatrix<T>&, T, TileMatrix<T>&, Sequence&); \
    template void symm(Side, Uplo, T, const TileMatrix<T>&, const TileMatrix<T>&, T, TileMatrix<T>&);                 \
    template void hemm_async(Side, Uplo, T, const TileMatrix<T>&, const TileMatrix<T>&, T, TileMatrix<T>&, Sequence&); \
    template void hemm(Side, Uplo, T, const TileMatrix<T>&, const TileMatrix<T>&, T, TileMatrix<T>&);                 \
    template void syr2k_async(Uplo, Trans, T, const TileMatrix<T>&, const TileMatrix<T>&, T, TileMatrix<T>&,          \
                              Sequence&);                                                                             \
    template void syr2k(Uplo, Trans, T, const TileMatrix<T>&, const TileMatrix<T>&, T, TileMatrix<T>&);               \
    template void her2k_async(Uplo, Trans, T, const TileMatrix<T>&, const TileMatrix<T>&, real_t<T>, TileMatrix<T>&,  \
                              Sequence&);                                                                             \
    template void her2k(Uplo, Trans, T, const TileMatrix<T>&, const TileMatrix<T>&, real_t<T>, TileMatrix<T>&);       \
    template void lapack::trmm(char, char, char, char, int64_t, int64_t, T, const T*, int64_t, T*, int64_t,           \
                               const Options&);                                                                       \
    template void lapack::symm(char, char, int64_t, int64_t, T, const T*, int64_t, const T*, int64_t, T, T*, int64_t, \
                               const Options&);                                                                       \
    template void lapack::hemm(char, char, int64_t, int64_t, T, const T*, int64_t, const T*, int64_t, T, T*, int64_t, \
                               const Options&);                                                                       \
    template void lapack::syr2k(char, char, int64_t, int64_t, T, const T*, int64_t, const T*, int64_t, T, T*,         \
                                int64_t, const Options&);                                                             \
    template void lapack::her2k(char, char, int64_t, int64_t, T, const T*, int64_t, const T*, int64_t, real_t<T>, T*, \
                                int64_t, const Options&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
