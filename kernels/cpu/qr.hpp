// CPU tile kernels of Householder QR: typed wrappers over LAPACKE's xGEQRT, xGEMQRT, xTPQRT and
// xTPMQRT (column-major, LAPACK 3.4+ compact-WY with an inner block size), xLARFT, and larft, one T
// for all of a tile's reflectors (CBLAS), in s, d, c and z; op(Q) is Q or Qᵀ for real T, Q or Qᴴ for
// complex T (LAPACK's 'C'). No StarPU here.
//
// The T factor of k reflectors with inner block size ib is an ib×k array (ldt ≥ ib): block b
// (reflectors b·ib .. b·ib+nb_b−1, nb_b = min(ib, k − b·ib)) keeps its upper triangular nb_b×nb_b
// T_b in rows 0..nb_b−1 of columns b·ib.. (LAPACK's layout). LAPACK requires 1 ≤ nb ≤ k, so every
// wrapper clamps ib to min(ib, k), identically for the factorization and its application.
// Workspace comes from a per-thread buffer; LAPACKE's info is returned (0 unless an argument is
// invalid, which the codelets rule out).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/cpu/blas.hpp"
#include "tessera/types.hpp"

namespace tessera::cpu {

/// Inner block size actually used for k reflectors: clamp(ib, 1, k).
inline int64_t qr_ib(int64_t ib, int64_t k) { return std::max<int64_t>(1, std::min(ib, k)); }

/// A per-thread workspace of at least `count` elements of T.
template <class T>
T* qr_work(int64_t count) {
    thread_local std::vector<T> work;
    if (int64_t(work.size()) < count) work.resize(size_t(count));
    return work.data();
}

/// B (n×m, ldb ≥ n) = Aᴴ (Aᵀ for real T), A m×n: the LQ kernels' operands for the QR kernels.
template <class T>
void conj_transpose(int64_t m, int64_t n, const T* A, int64_t lda, T* B, int64_t ldb) {
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) B[j + i * ldb] = conjugate(A[i + j * lda]);
}

/// QR of the m×n tile A (xGEQRT): R on and above the diagonal, the unit lower trapezoidal V below,
/// T (ldt ≥ ib) the min(m, n) reflectors' block factors.
template <class T>
int geqrt(int64_t m, int64_t n, int64_t ib, T* A, int64_t lda, T* Tf, int64_t ldt) {
    const int64_t k = std::min(m, n);
    if (k == 0) return 0;
    const int64_t nb = qr_ib(ib, k);
    T* work = qr_work<T>(nb * n);
    if constexpr (std::is_same_v<T, float>)
        return LAPACKE_sgeqrt_work(LAPACK_COL_MAJOR, int(m), int(n), int(nb), A, int(lda), Tf, int(ldt), work);
    else if constexpr (std::is_same_v<T, double>)
        return LAPACKE_dgeqrt_work(LAPACK_COL_MAJOR, int(m), int(n), int(nb), A, int(lda), Tf, int(ldt), work);
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        return LAPACKE_cgeqrt_work(LAPACK_COL_MAJOR, int(m), int(n), int(nb), A, int(lda), Tf, int(ldt), work);
    else
        return LAPACKE_zgeqrt_work(LAPACK_COL_MAJOR, int(m), int(n), int(nb), A, int(lda), Tf, int(ldt), work);
}

/// C = op(Q)·C (Left) or C·op(Q) (Right), C m×n, Q = H(1)…H(k) from geqrt's V (m×k Left, n×k
/// Right, unit lower trapezoidal, upper part not referenced) and T (xGEMQRT).
template <class T>
int gemqrt(Side side, Trans trans, int64_t m, int64_t n, int64_t k, int64_t ib, const T* V, int64_t ldv,
           const T* Tf, int64_t ldt, T* C, int64_t ldc) {
    if (m == 0 || n == 0 || k == 0) return 0;
    const int64_t nb = qr_ib(ib, k);
    T* work = qr_work<T>(nb * (side == Side::Left ? n : m));
    const char s = char(side), t = lapack_trans<T>(trans);
    if constexpr (std::is_same_v<T, float>)
        return LAPACKE_sgemqrt_work(LAPACK_COL_MAJOR, s, t, int(m), int(n), int(k), int(nb), V, int(ldv), Tf, int(ldt),
                                    C, int(ldc), work);
    else if constexpr (std::is_same_v<T, double>)
        return LAPACKE_dgemqrt_work(LAPACK_COL_MAJOR, s, t, int(m), int(n), int(k), int(nb), V, int(ldv), Tf, int(ldt),
                                    C, int(ldc), work);
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        return LAPACKE_cgemqrt_work(LAPACK_COL_MAJOR, s, t, int(m), int(n), int(k), int(nb), V, int(ldv), Tf, int(ldt),
                                    C, int(ldc), work);
    else
        return LAPACKE_zgemqrt_work(LAPACK_COL_MAJOR, s, t, int(m), int(n), int(k), int(nb), V, int(ldv), Tf, int(ldt),
                                    C, int(ldc), work);
}

