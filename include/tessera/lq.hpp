// Tile Householder LQ: gelqf, unmlq (ormlq), unglq (orglq) (LAPACK semantics, tile storage), and
// their LAPACK-layout forms.
//
// The LQ of A (m×n) is the conjugate transpose of the QR of Aᴴ: Aᴴ = Q̃·R gives A = L·Q with L = Rᴴ
// and Q = Q̃ᴴ. The tile algorithm is Chameleon's pzgelqf / pzunmlq / pzunglq (flat tree): at step k,
// gelqt factors the diagonal tile, gemlqt applies its Q to the tiles below it, tplqt (tslqt)
// annihilates each tile right of it against the diagonal L and tpmlqt (tsmlq) applies that to the
// trailing pairs of tiles. Each LQ tile kernel is its QR kernel on conjugate-transposed operands
// (codelets/lq_kernels.cpp: geqrt, tpqrt, gemqrt, tpmqrt of kernels/cpu/qr.hpp), so the tile
// layout is exactly the conjugate transpose of the tile QR of Aᴴ: L on and below the diagonal, the
// conjugated Householder vectors right of it (one set per tile kernel, not LAPACK xGELQF's), the T
// factors of the QR of Aᴴ (inner blocks of ib, LAPACK's compact-WY layout) in LQFactors. There is
// only this flat-tree form (QRForm::ColumnPanel has no LQ counterpart here).
//
// The lapack:: forms (xGELQF, xORMLQ/xUNMLQ, xORGLQ/xUNGLQ) run the lapack:: QR forms
// (QRForm::ColumnPanel, whose vectors and tau are LAPACK's) on a conjugate-transposed copy of the
// array: xGELQF's layout is the conjugate transpose of xGEQRF's on Aᴴ, with the same tau, so their
// results can be passed to LAPACK and back.
//
// Failures as in qr.hpp: invalid arguments throw Error before anything is submitted; a task that
// fails on its worker makes the synchronous forms, the LAPACK-layout forms and Sequence::wait throw
// TaskError.
#pragma once

#include "tessera/qr.hpp"
#include "tessera/tile_matrix.hpp"

namespace tessera {

/// The T factors of a tile LQ of an m×n TileMatrix A with tile size nb: mt×nt tiles, tile (i, j)
/// (j ≥ i) of ib rows × A.tile_rows(i) columns: tile (k, k) holds gelqt's factors of step k, tile
/// (k, j) (j > k) tplqt's factors of A(k, j) (LAPACK's compact-WY layout of the QR of Aᴴ; stored
/// as QRFactors of Aᴴ, QRFactors' Transposed constructor). Move-only; the running Runtime must
/// outlive it.
template <class T>
class LQFactors {
public:
    LQFactors() = default;
    /// Factors for A's shape and tiling with inner block size ib (each kernel uses min(ib, its
    /// reflectors)). Collective when distributed. Throws Error if ib < 1 or without a Runtime.
    LQFactors(const TileMatrix<T>& A, int64_t ib) : qr_(A, ib, typename QRFactors<T>::Transposed{}) {}

