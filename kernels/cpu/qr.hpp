// CPU tile kernels of Householder QR: typed wrappers over LAPACKE's xGEQRT, xGEMQRT, xTPQRT and
// xTPMQRT (column-major, LAPACK 3.4+ compact-WY with an inner block size), in s, d, c and z; op(Q)
// is Q or Qᵀ for real T, Q or Qᴴ for complex T (LAPACK's 'C'). No StarPU here.
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

}  // namespace tessera::cpu