/// QR of the (n+m)×n stack [R; B] (xTPQRT with l = 0, PLASMA's tsqrt): R is the upper triangle of A's
/// leading n×n block, B is m×n; R is updated in place and B is overwritten by the reflectors V.
template <class T>
int tpqrt(int64_t m, int64_t n, int64_t ib, T* A, int64_t lda, T* B, int64_t ldb, T* Tf, int64_t ldt) {
    if (n == 0) return 0;
    const int64_t nb = qr_ib(ib, n);
    T* work = qr_work<T>(nb * n);
    if constexpr (std::is_same_v<T, float>)
        return LAPACKE_stpqrt_work(LAPACK_COL_MAJOR, int(m), int(n), 0, int(nb), A, int(lda), B, int(ldb), Tf,
                                   int(ldt), work);
    else if constexpr (std::is_same_v<T, double>)
        return LAPACKE_dtpqrt_work(LAPACK_COL_MAJOR, int(m), int(n), 0, int(nb), A, int(lda), B, int(ldb), Tf,
                                   int(ldt), work);
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        return LAPACKE_ctpqrt_work(LAPACK_COL_MAJOR, int(m), int(n), 0, int(nb), A, int(lda), B, int(ldb), Tf,
                                   int(ldt), work);
    else
        return LAPACKE_ztpqrt_work(LAPACK_COL_MAJOR, int(m), int(n), 0, int(nb), A, int(lda), B, int(ldb), Tf,
                                   int(ldt), work);
}

/// Apply tpqrt's Q (xTPMQRT with l = 0, PLASMA's tsmqr): Left: [A; B] = op(Q)·[A; B], A k×n, B m×n,
/// V m×k; Right: [A B] = [A B]·op(Q), A m×k, B m×n, V n×k.
template <class T>
int tpmqrt(Side side, Trans trans, int64_t m, int64_t n, int64_t k, int64_t ib, const T* V, int64_t ldv, const T* Tf,
           int64_t ldt, T* A, int64_t lda, T* B, int64_t ldb) {
    if (m == 0 || n == 0 || k == 0) return 0;
    const int64_t nb = qr_ib(ib, k);
    T* work = qr_work<T>(nb * (side == Side::Left ? n : m));
    const char s = char(side), t = lapack_trans<T>(trans);
    if constexpr (std::is_same_v<T, float>)
        return LAPACKE_stpmqrt_work(LAPACK_COL_MAJOR, s, t, int(m), int(n), int(k), 0, int(nb), V, int(ldv), Tf,
                                    int(ldt), A, int(lda), B, int(ldb), work);
    else if constexpr (std::is_same_v<T, double>)
        return LAPACKE_dtpmqrt_work(LAPACK_COL_MAJOR, s, t, int(m), int(n), int(k), 0, int(nb), V, int(ldv), Tf,
                                    int(ldt), A, int(lda), B, int(ldb), work);
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        return LAPACKE_ctpmqrt_work(LAPACK_COL_MAJOR, s, t, int(m), int(n), int(k), 0, int(nb), V, int(ldv), Tf,
                                    int(ldt), A, int(lda), B, int(ldb), work);
    else
        return LAPACKE_ztpmqrt_work(LAPACK_COL_MAJOR, s, t, int(m), int(n), int(k), 0, int(nb), V, int(ldv), Tf,
                                    int(ldt), A, int(lda), B, int(ldb), work);
}

