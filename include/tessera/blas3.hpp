// Tile BLAS-3: gemm, trsm, syrk, herk on TileMatrix and on LAPACK column-major arrays, in s, d, c, z.
// All matrices share one tile size nb; shapes are checked and a mismatch throws tessera::Error
// naming the argument. Every synchronous form submits through its `_async` form and waits.
// Failures: invalid arguments throw Error before anything is submitted; a task that fails on its
// worker (kernel launch, device, allocation) makes the synchronous forms, the LAPACK-layout forms and
// Sequence::wait throw TaskError once the submitted tasks have drained, and a task StarPU refuses
// makes the call that submits it throw Error (see Sequence in tile_matrix.hpp).
#pragma once

#include "tessera/tile_matrix.hpp"

namespace tessera {

/// C = alpha·op(A)·op(B) + beta·C, op(A) m×k, op(B) k×n, C m×n (BLAS xGEMM, tile loop of
/// Chameleon's pzgemm). Trans::ConjTrans equals Trans::Trans for real T.
template <class T>
void gemm_async(Trans transA, Trans transB, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B,
                T beta, TileMatrix<T>& C, Sequence& seq);
template <class T>
void gemm(Trans transA, Trans transB, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B, T beta,
          TileMatrix<T>& C);

/// B = alpha·op(A)⁻¹·B (side Left, A m×m) or B = alpha·B·op(A)⁻¹ (side Right, A n×n), A triangular
/// with the given uplo and diag, B m×n (BLAS xTRSM; all 16 side/uplo/trans/diag combinations).
template <class T>
void trsm_async(Side side, Uplo uplo, Trans trans, Diag diag, T alpha, const TileMatrix<T>& A,
                TileMatrix<T>& B, Sequence& seq);
template <class T>
void trsm(Side side, Uplo uplo, Trans trans, Diag diag, T alpha, const TileMatrix<T>& A, TileMatrix<T>& B);

/// C = alpha·op(A)·op(A)ᵀ + beta·C on the uplo triangle of the n×n C; op(A) is n×k
/// (A n×k for NoTrans, k×n for Trans). The other triangle is not referenced (BLAS xSYRK).
template <class T>
void syrk_async(Uplo uplo, Trans trans, T alpha, const TileMatrix<T>& A, T beta, TileMatrix<T>& C,
                Sequence& seq);
template <class T>
void syrk(Uplo uplo, Trans trans, T alpha, const TileMatrix<T>& A, T beta, TileMatrix<T>& C);

/// C = alpha·op(A)·op(A)ᴴ + beta·C on the uplo triangle of the n×n Hermitian C, alpha and beta
/// real; op(A) is n×k (A n×k for NoTrans, k×n for ConjTrans). The other triangle is not referenced
/// and the imaginary parts of C's diagonal are set to zero (BLAS xHERK; for real T it is syrk, and
/// Trans is accepted as ConjTrans). Throws Error for complex T with trans = Trans, as for syrk with
/// ConjTrans.
template <class T>
void herk_async(Uplo uplo, Trans trans, real_t<T> alpha, const TileMatrix<T>& A, real_t<T> beta, TileMatrix<T>& C,
                Sequence& seq);
template <class T>
void herk(Uplo uplo, Trans trans, real_t<T> alpha, const TileMatrix<T>& A, real_t<T> beta, TileMatrix<T>& C);

namespace lapack {
/// BLAS-style forms on column-major arrays; they run the tile algorithm with tiles of opts.nb (0: the
/// tuned gemm tile size) on the arrays in place or on tile-major copies (Options::layout). Argument characters follow BLAS ('N','T','C'; 'L','U';
/// 'L','R'; 'N','U'); an invalid one or a leading dimension below the row count throws Error, a task
/// failing on its worker TaskError (the arrays then hold unspecified values).
template <class T>
void gemm(char transA, char transB, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda,
          const T* b, int64_t ldb, T beta, T* c, int64_t ldc, const Options& opts = {});
template <class T>
void trsm(char side, char uplo, char trans, char diag, int64_t m, int64_t n, T alpha, const T* a,
          int64_t lda, T* b, int64_t ldb, const Options& opts = {});
template <class T>
void syrk(char uplo, char trans, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, T beta, T* c,
          int64_t ldc, const Options& opts = {});
template <class T>
void herk(char uplo, char trans, int64_t n, int64_t k, real_t<T> alpha, const T* a, int64_t lda, real_t<T> beta,
          T* c, int64_t ldc, const Options& opts = {});
}  // namespace lapack

}  // namespace tessera
