// Tile Householder QR: geqrf, unmqr (ormqr), ungqr (orgqr), gels (LAPACK semantics, tile storage).
//
// Algorithms, one per QRForm (types.hpp), chosen when the factors are built:
//  - TileTree: the flat-tree tile QR of Buttari, Langou, Kurzak and Dongarra (2009), as in PLASMA's
//    pdgeqrf and Chameleon's pzgeqrf: at step k, geqrt factors the diagonal tile, gemqrt applies its
//    Qᴴ to the tiles on its right, tpqrt (tsqrt) annihilates each tile below against the diagonal R
//    and tpmqrt (tsmqr) applies that to the trailing pairs of tiles. Inner blocking ib: every kernel
//    keeps its Householder block factors in LAPACK's compact-WY layout (xGEQRT/xTPQRT), ib×k per
//    tile. The Householder vectors differ from LAPACK xGEQRF's (one set per tile, not per column).
//  - ColumnPanel (with an OpenCL device): LAPACK xGEQRF's blocking with nb-column panels (as MAGMA's
//    and cuSOLVER's GPU geqrf): panel k, the whole tile column, is one task (Elmroth and Gustavson's
//    recursive QR on the device, xGEQRT on a CPU), and Q_k = I − V_k·T_k·V_kᴴ reaches the trailing
//    tiles as GEMMs (xLARFB). The Householder vectors are LAPACK xGEQRF's, one per column.
// Either way the factors are consumed by unmqr/ungqr/gels here, not by LAPACK's xORMQR. The
// lapack:: forms (xGEQRF, xORMQR/xUNMQR, xORGQR/xUNGQR, xGELS on column-major arrays) use ColumnPanel,
// whose vectors and tau are LAPACK's: their results can be passed to LAPACK and back.
//
// Failures: invalid arguments throw Error before anything is submitted; a task that fails on its
// worker (kernel launch, device, allocation) makes the synchronous forms, the LAPACK-layout forms and
// Sequence::wait throw TaskError once the submitted tasks have drained, and a task StarPU refuses
// makes the call that submits it throw Error (see Sequence in tile_matrix.hpp).
#pragma once

#include <vector>

#include "tessera/tile_matrix.hpp"

namespace tessera {

/// The T factors of a QR of an m×n TileMatrix A with tile size nb, in one of two forms (QRForm):
///  - TileTree: mt×nt tiles, tile (i, j) of ib rows × A.tile_cols(j) columns: tile (k, k) holds
///    geqrt's factors of step k, tile (i, k) (i > k) tpqrt's factors of A(i, k); only the tiles of
///    the lower trapezoid (i ≥ j) are written by geqrf.
///  - ColumnPanel: one tile (k, k) of A.tile_cols(k)² elements for each tile column k < min(mt, nt),
///    the upper triangular T of panel k's reflectors (LAPACK xLARFT), Q_k = I − V_k·T_k·V_kᴴ, V_k the
///    Householder vectors below the diagonal of tile column k (unit diagonal not stored); the other
///    handles are null, and ib is not used.
/// Column-major, registered with StarPU like A's tiles. Move-only; the running Runtime must outlive
/// it (the destructor unregisters the tiles, waiting for their tasks).
template <class T>
class QRFactors {
public:
    QRFactors() = default;
    /// Factors for A's shape and tiling with inner block size ib (TileTree: the tile algorithm uses
    /// min(ib, reflectors of the tile) per kernel) in the given form (Auto: ColumnPanel when the
    /// Runtime has an OpenCL device, distributed MPI rank 0's choice, else TileTree; collective when
    /// distributed, as every constructor of a registered matrix). Throws Error if ib < 1.
    QRFactors(const TileMatrix<T>& A, int64_t ib, QRForm form = QRForm::Auto);
    /// Tag of the constructor below.
    struct Transposed {};
    /// TileTree factors of the QR of Aᴴ (A.n × A.m, tiles of A.nb), the storage of LQFactors (lq.hpp):
    /// T tile (i, j) is ib × A.tile_rows(j) and lives with A(j, i). Throws Error if ib < 1.
    QRFactors(const TileMatrix<T>& A, int64_t ib, Transposed);
    ~QRFactors();
    QRFactors(QRFactors&&) noexcept;
    QRFactors& operator=(QRFactors&&) noexcept;
    QRFactors(const QRFactors&) = delete;
    QRFactors& operator=(const QRFactors&) = delete;