/// T (k×k, ldt ≥ k, upper triangle written) of the block reflector H(0)·…·H(k−1) = I − V·T·Vᴴ from
/// the m×k unit lower trapezoidal V (upper part not referenced) and the scalars tau[0..k) (LAPACK
/// xLARFT, direct = 'F', storev = 'C'; level 2: meant for a few dozen columns).
template <class T>
int larft_forward(int64_t m, int64_t k, const T* V, int64_t ldv, const T* tau, T* Tf, int64_t ldt) {
    if (k == 0) return 0;
    if constexpr (std::is_same_v<T, float>)
        return LAPACKE_slarft_work(LAPACK_COL_MAJOR, 'F', 'C', int(m), int(k), V, int(ldv), tau, Tf, int(ldt));
    else if constexpr (std::is_same_v<T, double>)
        return LAPACKE_dlarft_work(LAPACK_COL_MAJOR, 'F', 'C', int(m), int(k), V, int(ldv), tau, Tf, int(ldt));
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        return LAPACKE_clarft_work(LAPACK_COL_MAJOR, 'F', 'C', int(m), int(k), V, int(ldv), tau, Tf, int(ldt));
    else
        return LAPACKE_zlarft_work(LAPACK_COL_MAJOR, 'F', 'C', int(m), int(k), V, int(ldv), tau, Tf, int(ldt));
}

/// Tk (k×k, ldtk ≥ k) = the upper triangular T of all k reflectors of V, zeros below its diagonal,
/// merged from Tf's inner blocks of ib (LAPACK xLARFT's recurrence block by block:
/// Tk[0:P, J] = −Tk[0:P, 0:P]·(V[:, 0:P]ᴴ·V[:, J])·T_J, with V[:, 0:P]ᴴ·V[:, J] from one xHERK).
/// V is xGEQRT's mv×k unit lower trapezoidal V (upper part not referenced, k ≤ mv) or, when
/// below_identity, xTPQRT's mv×k V (l = 0) under an implicit identity. gemqrt and tpmqrt with Tk and
/// ib = k apply the same Q as with Tf and ib.
template <class T>
void larft(bool below_identity, int64_t mv, int64_t k, int64_t ib, const T* V, int64_t ldv, const T* Tf,
           int64_t ldt, T* Tk, int64_t ldtk) {
    const int64_t nb = qr_ib(ib, k);
    for (int64_t j = 0; j < k; ++j)  // the inner blocks' T_J on the diagonal, zeros elsewhere
        for (int64_t i = 0; i < k; ++i) {
            const int64_t p = j - j % nb;  // first column of j's inner block
            Tk[i + j * ldtk] = i >= p && i <= j ? Tf[(i - p) + j * ldt] : T(0);
        }
    if (nb >= k) return;
    // G's upper triangle = V̂ᴴ·V̂ (the identity above xTPQRT's V adds nothing off the diagonal);
    // xGEQRT's V̂ is copied with its zeros and unit diagonal first.
    T* work = qr_work<T>(k * k + (below_identity ? 0 : mv * k));
    T *G = work, *vhat = work + k * k;
    const T* v = V;
    int64_t ldvh = ldv;
    if (!below_identity) {
        for (int64_t j = 0; j < k; ++j)
            for (int64_t i = 0; i < mv; ++i) vhat[i + j * mv] = i < j ? T(0) : i == j ? T(1) : V[i + j * ldv];
        v = vhat, ldvh = mv;
    }
    herk<T>(Uplo::Upper, Trans::ConjTrans, k, mv, real_t<T>(1), v, ldvh, real_t<T>(0), G, k);
    for (int64_t p = nb; p < k; p += nb) {  // Tk[0:P, J] = −Tk[0:P, 0:P]·(G[0:P, J]·T_J)
        const int64_t jb = std::min(nb, k - p);
        T* tj = Tk + p * ldtk;
        for (int64_t j = 0; j < jb; ++j)
            for (int64_t i = 0; i < p; ++i) tj[i + j * ldtk] = G[i + (p + j) * k];
        trmm<T>(Side::Right, Uplo::Upper, Trans::NoTrans, Diag::NonUnit, p, jb, T(1), Tk + p + p * ldtk, ldtk, tj,
                ldtk);
        trmm<T>(Side::Left, Uplo::Upper, Trans::NoTrans, Diag::NonUnit, p, jb, T(-1), Tk, ldtk, tj, ldtk);
    }
}

}  // namespace tessera::cpu
