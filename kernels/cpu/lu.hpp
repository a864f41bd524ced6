// CPU tile kernels of the LU family (column-major, CBLAS/LAPACKE underneath). No StarPU here.
// Pivot conventions:
//  - getrf / getrf on a panel: LAPACK's (1-based local rows, sequential interchanges).
//  - laswp_tiles: 1-based *global* rows, the tiles stacked from global row `row0`.
//  - tstrf / ssssm (incremental pivoting, pairs of tiles A1 over A2): entry j says which row was
//    interchanged with row j of A1: v > 0 is row v−1 of A1 (v−1 = j: none), v < 0 is row −v−1 of A2.
#pragma once

#include <cstdint>

namespace tessera::cpu {

/// LU with partial pivoting of the m×n A (LAPACK xGETRF). ipiv: min(m, n) 1-based local rows.
/// Returns LAPACK's info (0, or the 1-based column of the first exactly zero pivot).
template <class T>
int getrf(int64_t m, int64_t n, T* A, int64_t lda, int* ipiv);

/// LU without pivoting of the m×n A (blocked right-looking). A zero pivot leaves its column
/// unscaled and the factorization goes on (as xGETF2). Returns 0 or the first zero pivot (1-based).
template <class T>
int getrf_nopiv(int64_t m, int64_t n, T* A, int64_t lda);

/// Row interchanges (LAPACK xLASWP) on a column of `ntiles` tiles stacked vertically, each
/// column-major with `ncols` columns: tile t has rows[t] rows, leading dimension ld[t], data
/// tiles[t]; the first row of tile 0 is global row row0 (0-based). For i = k1..k2−1 (forward) or
/// k2−1..k1 (backward), global row i is swapped with global row ipiv[i]−1.
template <class T>
void laswp_tiles(int64_t ncols, int64_t ntiles, T* const* tiles, const int64_t* rows, const int64_t* ld,
                 int64_t row0, const int64_t* ipiv, int64_t k1, int64_t k2, bool forward);

/// gessm: A = L⁻¹·P·A for the m×n tile A, with P the kb interchanges ipiv (LAPACK's, 1-based
/// local) and L the unit lower trapezoidal m×kb factor of the diagonal tile (ldl).
template <class T>
void gessm(int64_t m, int64_t n, int64_t kb, const int* ipiv, const T* L, int64_t ldl, T* A, int64_t lda);

/// tstrf: LU with pivoting of the stacked [U; A2], U the kb×kb upper triangle at the top of a
/// tile (ldu; its strict lower part is neither read nor written), A2 m2×kb, by column blocks of ib.
/// Block b (columns ii..ii+sb) factors [U_bb; A2_b] with LAPACK xGETRF (pivot rows chosen among U's
/// row and A2's rows), updates the columns right of it (as ssssm), stores Ũ_bb into U, the
/// multipliers into A2_b and the unit lower sb×sb multipliers of the top rows into L(0:sb, ii:ii+sb)
/// (L is ib×kb, ldl). ipiv (kb entries) uses the pair convention above. work: (ib + m2)·ib scalars.
/// Returns 0 or the 1-based column of the first exactly zero pivot.
template <class T>
int tstrf(int64_t m2, int64_t kb, int64_t ib, T* U, int64_t ldu, T* A2, int64_t lda2, T* L, int64_t ldl, int* ipiv,
          T* work);

/// ssssm: apply tstrf's transformation (pivots ipiv, L tile L1 (ldl1), multipliers L2 m2×kb (ldl2))
/// to the pair [A1; A2]: A1 has ≥ kb rows and n columns (rows 0..kb−1 take part), A2 m2×n.
/// Column blocks of ib are applied in order: interchanges, A1_b = L1_b⁻¹·A1_b, A2 −= L2_b·A1_b.
template <class T>
void ssssm(int64_t n, int64_t m2, int64_t kb, int64_t ib, T* A1, int64_t lda1, T* A2, int64_t lda2, const T* L1,
           int64_t ldl1, const T* L2, int64_t ldl2, const int* ipiv);

}  // namespace tessera::cpu