    int64_t m() const { return m_; }    ///< rows of the factored matrix
    int64_t n() const { return n_; }    ///< columns of the factored matrix
    int64_t nb() const { return nb_; }  ///< its tile size
    int64_t ib() const { return ib_; }  ///< inner block size: rows of every T tile (TileTree)
    int64_t mt() const { return mt_; }
    int64_t nt() const { return nt_; }
    QRForm form() const { return form_; }  ///< TileTree or ColumnPanel (never Auto)
    /// StarPU handle of T tile (i, j), 0 ≤ i < mt, 0 ≤ j < nt (ColumnPanel: null unless i = j).
    /// Throws Error once the Runtime has stopped (it releases the factors of a QRFactors that
    /// outlives it, as it does a TileMatrix's tiles).
    TileHandle handle(int64_t i, int64_t j) const {
        if (store_.orphaned()) throw_orphaned();
        return store_.handles()[size_t(j * mt_ + i)];
    }
    /// Whether these factors fit A (same m, n, nb).
    bool matches(const TileMatrix<T>& A) const { return A.m() == m_ && A.n() == n_ && A.nb() == nb_; }

private:
    [[noreturn]] static void throw_orphaned();
    void build(const TileMatrix<T>& A, bool transposed);  // the T tiles of A's (or Aᴴ's) tiling
    int64_t m_ = 0, n_ = 0, nb_ = 1, ib_ = 1, mt_ = 0, nt_ = 0;
    QRForm form_ = QRForm::TileTree;
    detail::TileStorage store_;  // the T tiles (this rank's) and their handles
};

/// QR factorization A = Q·R of the m×n A (any m, n ≥ 0; m < n included), in place: R in the upper
/// trapezoid of A; below it the Householder vectors (of each tile kernel, or of each column); their
/// T factors in F, which must have been built for A (QRFactors(A, ib[, form])). The algorithm of
/// F.form() (see the top of this header), priorities along the critical path. Throws Error if F
/// does not match A.
template <class T>
void geqrf_async(TileMatrix<T>& A, QRFactors<T>& F, Sequence& seq);
/// Synchronous form: returns the factors built with opts.ib (0: the tuned geqrf inner block, clamped
/// to A.nb(); opts.nb is not used: A is already tiled) in the form opts.qr_form.
template <class T>
QRFactors<T> geqrf(TileMatrix<T>& A, const Options& opts = {});

/// Multiply C by Q from geqrf(A): C = op(Q)·C (side Left, C has A.m rows) or C = C·op(Q) (side
/// Right, C has A.m columns); Q is A.m×A.m, op(Q) = Q or Qᵀ (ConjTrans = Trans for real T)
/// (LAPACK xORMQR/xUNMQR semantics). C must share A's tile size. Throws Error on a shape mismatch.
template <class T>
void unmqr_async(Side side, Trans trans, const TileMatrix<T>& A, const QRFactors<T>& F, TileMatrix<T>& C,
                 Sequence& seq);
template <class T>
void unmqr(Side side, Trans trans, const TileMatrix<T>& A, const QRFactors<T>& F, TileMatrix<T>& C);

/// Form the leading columns of Q from geqrf(A) explicitly: Q (A.m × q, q ≤ A.m, A's tile size) is
/// overwritten by the first q columns of Q (q = min(m, n) gives LAPACK xORGQR's thin Q; q = m the
/// full Q). Chameleon's pzungqr: identity, then the reflectors in reverse, skipping the tile columns
/// that are still zero. Throws Error on a shape mismatch.
template <class T>
void ungqr_async(const TileMatrix<T>& A, const QRFactors<T>& F, TileMatrix<T>& Q, Sequence& seq);
template <class T>
void ungqr(const TileMatrix<T>& A, const QRFactors<T>& F, TileMatrix<T>& Q);

/// Least squares and minimum-norm solutions with a full-rank m×n A (LAPACK xGELS semantics):
///  - trans NoTrans, m ≥ n: X minimizes ‖B − A·X‖;   trans Trans, m < n: X minimizes ‖B − Aᵀ·X‖;
///  - trans NoTrans, m < n: X is the minimum-norm solution of A·X = B;
///  - trans Trans, m ≥ n: X is the minimum-norm solution of Aᵀ·X = B.
/// B is max(m, n)×nrhs: on entry its leading m (NoTrans) or n (Trans) rows hold the right-hand sides,
/// on exit its leading n (NoTrans) or m (Trans) rows hold X (for least squares, the remaining rows
/// hold the residual's coordinates in Q's trailing columns, as LAPACK). For m ≥ n, A is overwritten
/// by geqrf's factors; for m < n, by gelqf's (the tile LQ in place, lq.hpp; opts.qr_form unused):
/// NoTrans X = Qᴴ·[L⁻¹·B; 0], Trans X = L⁻ᴴ·(Q·B)[0:m], as LAPACK xGELS.
/// Returns info: 0, or k > 0 when R(k, k) is exactly zero (A rank deficient; X not computed, B holds
/// intermediate values). Throws Error if B's shape or tile size does not match.
template <class T>
int64_t gels(Trans trans, TileMatrix<T>& A, TileMatrix<T>& B, const Options& opts = {});
/// Submit-only form for m ≥ n: F must be built for A. info comes from seq.wait(); when it is > 0, B
/// holds no solution. Throws Error for m < n (use gels(), which factors by LQ).
template <class T>
void gels_async(Trans trans, TileMatrix<T>& A, QRFactors<T>& F, TileMatrix<T>& B, Sequence& seq);

namespace lapack {
/// xGEQRF on a LAPACK column-major array: the QR factorization A = Q·R of the m×n a (lda ≥ max(1, m)),
/// in place, in xGEQRF's layout exactly: R (min(m, n)×n, upper trapezoidal) on and above the
/// diagonal, below it the Householder vector v_i of each reflector H_i = I − tau_i·v_i·v_iᴴ
/// (v_i(i) = 1 not stored, zeros above it), Q = H_1·…·H_min(m, n); tau (min(m, n) scalars) receives
/// the tau_i. Algorithm: QRForm::ColumnPanel (LAPACK xGEQRF's blocking with opts.nb-wide panels, each
/// factored by xGEQRT on a CPU or the recursive panel on an OpenCL device, the trailing updates as
/// xLARFB's GEMMs); tau_i is the diagonal of each panel's T (xLARFT's T(i, i)). opts.ib and
/// opts.qr_form are not used; tiles of opts.nb (0: the tuned geqrf one), in place or on copies
/// (Options::layout). R and tau agree with LAPACKE_xgeqrf's within rounding (the same reflectors).
/// Returns info = 0. Invalid arguments (m, n < 0, lda < max(1, m), tau null with min(m, n) > 0, no
/// Runtime) throw Error naming the argument; distributed (MPI) runs throw Error; a task failing on
/// its worker throws TaskError (a then holds unspecified values).
template <class T>
int64_t geqrf(int64_t m, int64_t n, T* a, int64_t lda, T* tau, const Options& opts = {});

/// xORMQR (real T) / xUNMQR (complex T) on LAPACK column-major arrays: C (m×n, ldc ≥ max(1, m)) is
/// overwritten by op(Q)·C (side 'L') or C·op(Q) (side 'R'), Q = H_1·…·H_k of order nq (m for 'L',
/// n for 'R') given in xGEQRF's layout: the k ≤ nq Householder vectors below the diagonal of the
/// nq×k a (lda ≥ max(1, nq); the entries on and above the diagonal are not read, a is not written)
/// and their scalars tau[0..k). trans 'N': op(Q) = Q; 'C': Qᴴ, and for real T 'T' (or 'C') Qᵀ, as
/// LAPACK's xORMQR / xUNMQR ('T' with complex T throws). Algorithm: each nb-wide group of reflectors
/// gets its T again (xLARFT by blocks of 32 reflectors, merged through xHERK and xTRMM; a CPU task
/// per panel), then the tile unmqr of QRForm::ColumnPanel (xLARFB's GEMMs). Tiles of opts.nb (0:
/// the tuned geqrf one); in place or on copies (Options::layout). Invalid arguments (side, trans,
/// m, n, k < 0 or k > nq, lda, ldc, tau null with k > 0, no Runtime) throw Error naming the
/// argument; distributed runs throw Error; a failed task throws TaskError (C unspecified).
template <class T>
void unmqr(char side, char trans, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* tau, T* c,
           int64_t ldc, const Options& opts = {});

/// xORGQR (real T) / xUNGQR (complex T) on a LAPACK column-major array: the m×n a (m ≥ n ≥ k ≥ 0,
/// lda ≥ max(1, m)) holds in its first k columns the Householder vectors of xGEQRF's layout (below
/// the diagonal), tau[0..k) their scalars; a is overwritten by the first n columns of Q = H_1·…·H_k
/// (orthonormal columns; n = k = min(m, n_A) after geqrf gives the thin Q, n = m the full one).
/// Algorithm: the vectors are copied (m×k), each nb-wide panel's T formed as in unmqr, then the
/// tile ungqr of QRForm::ColumnPanel (identity, then the panels applied last to first). Tiles of
/// opts.nb (0: the tuned geqrf one). Invalid arguments (m, n, k < 0, n > m, k > n, lda, tau null
/// with k > 0, no Runtime) throw Error naming the argument; distributed runs throw Error; a failed
/// task throws TaskError (a unspecified).
template <class T>
void ungqr(int64_t m, int64_t n, int64_t k, T* a, int64_t lda, const T* tau, const Options& opts = {});

/// xGELS on LAPACK column-major arrays: a is m×n (lda ≥ max(1, m)), b is max(m, n)×nrhs
/// (ldb ≥ max(1, m, n)); trans 'N' or 'C' ('T' = 'C' for real T); semantics as tessera::gels.
/// Tiles of opts.nb (0: the tuned geqrf one), on the arrays in place or on copies (Options::layout).
/// For m ≥ n, a is overwritten by xGEQRF's layout of A = Q·R, as LAPACK's xGELS leaves it (R on and
/// above the diagonal, the Householder vectors below; their tau are not returned, as LAPACK keeps
/// them in its workspace): QRForm::ColumnPanel is used whatever opts.qr_form says. For m < n, a is
/// overwritten by xGELQF's layout of A = L·Q, as LAPACK's xGELS leaves it: the ColumnPanel QR of a
/// conjugate-transposed copy of a (lapack::gelqf's algorithm), copied back. Returns info
/// as gels; invalid arguments throw Error naming the argument, a task failing on its worker throws
/// TaskError (the arrays then hold unspecified values).
template <class T>
int64_t gels(char trans, int64_t m, int64_t n, int64_t nrhs, T* a, int64_t lda, T* b, int64_t ldb,
             const Options& opts = {});
}  // namespace lapack

}  // namespace tessera
