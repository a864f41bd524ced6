// Tile BLAS-3: gemm, trsm, trmm, syrk, herk, symm, hemm, syr2k, her2k on TileMatrix and on LAPACK column-major arrays, in s, d, c, z.
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

/// B = alpha·op(A)·B (side Left, A m×m) or B = alpha·B·op(A) (side Right, A n×n), A triangular
/// with the given uplo and diag (only that triangle is read; Unit: its diagonal is taken as ones),
/// B m×n (BLAS xTRMM; all 16 side/uplo/trans/diag combinations; tile loop of Chameleon's pztrmm:
/// trmm tasks on A's diagonal tiles, gemm tasks on the others, CPU and OpenCL).
template <class T>
void trmm_async(Side side, Uplo uplo, Trans trans, Diag diag, T alpha, const TileMatrix<T>& A,
                TileMatrix<T>& B, Sequence& seq);
template <class T>
void trmm(Side side, Uplo uplo, Trans trans, Diag diag, T alpha, const TileMatrix<T>& A, TileMatrix<T>& B);

/// C = alpha·A·B + beta·C (side Left, A m×m) or C = alpha·B·A + beta·C (side Right, A n×n), B and C
/// m×n, A symmetric (complex symmetric for c, z: Aᵀ = A) read from its uplo triangle only (BLAS
/// xSYMM; Chameleon's pzsymm: a symm task per diagonal tile of A, gemm tasks with the stored tile
/// transposed where needed for the others; CPU and OpenCL).
template <class T>
void symm_async(Side side, Uplo uplo, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B, T beta,
                TileMatrix<T>& C, Sequence& seq);
template <class T>
void symm(Side side, Uplo uplo, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B, T beta, TileMatrix<T>& C);

/// symm with A Hermitian (Aᴴ = A, read from its uplo triangle; the imaginary parts of its diagonal
/// are taken as zero): BLAS xHEMM, Chameleon's pzhemm. For real T it is symm.
template <class T>
void hemm_async(Side side, Uplo uplo, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B, T beta,
                TileMatrix<T>& C, Sequence& seq);
template <class T>
void hemm(Side side, Uplo uplo, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B, T beta, TileMatrix<T>& C);

/// C = alpha·op(A)·op(B)ᵀ + alpha·op(B)·op(A)ᵀ + beta·C on the uplo triangle of the n×n C; op(A)
/// and op(B) are n×k (A and B n×k for NoTrans, k×n for Trans). The other triangle is not referenced
/// (BLAS xSYR2K, complex symmetric for c, z; Chameleon's pzsyr2k: a syr2k task per diagonal tile
/// and k step, two gemm tasks per off-diagonal one, CPU and OpenCL). Throws Error for complex
/// T with trans = ConjTrans (Trans and ConjTrans are the same for real T).
template <class T>
void syr2k_async(Uplo uplo, Trans trans, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B, T beta,
                 TileMatrix<T>& C, Sequence& seq);
template <class T>
void syr2k(Uplo uplo, Trans trans, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B, T beta, TileMatrix<T>& C);

/// C = alpha·op(A)·op(B)ᴴ + conj(alpha)·op(B)·op(A)ᴴ + beta·C on the uplo triangle of the n×n
/// Hermitian C, beta real; op(A), op(B) n×k (A, B n×k for NoTrans, k×n for ConjTrans). The other
/// triangle is not referenced and the imaginary parts of C's diagonal are set to zero (BLAS xHER2K,
/// Chameleon's pzher2k; for real T it is syr2k, Trans accepted as ConjTrans). Throws Error for
/// complex T with trans = Trans.
template <class T>
void her2k_async(Uplo uplo, Trans trans, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B, real_t<T> beta,
                 TileMatrix<T>& C, Sequence& seq);
template <class T>
void her2k(Uplo uplo, Trans trans, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B, real_t<T> beta,
           TileMatrix<T>& C);

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
/// B = alpha·op(A)·B or alpha·B·op(A), A m×m (side 'L') or n×n ('R') triangular (xTRMM).
template <class T>
void trmm(char side, char uplo, char trans, char diag, int64_t m, int64_t n, T alpha, const T* a,
          int64_t lda, T* b, int64_t ldb, const Options& opts = {});
/// C = alpha·A·B + beta·C or alpha·B·A + beta·C, A symmetric m×m (side 'L') or n×n ('R') (xSYMM).
template <class T>
void symm(char side, char uplo, int64_t m, int64_t n, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb,
          T beta, T* c, int64_t ldc, const Options& opts = {});
/// symm with A Hermitian (xHEMM).
template <class T>
void hemm(char side, char uplo, int64_t m, int64_t n, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb,
          T beta, T* c, int64_t ldc, const Options& opts = {});
/// Rank-2k update of the n×n C's uplo triangle, A and B n×k ('N') or k×n ('T') (xSYR2K).
template <class T>
void syr2k(char uplo, char trans, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb,
           T beta, T* c, int64_t ldc, const Options& opts = {});
/// Hermitian rank-2k update, beta real, A and B n×k ('N') or k×n ('C') (xHER2K).
template <class T>
void her2k(char uplo, char trans, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb,
           real_t<T> beta, T* c, int64_t ldc, const Options& opts = {});
}  // namespace lapack

}  // namespace tessera
