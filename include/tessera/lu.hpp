// Tile LU: partial pivoting (getrf, getrs, gesv; LAPACK xGETRF/xGETRS/xGESV semantics), no pivoting
// (getrf_nopiv, ...) and incremental pivoting (getrf_incpiv, ...; Buttari, Langou, Kurzak and
// Dongarra 2009).
// Failures: invalid arguments throw Error before anything is submitted; a task that fails on its
// worker (kernel launch, device, allocation) makes the synchronous forms, the LAPACK-layout forms and
// Sequence::wait throw TaskError once the submitted tasks have drained, and a task StarPU refuses
// makes the call that submits it throw Error (see Sequence in tile_matrix.hpp).
#pragma once

#include <memory>
#include <vector>

#include "tessera/tile_matrix.hpp"

namespace tessera {

// ---- Partial pivoting (LAPACK-compatible)

/// LU factorization with partial pivoting P·A = L·U of the m×n A, in place: L (unit lower
/// trapezoidal, m×min(m,n)) below the diagonal, U (upper trapezoidal, min(m,n)×n) on and above it.
/// ipiv is resized to min(m, n) and receives LAPACK's pivots: 1-based global row indices, row i
/// was interchanged with row ipiv[i]; the interchanges are applied to the whole rows of A, so A and
/// ipiv mean exactly what xGETRF's output means (xGETRS solves with them).
/// Algorithm: right-looking tile LU; step k factors the column of tiles k as one CPU task (gathered
/// into a contiguous panel, LAPACK xGETRF on it), applies its interchanges to every other column of
/// tiles as laswp tasks, then updates the trailing matrix with trsm and gemm tasks. Priorities
/// favour the panel path, so panel k+1 starts as soon as its column is updated (look-ahead).
/// Distributed (A block-cyclic over P×Q ranks): the same graph; panel k runs on the rank owning
/// tile (k, k), the column's tiles of other ranks (P > 1) sent to it and back, and its pivots go to
/// the ranks whose interchanges need them; every rank's ipiv holds all the pivots once getrf (or
/// getrf_async's seq.wait()) returns.
/// Returns info: 0, or i > 0 when U(i, i) (1-based) is exactly zero; the factorization is completed
/// anyway, as LAPACK does.
template <class T>
int64_t getrf(TileMatrix<T>& A, std::vector<int64_t>& ipiv);
/// Submit-only form: info is returned by seq.wait(). ipiv is resized here, filled by the tasks, and
/// must be neither resized nor destroyed before seq.wait() returns.
template <class T>
void getrf_async(TileMatrix<T>& A, std::vector<int64_t>& ipiv, Sequence& seq);

/// Solve op(A)·X = B (trans NoTrans, Trans or ConjTrans) with the n×n A factored by getrf and its
/// ipiv; B is n×nrhs, overwritten by X. Throws Error if A is not square, B's rows differ from n, the
/// tile sizes differ or ipiv's length is not n. Distributed (A and B block-cyclic over the same
/// P×Q ranks), every rank passes its ipiv from a getrf that has returned (or been waited).
template <class T>
void getrs(Trans trans, const TileMatrix<T>& A, const std::vector<int64_t>& ipiv, TileMatrix<T>& B);
/// Submit-only form; A, ipiv and B must stay alive until seq.wait() returns. In one process it may
/// follow getrf_async on the same matrices without waiting in between; distributed, getrf's
/// sequence must have been waited first (until then a rank's ipiv may lack pivots in flight).
template <class T>
void getrs_async(Trans trans, const TileMatrix<T>& A, const std::vector<int64_t>& ipiv, TileMatrix<T>& B,
                 Sequence& seq);

/// getrf followed by getrs (A·X = B, A n×n, B n×nrhs). Returns getrf's info; when info > 0, B is
/// left unchanged (U is singular). A and ipiv hold the factorization.
template <class T>
int64_t gesv(TileMatrix<T>& A, std::vector<int64_t>& ipiv, TileMatrix<T>& B);
/// Submit-only form; the solve is submitted regardless of the factorization's outcome: when
/// seq.wait() returns info > 0, B holds no solution. One process only (it submits getrs before
/// getrf's pivots have reached every rank): distributed it throws Error; call gesv there.
template <class T>
void gesv_async(TileMatrix<T>& A, std::vector<int64_t>& ipiv, TileMatrix<T>& B, Sequence& seq);

// ---- No pivoting (for diagonally dominant matrices)

/// LU factorization A = L·U without pivoting of the m×n A, in place (L unit lower, U upper).
/// Tile algorithm: LU of the diagonal tile (CPU), trsm of the tiles below and to its right, gemm
/// update of the trailing matrix. Returns info: 0, or the 1-based index of the first exactly zero
/// pivot (the column is then left unscaled and the factorization goes on, as xGETF2 does). Stable
/// only for matrices that need no pivoting (e.g. diagonally dominant by columns).
template <class T>
int64_t getrf_nopiv(TileMatrix<T>& A);
template <class T>
void getrf_nopiv_async(TileMatrix<T>& A, Sequence& seq);
/// Solve op(A)·X = B with A = L·U from getrf_nopiv (A n×n, B n×nrhs overwritten by X).
template <class T>
void getrs_nopiv(Trans trans, const TileMatrix<T>& A, TileMatrix<T>& B);
template <class T>
void getrs_nopiv_async(Trans trans, const TileMatrix<T>& A, TileMatrix<T>& B, Sequence& seq);
/// getrf_nopiv then getrs_nopiv; returns the factorization's info (B unchanged when > 0).
template <class T>
int64_t gesv_nopiv(TileMatrix<T>& A, TileMatrix<T>& B);
template <class T>
void gesv_nopiv_async(TileMatrix<T>& A, TileMatrix<T>& B, Sequence& seq);

// ---- Incremental pivoting (Buttari, Langou, Kurzak, Dongarra 2009; PLASMA's tile LU)

/// The factor representation of getrf_incpiv besides A itself: for every step k, the pivots of the
/// diagonal tile's LU, and for every tile (i, k) below it the pivots and the ib×nb tile of unit
/// lower triangular ib×ib blocks produced by tstrf. Default-constructed empty; getrf_incpiv sizes
/// it for its A. Owns StarPU handles: destroy it before the Runtime.
template <class T>
class IncpivFactors {
public:
    IncpivFactors();
    ~IncpivFactors();
    IncpivFactors(IncpivFactors&&) noexcept;
    IncpivFactors& operator=(IncpivFactors&&) noexcept;

