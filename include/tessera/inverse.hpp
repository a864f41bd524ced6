// Matrix inverses as tile algorithms: trtri (triangular), lauum (U·Uᴴ or Lᴴ·L), potri (Hermitian
// positive definite, from potrf's factor) and getri (general, from getrf's LU factors and pivots);
// LAPACK xTRTRI / xLAUUM / xPOTRI / xGETRI semantics.
// Failures: invalid arguments throw Error before anything is submitted; a task that fails on its
// worker makes the synchronous forms, the LAPACK-layout forms and Sequence::wait throw TaskError once
// the submitted tasks have drained (see Sequence in tile_matrix.hpp).
#pragma once

#include <vector>

#include "tessera/tile_matrix.hpp"

namespace tessera {

/// A := A⁻¹ for the n×n triangular A (uplo Lower or Upper; diag Unit: a unit diagonal implied, the
/// stored diagonal neither read nor written), in place on the uplo triangle (the other is not
/// referenced). Chameleon's pztrtri tile loop: step k multiplies its panel by the diagonal tile's
/// inverse (−1), updates the inverted part with gemms, multiplies the tile row by it and writes
/// the inverse into the diagonal tile last (the inverse made out of place first and applied with
/// trmm, twice a tile trsm's speed with OpenBLAS). Returns info: 0, or i > 0 when A(i, i) (1-based) is exactly zero; the
/// diagonal is checked first (a CPU task per diagonal tile) and A is then left unchanged, as LAPACK's
/// xTRTRI. Throws Error if uplo is General or A is not square, TaskError as above.
template <class T>
int64_t trtri(Uplo uplo, Diag diag, TileMatrix<T>& A);
/// Submit-only form: info is returned by seq.wait(); when it is > 0, A holds unspecified values.
template <class T>
void trtri_async(Uplo uplo, Diag diag, TileMatrix<T>& A, Sequence& seq);

/// A := Lᴴ·L (uplo Lower, L the lower triangle of the n×n A) or U·Uᴴ (Upper), in place on the uplo
/// triangle (ᴴ is ᵀ for real T; the other triangle is not referenced). Chameleon's pzlauum tile loop
/// (herk, gemm, trmm, and LAPACK's xLAUUM on the diagonal tiles). Throws Error if uplo is General or
/// A is not square.
template <class T>
void lauum(Uplo uplo, TileMatrix<T>& A);
template <class T>
void lauum_async(Uplo uplo, TileMatrix<T>& A, Sequence& seq);

/// A := A⁻¹, the inverse of the Hermitian (symmetric for real T) positive definite n×n matrix
/// whose Cholesky factor potrf left in A's uplo triangle (A = L·Lᴴ or Uᴴ·U): trtri(uplo, NonUnit)
/// then lauum(uplo), in place on the uplo triangle (LAPACK xPOTRI). Returns trtri's info (i > 0:
/// the factor's A(i, i) is exactly zero, A unchanged). Throws as trtri.
template <class T>
int64_t potri(Uplo uplo, TileMatrix<T>& A);
/// Submit-only form: info is returned by seq.wait(); when it is > 0, A holds unspecified values.
template <class T>
void potri_async(Uplo uplo, TileMatrix<T>& A, Sequence& seq);

/// A := A⁻¹ for the n×n A from getrf's factors P·A = L·U in A and its pivots ipiv (n entries,
/// 1-based rows as getrf leaves them). LAPACK xGETRI's blocked algorithm in tile form: U := U⁻¹
/// (trtri), then from the last tile column to the first, with the column's L part copied into
/// workspace tiles W and zeroed in A, A(:, k) −= A(:, k+1:)·W(k+1:, k) (gemm) and
/// A(:, k) := A(:, k)·L(k, k)⁻¹ (trmm with the unit lower tile's inverse), and finally the column interchanges in reverse order
/// (one task per tile row). About 4n³/3 flops. Returns info: 0, or i > 0 when U(i, i) is exactly
/// zero (A is then left unchanged, as LAPACK's xGETRI). Throws Error if A is not square, ipiv's
/// length is not n, or a pivot is not in 1..n.
template <class T>
int64_t getri(TileMatrix<T>& A, const std::vector<int64_t>& ipiv);
/// Submit-only form: info is returned by seq.wait() (A unspecified when > 0); A and ipiv must stay
/// alive and unchanged until it returns. One process only (throws Error when distributed).
template <class T>
void getri_async(TileMatrix<T>& A, const std::vector<int64_t>& ipiv, Sequence& seq);

namespace lapack {
/// LAPACK-layout forms: a is n×n column-major with lda ≥ max(1, n); ipiv (getri) n entries from
/// lapack::getrf (1-based). Tiles of opts.nb (0: the tuned potrf tile size for trtri, lauum and
/// potri, getrf's for getri), on the array in place or on a copy (Options::layout). Return LAPACK's
/// info (> 0 as above; the array is then unchanged); invalid arguments throw Error naming the
/// argument, a task failing on its worker throws TaskError (the array then holds unspecified values).
template <class T>
int64_t trtri(char uplo, char diag, int64_t n, T* a, int64_t lda, const Options& opts = {});
template <class T>
void lauum(char uplo, int64_t n, T* a, int64_t lda, const Options& opts = {});
template <class T>
int64_t potri(char uplo, int64_t n, T* a, int64_t lda, const Options& opts = {});
template <class T>
int64_t getri(int64_t n, T* a, int64_t lda, const int64_t* ipiv, const Options& opts = {});
}  // namespace lapack

}  // namespace tessera
