// Tile Cholesky: potrf, potrs, posv (LAPACK xPOTRF/xPOTRS/xPOSV semantics).
// Failures: invalid arguments throw Error before anything is submitted; a task that fails on its
// worker (kernel launch, device, allocation) makes the synchronous forms, the LAPACK-layout forms and
// Sequence::wait throw TaskError once the submitted tasks have drained, and a task StarPU refuses
// makes the call that submits it throw Error (see Sequence in tile_matrix.hpp).
#pragma once

#include "tessera/tile_matrix.hpp"

namespace tessera {

/// Cholesky factorization A = L·Lᴴ (uplo Lower) or A = Uᴴ·U (uplo Upper) of the symmetric (s, d) or
/// Hermitian (c, z) positive definite n×n A (ᴴ is ᵀ for real T), in place on the uplo triangle (the
/// other is not referenced; the imaginary parts of a complex diagonal are taken as zero). Right-looking tile
/// algorithm of Buttari et al. (2009) / Chameleon's pzpotrf, priorities along the critical path; each
/// panel multiplies by the inverse of its diagonal tile (trtri + trmm, as MAGMA's panels) where xPOTRF
/// solves by the factor (trsm), so the residual grows with the diagonal tiles' condition numbers.
/// Returns info: 0 on success, or k > 0 when the leading minor of order k is not positive definite
/// (a non-positive or NaN pivot) as LAPACK's xPOTRF. Throws Error if A is not square, TaskError
/// if a task fails on its worker (see Sequence).
template <class T>
int64_t potrf(Uplo uplo, TileMatrix<T>& A);
/// Submit-only form: info is returned by seq.wait().
template <class T>
void potrf_async(Uplo uplo, TileMatrix<T>& A, Sequence& seq);

/// Solve A·X = B with A's Cholesky factor from potrf (same uplo); B is n×nrhs, overwritten by X.
template <class T>
void potrs(Uplo uplo, const TileMatrix<T>& A, TileMatrix<T>& B);
template <class T>
void potrs_async(Uplo uplo, const TileMatrix<T>& A, TileMatrix<T>& B, Sequence& seq);

/// potrf followed by potrs. Returns potrf's info; B is left unchanged when info > 0.
template <class T>
int64_t posv(Uplo uplo, TileMatrix<T>& A, TileMatrix<T>& B);
/// Submit-only form. The solve is submitted regardless of the factorization's outcome: when
/// seq.wait() returns info > 0, B holds no solution.
template <class T>
void posv_async(Uplo uplo, TileMatrix<T>& A, TileMatrix<T>& B, Sequence& seq);

namespace lapack {
/// LAPACK-layout forms: a is n×n column-major with lda ≥ max(1, n), b is n×nrhs with ldb ≥ max(1, n).
/// Tiles of opts.nb (0: the tuned potrf tile size), on the arrays in place or on copies (Options::layout).
/// Return LAPACK's info (> 0 as above); invalid arguments throw Error naming the argument, a task
/// failing on its worker throws TaskError (the arrays then hold unspecified values).
template <class T>
int64_t potrf(char uplo, int64_t n, T* a, int64_t lda, const Options& opts = {});
template <class T>
void potrs(char uplo, int64_t n, int64_t nrhs, const T* a, int64_t lda, T* b, int64_t ldb,
           const Options& opts = {});
template <class T>
int64_t posv(char uplo, int64_t n, int64_t nrhs, T* a, int64_t lda, T* b, int64_t ldb,
             const Options& opts = {});
}  // namespace lapack

}  // namespace tessera
