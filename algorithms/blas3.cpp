// Tile BLAS-3 algorithms: gemm, trsm, syrk (loops of Chameleon's pzgemm, pztrsm, pzsyrk).
#include "tessera/blas3.hpp"

#include <vector>

#include "algorithms/common.hpp"
#include "codelets/tasks.hpp"
#include "runtime/precisions.hpp"

namespace tessera {

template <class T>
void gemm_async(Trans ta, Trans tb, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B, T beta,
                TileMatrix<T>& C, Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime("gemm");
    const int64_t m = C.m(), n = C.n();
    const int64_t am = ta == Trans::NoTrans ? A.m() : A.n(), k = ta == Trans::NoTrans ? A.n() : A.m();
    const int64_t bk = tb == Trans::NoTrans ? B.m() : B.n(), bn = tb == Trans::NoTrans ? B.n() : B.m();
    check_arg(am == m, "gemm", "A", am, "rows of op(A) must equal rows of C");
    check_arg(bk == k, "gemm", "B", bk, "rows of op(B) must equal columns of op(A)");
    check_arg(bn == n, "gemm", "B", bn, "columns of op(B) must equal columns of C");
    check_arg(A.nb() == C.nb() && B.nb() == C.nb(), "gemm", "nb", A.nb(), "must be the same for A, B and C");
    const int64_t kt = (k + C.nb() - 1) / C.nb();
    // C's tiles in growing squares (shell s = max(i, j) = 0, 1, ...: column s down to the diagonal,
    // then row s), each through all its k steps, submitted and prioritized in that order. A device
    // then starts after a few input tiles and fetches the next ones while it computes, reusing the
    // rows of A and columns of B already there; the plain order would first update every C(i, j)
    // with l = 0, which needs all of C on the device before any tile has been reused.
    auto for_each_c_tile = [&](auto&& f) {
        for (int64_t s = 0; s < std::max(C.mt(), C.nt()); ++s)
            for (int64_t t = 0; t <= 2 * s; ++t) {
                const int64_t i = t <= s ? t : s, j = t <= s ? s : t - s - 1;
                if (i < C.mt() && j < C.nt()) f(i, j);
            }
    };
    auto a_tile = [&](int64_t i, int64_t l) { return ta == Trans::NoTrans ? A.handle(i, l) : A.handle(l, i); };
    auto b_tile = [&](int64_t l, int64_t j) { return tb == Trans::NoTrans ? B.handle(l, j) : B.handle(j, l); };
    // The devices get every operand streamed in that order, each to the device of the C tile it
    // updates (the only device, or C(i, j)'s owner among several).
    tasks::DevicePrefetch prefetch;
    for_each_c_tile([&](int64_t i, int64_t j) {
        prefetch(C.handle(i, j));
        for (int64_t l = 0; l < kt; ++l) {
            prefetch(a_tile(i, l), C.handle(i, j));
            prefetch(b_tile(l, j), C.handle(i, j));
        }
    });
    int rank = 0;
    for_each_c_tile([&](int64_t i, int64_t j) {
        const int prio = -rank++;
        if (kt == 0) tasks::scale<T>(beta, C.handle(i, j), Uplo::General, prio);
        for (int64_t l = 0; l < kt; ++l)
            tasks::gemm<T>(ta, tb, alpha, a_tile(i, l), b_tile(l, j), l == 0 ? beta : T(1), C.handle(i, j), prio);
    });
    detail::flush_received(A);
    detail::flush_received(B);
}

template <class T>
void trsm_async(Side side, Uplo uplo, Trans trans, Diag diag, T alpha, const TileMatrix<T>& A, TileMatrix<T>& B,
                Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime("trsm");
    detail::check_triangular_operands("trsm", side, uplo, A, B);
    // op(A) lower triangular (Left) or upper triangular (Right): solve from the first tile on.
    const bool forward = side == Side::Left ? (uplo == Uplo::Lower) == (trans == Trans::NoTrans)
                                            : (uplo == Uplo::Upper) == (trans == Trans::NoTrans);
    const int64_t kt = A.nt();
    std::vector<int64_t> steps(static_cast<size_t>(kt));
    for (int64_t s = 0; s < kt; ++s) steps[size_t(s)] = forward ? s : kt - 1 - s;
    // op(A)'s tile (r, c) is A(r, c) untransposed or A(c, r) transposed.
    auto op_a = [&](int64_t r, int64_t c) { return trans == Trans::NoTrans ? A.handle(r, c) : A.handle(c, r); };
    for (int64_t s = 0; s < kt; ++s) {
        const int64_t k = steps[size_t(s)];
        const T lalpha = s == 0 ? alpha : T(1);
        const int prio = int(kt - s);
        if (side == Side::Left) {
            for (int64_t j = 0; j < B.nt(); ++j)
                tasks::trsm<T>(side, uplo, trans, diag, lalpha, A.handle(k, k), B.handle(k, j), prio + 1);
            for (int64_t t = s + 1; t < kt; ++t) {
                const int64_t i = steps[size_t(t)];
                for (int64_t j = 0; j < B.nt(); ++j)
                    tasks::gemm<T>(trans, Trans::NoTrans, T(-1), op_a(i, k), B.handle(k, j), lalpha, B.handle(i, j),
                                   t == s + 1 ? prio : 0);
            }
        } else {
            for (int64_t i = 0; i < B.mt(); ++i)
                tasks::trsm<T>(side, uplo, trans, diag, lalpha, A.handle(k, k), B.handle(i, k), prio + 1);
            for (int64_t t = s + 1; t < kt; ++t) {
                const int64_t j = steps[size_t(t)];
                for (int64_t i = 0; i < B.mt(); ++i)
                    tasks::gemm<T>(Trans::NoTrans, trans, T(-1), B.handle(i, k), op_a(k, j), lalpha, B.handle(i, j),
                                   t == s + 1 ? prio : 0);
            }
        }
    }
    detail::flush_received(A);
    detail::flush_received(B);
}

namespace {

// C = alpha·op(A)·op(A)ᵀ + beta·C (syrk), or with op(A)ᴴ (herk, alpha and beta real), on the uplo
// triangle: a syrk/herk task per diagonal tile, a gemm per off-diagonal one.
template <class T>
void rank_k_update(const char* func, bool hermitian, Uplo uplo, Trans trans, T alpha, const TileMatrix<T>& A, T beta,
                   TileMatrix<T>& C, Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime(func);
    check_arg(uplo != Uplo::General, func, "uplo", 'G', "must be Lower or Upper");
    check_trans<T>(func, trans, hermitian);
    check_arg(C.m() == C.n(), func, "C", C.n(), "must be square");
    const int64_t an = trans == Trans::NoTrans ? A.m() : A.n(), k = trans == Trans::NoTrans ? A.n() : A.m();
    check_arg(an == C.n(), func, "A", an, "rows of op(A) must equal the order of C");
    check_arg(A.nb() == C.nb(), func, "nb", A.nb(), "must be the same for A and C");
    const int64_t kt = (k + C.nb() - 1) / C.nb();
    // op(A)'s tile (r, l) is A(r, l) untransposed or A(l, r) transposed.
    auto op_a = [&](int64_t r, int64_t l) { return trans == Trans::NoTrans ? A.handle(r, l) : A.handle(l, r); };
    const Trans transposed = hermitian ? Trans::ConjTrans : Trans::Trans;
    const Trans other = trans == Trans::NoTrans ? transposed : Trans::NoTrans;
    for (int64_t j = 0; j < C.nt(); ++j)
        for (int64_t i = 0; i < C.mt(); ++i) {
            if (uplo == Uplo::Lower ? i < j : i > j) continue;
            if (kt == 0) tasks::scale<T>(beta, C.handle(i, j), i == j ? uplo : Uplo::General);
            for (int64_t l = 0; l < kt; ++l) {
                const T lbeta = l == 0 ? beta : T(1);
                if (i != j) tasks::gemm<T>(trans, other, alpha, op_a(i, l), op_a(j, l), lbeta, C.handle(i, j));
                else if (hermitian) tasks::herk<T>(uplo, trans, std::real(alpha), op_a(j, l), std::real(lbeta), C.handle(j, j));
                else tasks::syrk<T>(uplo, trans, alpha, op_a(j, l), lbeta, C.handle(j, j));
            }
        }
    detail::flush_received(A);
}

}  // namespace

template <class T>
void syrk_async(Uplo uplo, Trans trans, T alpha, const TileMatrix<T>& A, T beta, TileMatrix<T>& C, Sequence& seq) {
    rank_k_update("syrk", false, uplo, trans, alpha, A, beta, C, seq);
}

template <class T>
void herk_async(Uplo uplo, Trans trans, real_t<T> alpha, const TileMatrix<T>& A, real_t<T> beta, TileMatrix<T>& C,
                Sequence& seq) {
    rank_k_update("herk", true, uplo, trans, T(alpha), A, T(beta), C, seq);
}

template <class T>
void gemm(Trans ta, Trans tb, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B, T beta, TileMatrix<T>& C) {
    Sequence seq;
    gemm_async(ta, tb, alpha, A, B, beta, C, seq);
    seq.wait();
}

template <class T>
void trsm(Side side, Uplo uplo, Trans trans, Diag diag, T alpha, const TileMatrix<T>& A, TileMatrix<T>& B) {
    Sequence seq;
    trsm_async(side, uplo, trans, diag, alpha, A, B, seq);
    seq.wait();
}

template <class T>
void syrk(Uplo uplo, Trans trans, T alpha, const TileMatrix<T>& A, T beta, TileMatrix<T>& C) {
    Sequence seq;
    syrk_async(uplo, trans, alpha, A, beta, C, seq);
    seq.wait();
}

template <class T>
void herk(Uplo uplo, Trans trans, real_t<T> alpha, const TileMatrix<T>& A, real_t<T> beta, TileMatrix<T>& C) {
    Sequence seq;
    herk_async(uplo, trans, alpha, A, beta, C, seq);
    seq.wait();
}

namespace lapack {

template <class T>
void gemm(char transA, char transB, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b,
          int64_t ldb, T beta, T* c, int64_t ldc, const Options& opts) {
    const Trans ta = trans_from_char(transA, "transA"), tb = trans_from_char(transB, "transB");
    check_dims("lapack::gemm", m, n, k);
    const int64_t arows = ta == Trans::NoTrans ? m : k, acols = ta == Trans::NoTrans ? k : m;
    const int64_t brows = tb == Trans::NoTrans ? k : n, bcols = tb == Trans::NoTrans ? n : k;
    const Options o = detail::with_tuned_nb<T>(opts, "gemm", "lapack::gemm", std::max({m, n, k}));
    auto A = detail::lapack_tiles(a, lda, arows, acols, o, "lapack::gemm", "lda");
    auto B = detail::lapack_tiles(b, ldb, brows, bcols, o, "lapack::gemm", "ldb");
    auto C = detail::lapack_tiles(c, ldc, m, n, o, "lapack::gemm", "ldc");
    tessera::gemm(ta, tb, alpha, A, B, beta, C);
    detail::lapack_result(C, c, ldc);
}

template <class T>
void trsm(char side, char uplo, char trans, char diag, int64_t m, int64_t n, T alpha, const T* a, int64_t lda, T* b,
          int64_t ldb, const Options& opts) {
    const Side s = side_from_char(side);
    check_dims("lapack::trsm", m, n, 0);
    const int64_t order = s == Side::Left ? m : n;
    const Options o = detail::with_tuned_nb<T>(opts, "gemm", "lapack::trsm", std::max(m, n));
    auto A = detail::lapack_tiles(a, lda, order, order, o, "lapack::trsm", "lda");
    auto B = detail::lapack_tiles(b, ldb, m, n, o, "lapack::trsm", "ldb");
    tessera::trsm(s, uplo_from_char(uplo), trans_from_char(trans), diag_from_char(diag), alpha, A, B);
    detail::lapack_result(B, b, ldb);
}

/// The LAPACK-layout form of a rank-k update of the n×n C (syrk, herk): op(A) is n×k, so A is n×k
/// (NoTrans) or k×n; update(uplo, trans, A, C) runs on the tiles, and C is copied back.
template <class T, class Update>
void rank_k_lapack(const char* func, char uplo, char trans, int64_t n, int64_t k, const T* a, int64_t lda, T* c,
                   int64_t ldc, const Options& opts, Update update) {
    const Trans t = trans_from_char(trans);
    check_dims(func, n, n, k);
    const Options o = detail::with_tuned_nb<T>(opts, "gemm", func, std::max(n, k));
    auto A = t == Trans::NoTrans ? detail::lapack_tiles(a, lda, n, k, o, func, "lda")
                                 : detail::lapack_tiles(a, lda, k, n, o, func, "lda");
    auto C = detail::lapack_tiles(c, ldc, n, n, o, func, "ldc");
    update(uplo_from_char(uplo), t, A, C);
    detail::lapack_result(C, c, ldc);
}

template <class T>
void syrk(char uplo, char trans, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, T beta, T* c, int64_t ldc,
          const Options& opts) {
    rank_k_lapack("lapack::syrk", uplo, trans, n, k, a, lda, c, ldc, opts,
                  [&](Uplo u, Trans t, TileMatrix<T>& A, TileMatrix<T>& C) { tessera::syrk(u, t, alpha, A, beta, C); });
}

template <class T>
void herk(char uplo, char trans, int64_t n, int64_t k, real_t<T> alpha, const T* a, int64_t lda, real_t<T> beta, T* c,
          int64_t ldc, const Options& opts) {
    rank_k_lapack("lapack::herk", uplo, trans, n, k, a, lda, c, ldc, opts,
                  [&](Uplo u, Trans t, TileMatrix<T>& A, TileMatrix<T>& C) { tessera::herk(u, t, alpha, A, beta, C); });
}

}  // namespace lapack

#define TESSERA_INSTANTIATE(T)                                                                                       \
    template void gemm_async(Trans, Trans, T, const TileMatrix<T>&, const TileMatrix<T>&, T, TileMatrix<T>&,         \
                             Sequence&);                                                                             \
    template void gemm(Trans, Trans, T, const TileMatrix<T>&, const TileMatrix<T>&, T, TileMatrix<T>&);              \
    template void trsm_async(Side, Uplo, Trans, Diag, T, const TileMatrix<T>&, TileMatrix<T>&, Sequence&);           \
    template void trsm(Side, Uplo, Trans, Diag, T, const TileMatrix<T>&, TileMatrix<T>&);                            \
    template void syrk_async(Uplo, Trans, T, const TileMatrix<T>&, T, TileMatrix<T>&, Sequence&);                    \
    template void syrk(Uplo, Trans, T, const TileMatrix<T>&, T, TileMatrix<T>&);                                     \
    template void lapack::gemm(char, char, int64_t, int64_t, int64_t, T, const T*, int64_t, const T*, int64_t, T, T*, \
                               int64_t, const Options&);                                                             \
    template void lapack::trsm(char, char, char, char, int64_t, int64_t, T, const T*, int64_t, T*, int64_t,          \
                               const Options&);                                                                      \
    template void herk_async(Uplo, Trans, real_t<T>, const TileMatrix<T>&, real_t<T>, TileMatrix<T>&, Sequence&);   \
    template void herk(Uplo, Trans, real_t<T>, const TileMatrix<T>&, real_t<T>, TileMatrix<T>&);                    \
    template void lapack::syrk(char, char, int64_t, int64_t, T, const T*, int64_t, T, T*, int64_t, const Options&);  \
    template void lapack::herk(char, char, int64_t, int64_t, real_t<T>, const T*, int64_t, real_t<T>, T*, int64_t,   \
                               const Options&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
