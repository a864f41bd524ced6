// Matrix norms as tile reductions: lange, lansy, lanhe, lantr (LAPACK xLANGE, xLANSY, xLANHE,
// xLANTR; the Frobenius norm by xLASSQ's scaled sum of squares).
//
// Norms (Norm, tessera/types.hpp; |a| is the modulus of a complex entry):
//   Max  max_ij |a_ij|          (not a matrix norm; LAPACK's 'M')
//   One  max_j Σ_i |a_ij|       the largest column sum ('O' or '1')
//   Inf  max_i Σ_j |a_ij|       the largest row sum ('I')
//   Fro  sqrt(Σ_ij |a_ij|²)     the Frobenius norm ('F' or 'E')
// Each is computed by one task per tile (of the referenced triangle or trapezoid) writing a small
// partial vector: the tile's column maxima, column sums, row sums, or its columns' (scale, sumsq)
// pairs of LAPACK's xLASSQ (scale²·sumsq is the sum of squares, so entries near the overflow
// threshold, 1e200 in double, give a finite norm). The partials are reduced on the host in a fixed
// order (tile columns, then tile rows) once the tasks have run, so Max, One and Inf are bit-for-bit
// the same for any number of workers and any schedule, CPU workers and OpenCL devices alike (their
// kernels take the same moduli and sums in the same order; a single-complex program on a device
// without double precision takes its moduli in float, possibly an ulp apart). Fro combines the pairs by xCOMBSSQ, in
// the same fixed order; it agrees with LAPACK's within a rounding error bound of about
// (number of entries)·eps relative, not bit for bit.
// A NaN entry makes the result NaN (LAPACK's DISNAN tests); an infinite one makes Max, One and Inf
// +Inf, and Fro +Inf or NaN (as the classic xLASSQ).
//
// All of them are synchronous: they submit the tasks, wait, and return the norm in T's real type
// (float for s and c, double for d and z, as LAPACK). One process only: on a distributed Runtime
// (under mpirun) they throw Error. Invalid arguments throw Error naming the argument before anything
// is submitted; a task failing on its worker throws TaskError; an empty matrix (m = 0 or n = 0)
// has norm 0, with no task.
#pragma once

#include "tessera/tile_matrix.hpp"

namespace tessera {

/// The norm of the general m×n A (LAPACK xLANGE). Throws Error for a Norm value outside the enum
/// or a distributed Runtime, TaskError if a task fails.
template <class T>
real_t<T> lange(Norm norm, const TileMatrix<T>& A);

/// The norm of the symmetric n×n A given by its uplo triangle (Lower or Upper; the other one is not
/// referenced; LAPACK xLANSY). For complex T the matrix is complex symmetric (a_ji = a_ij, the
/// diagonal's full modulus); One and Inf are equal. Throws Error if A is not square or uplo is
/// General, and as lange.
template <class T>
real_t<T> lansy(Norm norm, Uplo uplo, const TileMatrix<T>& A);

/// The norm of the Hermitian n×n A given by its uplo triangle (LAPACK xLANHE): a_ji = conj(a_ij),
/// and only the real part of the diagonal is read (its imaginary parts are taken as zero). lansy
/// for real T. Throws as lansy.
template <class T>
real_t<T> lanhe(Norm norm, Uplo uplo, const TileMatrix<T>& A);

/// The norm of the m×n trapezoidal A (LAPACK xLANTR): uplo Lower, the entries i ≥ j; Upper, i ≤ j
/// (m ≠ n allowed); the other entries are zero and not referenced. diag Unit: the diagonal is taken
/// as ones and not referenced. min(m, n) = 0 gives 0. Throws Error if uplo is General, and as lange.
template <class T>
real_t<T> lantr(Norm norm, Uplo uplo, Diag diag, const TileMatrix<T>& A);

namespace lapack {
/// LAPACK-layout forms: a is the caller's column-major array (m×n for lange and lantr, n×n for
/// lansy and lanhe) with lda ≥ max(1, rows), only read; norm is LAPACK's character ('M', 'O' or
/// '1', 'I', 'F' or 'E', either case), uplo 'L' or 'U', diag 'N' or 'U'. Tiles of opts.nb (0: the
/// tuned gemm tile size), on the array in place or on a copy (Options::layout). m or n = 0 returns
/// 0 as LAPACK does (a is then not referenced). Invalid arguments throw Error naming the argument
/// (norm, uplo, diag, m, n, lda, a, nb); a task failing on its worker throws TaskError; one
/// process only (a distributed Runtime throws Error, even for an empty matrix).
template <class T>
real_t<T> lange(char norm, int64_t m, int64_t n, const T* a, int64_t lda, const Options& opts = {});
template <class T>
real_t<T> lansy(char norm, char uplo, int64_t n, const T* a, int64_t lda, const Options& opts = {});
template <class T>
real_t<T> lanhe(char norm, char uplo, int64_t n, const T* a, int64_t lda, const Options& opts = {});
template <class T>
real_t<T> lantr(char norm, char uplo, char diag, int64_t m, int64_t n, const T* a, int64_t lda,
                const Options& opts = {});
}  // namespace lapack

}  // namespace tessera