    int64_t m() const { return qr_.n(); }    ///< rows of the factored matrix
    int64_t n() const { return qr_.m(); }    ///< columns of the factored matrix
    int64_t nb() const { return qr_.nb(); }  ///< its tile size
    int64_t ib() const { return qr_.ib(); }  ///< inner block size: rows of every T tile
    int64_t mt() const { return qr_.nt(); }
    int64_t nt() const { return qr_.mt(); }
    /// StarPU handle of T tile (i, j), 0 ≤ i < mt, 0 ≤ j < nt. Throws Error once the Runtime has stopped.
    TileHandle handle(int64_t i, int64_t j) const { return qr_.handle(j, i); }
    /// Whether these factors fit A (same m, n, nb).
    bool matches(const TileMatrix<T>& A) const { return A.m() == m() && A.n() == n() && A.nb() == nb(); }

private:
    QRFactors<T> qr_;  // the factors of the QR of Aᴴ
};

/// LQ factorization A = L·Q of the m×n A (any m, n ≥ 0), in place: L in the lower trapezoid of A;
/// right of it the (conjugated) Householder vectors of each tile kernel; their T factors in F, which
/// must have been built for A (LQFactors(A, ib)). Chameleon's pzgelqf (flat tree), priorities along
/// the critical path. Throws Error if F does not match A.
template <class T>
void gelqf_async(TileMatrix<T>& A, LQFactors<T>& F, Sequence& seq);
/// Synchronous form: returns the factors built with opts.ib (0: the tuned geqrf inner block, clamped
/// to A.nb(); opts.nb and opts.qr_form are not used).
template <class T>
LQFactors<T> gelqf(TileMatrix<T>& A, const Options& opts = {});

/// Multiply C by Q from gelqf(A): C = op(Q)·C (side Left, C has A.n rows) or C = C·op(Q) (side
/// Right, C has A.n columns); Q is A.n×A.n, op(Q) = Q or Qᴴ (Qᵀ for real T; Trans = ConjTrans there)
/// (LAPACK xORMLQ/xUNMLQ semantics; Chameleon's pzunmlq). C must share A's tile size. Throws Error
/// on a shape mismatch or Trans with complex T.
template <class T>
void unmlq_async(Side side, Trans trans, const TileMatrix<T>& A, const LQFactors<T>& F, TileMatrix<T>& C,
                 Sequence& seq);
template <class T>
void unmlq(Side side, Trans trans, const TileMatrix<T>& A, const LQFactors<T>& F, TileMatrix<T>& C);

/// Form the leading rows of Q from gelqf(A) explicitly: Q (q × A.n, q ≤ A.n, A's tile size) is
/// overwritten by the first q rows of Q (q = min(m, n) gives LAPACK xORGLQ's thin Q; q = n the full
/// Q). Chameleon's pzunglq: identity, then the reflectors in reverse from the right, skipping the
/// tile rows that are still zero. Throws Error on a shape mismatch.
template <class T>
void unglq_async(const TileMatrix<T>& A, const LQFactors<T>& F, TileMatrix<T>& Q, Sequence& seq);
template <class T>
void unglq(const TileMatrix<T>& A, const LQFactors<T>& F, TileMatrix<T>& Q);

namespace lapack {
/// xGELQF on a LAPACK column-major array: the LQ factorization A = L·Q of the m×n a
/// (lda ≥ max(1, m)), in place, in xGELQF's layout exactly: L (m×min(m, n), lower trapezoidal) on and
/// below the diagonal, right of it the conjugated Householder vector of each reflector in its row
/// (v_i(i) = 1 not stored), Q = H_kᴴ·…·H_1ᴴ (H_k·…·H_1 for real T), H_i = I − tau_i·v_i·v_iᴴ;
/// tau (min(m, n) scalars) receives the tau_i. Algorithm: lapack::geqrf (QRForm::ColumnPanel) on a
/// conjugate-transposed copy of a, copied back conjugate-transposed (xGELQF's layout is that of
/// xGEQRF on Aᴴ, with the same tau); tiles of opts.nb (0: the tuned geqrf one). Returns info = 0. Invalid
/// arguments (m, n < 0, lda < max(1, m), tau null with min(m, n) > 0, no Runtime) throw Error naming
/// the argument; distributed runs throw Error; a failed task throws TaskError (a unspecified).
template <class T>
int64_t gelqf(int64_t m, int64_t n, T* a, int64_t lda, T* tau, const Options& opts = {});

/// xORMLQ (real T) / xUNMLQ (complex T) on LAPACK column-major arrays: C (m×n, ldc ≥ max(1, m)) is
/// overwritten by op(Q)·C (side 'L') or C·op(Q) (side 'R'), Q of order nq (m for 'L', n for 'R')
/// given in xGELQF's layout: the k ≤ nq reflectors in the rows of the k×nq a (lda ≥ max(1, k); the
/// entries on and left of the diagonal are not read, a is not written) and tau[0..k). trans 'N' or
/// 'C' (real T: 'T' or 'C'; 'T' with complex T throws). Algorithm: lapack::unmqr with the
/// transposition flipped on aᴴ (a copy) and the same tau. Invalid arguments (side, trans, m, n, k < 0
/// or k > nq, lda, ldc, tau null with k > 0, no Runtime) throw Error naming the argument;
/// distributed runs throw Error; a failed task throws TaskError (C unspecified).
template <class T>
void unmlq(char side, char trans, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* tau, T* c,
           int64_t ldc, const Options& opts = {});

/// xORGLQ (real T) / xUNGLQ (complex T) on a LAPACK column-major array: the m×n a (n ≥ m ≥ k ≥ 0,
/// lda ≥ max(1, m)) holds in its first k rows the reflectors of xGELQF's layout (right of the
/// diagonal), tau[0..k) their scalars; a is overwritten by the first m rows of Q (orthonormal rows).
/// Algorithm: lapack::ungqr on aᴴ (a copy) with the same tau, copied back conjugate-transposed. Invalid
/// arguments (m, n, k < 0, m > n, k > m, lda, tau null with k > 0, no Runtime) throw Error naming the
/// argument; distributed runs throw Error; a failed task throws TaskError (a unspecified).
template <class T>
void unglq(int64_t m, int64_t n, int64_t k, T* a, int64_t lda, const T* tau, const Options& opts = {});
}  // namespace lapack

}  // namespace tessera