    int64_t m() const;   ///< rows of the factored matrix
    int64_t n() const;   ///< columns of the factored matrix
    int64_t nb() const;  ///< its tile size
    int64_t ib() const;  ///< inner block size used (≤ nb)
    bool empty() const;  ///< true until a factorization has been submitted into it

    /// Internal (used by the algorithms): (re)allocate for an m×n matrix of tile size nb whose tiles
    /// are distributed as `dist` (each factor belongs to the owner of the tile it comes from).
    void reset(int64_t m, int64_t n, int64_t nb, int64_t ib, Distribution dist);
    /// Internal: handles of the pivots of tile (i, k) (i ≥ k, int vector of tile_cols(k) entries),
    /// of the L tile (i, k) (i > k, ib × tile_cols(k)) and of the copy of the diagonal tile k.
    TileHandle ipiv(int64_t i, int64_t k) const;
    TileHandle l(int64_t i, int64_t k) const;
    TileHandle diag(int64_t k) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// Tile LU with incremental pivoting of the m×n A, in place, with inner block size opts.ib (0: the tuned getrf one; clamped
/// to nb): per step k, getrf of the diagonal tile (partial pivoting inside it), gessm to apply it to
/// the tiles of row k, tstrf to factor the stacked [U_kk; A_ik] of each tile below with pivoting
/// between the two, and ssssm to apply that to the tile pairs of the trailing matrix. A's upper
/// triangle holds U; its strict lower triangle, with F, the transformations (not a plain L: the
/// pivoting is not applied backward). Returns info: 0, or the 1-based index of the first exactly
/// zero diagonal entry of U. Stability is close to, but weaker than, partial pivoting.
template <class T>
int64_t getrf_incpiv(TileMatrix<T>& A, IncpivFactors<T>& F, const Options& opts = {});
/// Submit-only form: F is sized here and must outlive seq.wait().
template <class T>
void getrf_incpiv_async(TileMatrix<T>& A, IncpivFactors<T>& F, Sequence& seq, const Options& opts = {});
/// Solve A·X = B with A, F from getrf_incpiv (A n×n, B n×nrhs overwritten by X): the forward
/// transformations (gessm, ssssm on B's tiles), then a triangular solve with U.
template <class T>
void getrs_incpiv(const TileMatrix<T>& A, const IncpivFactors<T>& F, TileMatrix<T>& B);
template <class T>
void getrs_incpiv_async(const TileMatrix<T>& A, const IncpivFactors<T>& F, TileMatrix<T>& B, Sequence& seq);
/// getrf_incpiv then getrs_incpiv; returns the factorization's info (B unchanged when > 0).
template <class T>
int64_t gesv_incpiv(TileMatrix<T>& A, IncpivFactors<T>& F, TileMatrix<T>& B, const Options& opts = {});
template <class T>
void gesv_incpiv_async(TileMatrix<T>& A, IncpivFactors<T>& F, TileMatrix<T>& B, Sequence& seq,
                       const Options& opts = {});

namespace lapack {
/// LAPACK-layout forms of getrf/getrs/gesv (partial pivoting): a is m×n (n×n) column-major with
/// lda ≥ max(1, rows), b is n×nrhs with ldb ≥ max(1, n); ipiv has min(m, n) (n) entries, 1-based as
/// LAPACK's. trans is 'N', 'T' or 'C'. Return LAPACK's info; invalid arguments throw Error naming
/// the argument, a task failing on its worker throws TaskError (the arrays then hold unspecified
/// values). Tiles of opts.nb (0: the tuned getrf tile size), on the arrays in place or on copies
/// (Options::layout).
template <class T>
int64_t getrf(int64_t m, int64_t n, T* a, int64_t lda, int64_t* ipiv, const Options& opts = {});
template <class T>
void getrs(char trans, int64_t n, int64_t nrhs, const T* a, int64_t lda, const int64_t* ipiv, T* b, int64_t ldb,
           const Options& opts = {});
template <class T>
int64_t gesv(int64_t n, int64_t nrhs, T* a, int64_t lda, int64_t* ipiv, T* b, int64_t ldb, const Options& opts = {});
/// No-pivoting forms (a overwritten by L·U; b by X).
template <class T>
int64_t getrf_nopiv(int64_t m, int64_t n, T* a, int64_t lda, const Options& opts = {});
template <class T>
int64_t gesv_nopiv(int64_t n, int64_t nrhs, T* a, int64_t lda, T* b, int64_t ldb, const Options& opts = {});
/// Incremental-pivoting solve: a is overwritten by getrf_incpiv's A (its factor representation is
/// discarded), b by X. opts.nb and opts.ib are used.
template <class T>
int64_t gesv_incpiv(int64_t n, int64_t nrhs, T* a, int64_t lda, T* b, int64_t ldb, const Options& opts = {});
}  // namespace lapack

}  // namespace tessera
