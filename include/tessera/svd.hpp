// Singular value decomposition A = U·Σ·Vᴴ: gesdd and gesvd (LAPACK xGESDD, xGESVD), the two-stage
// way (Haidar, Ltaief, Luszczek and Dongarra, "A comprehensive study of task coalescing for
// selecting parallelism granularity in a two-stage bidiagonal reduction", IPDPS 2012; PLASMA's
// zgesdd, Chameleon's zgesvd), for m ≥ n (m < n works on Aᴴ and swaps U and V):
//   1. A = Q1·B·P1ᴴ, B upper band of bandwidth kd (n×n; kd divides the tile size nb): a task graph
//      over the tiles (algorithms/ge2gb.hpp). Panel p: the QR of kd columns from the diagonal down
//      (tasks::band_panel), Q_pᴴ on the columns to their right; then the LQ of those kd rows right
//      of the band (the QR of their conjugate transpose), applied to the rows below. Tile GEMMs
//      (xLARFB's products) on CPU workers and OpenCL devices: about 4mn² − 4n³/3 flops.
//   2. B = U2·Bd·V2ᴴ, Bd real upper bidiagonal: bulge chasing with Householder reflectors on a
//      host copy of the band, as CPU tasks that pipeline the sweeps, keeping every reflector when
//      vectors are wanted (kernels/cpu/band_bidiag.hpp).
//   3. Bd = Ub·Σ·Vbᵀ by LAPACK's xBDSDC (divide and conquer; gesdd) or xBDSQR (implicit QR; gesvd).
//   4. U = Q1·U2·Ub and V = P1·V2·Vb: U2 and V2 by CPU tasks, one per tile column (block
//      reflectors), Q1 and P1 as tile GEMMs on any worker.
// As LAPACK's xGESDD, A is scaled into [SMLNUM, BIGNUM] when its largest entry lies outside
// (SMLNUM = sqrt(safe minimum)/eps, BIGNUM = 1/SMLNUM) and the singular values are scaled back.
//
// One process only (stages 2 and 3 work on host copies): on a distributed Runtime the calls throw
// Error. Invalid arguments throw Error naming the argument before anything is submitted; a task
// failing on its worker throws TaskError (see Sequence in tile_matrix.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/tile_matrix.hpp"

namespace tessera {

/// Singular values, and optionally singular vectors, of the m×n A (tiles of nb), by LAPACK xGESDD's
/// method for the bidiagonal (xBDSDC). kd: the width of the band stage 1 reduces A to, a divisor of
/// nb (0: the largest divisor of nb not above kHeevdBand, tessera/eig.hpp).
/// s is resized to k = min(m, n) and holds the singular values in descending order (T's real type).
/// U: nullptr, or an m×k (thin) or m×m (full) matrix with A's tile size, overwritten by the left
///    singular vectors (column j for s[j]; the full form adds an orthonormal basis of the rest).
/// VT: nullptr, or a k×n or n×n matrix with A's tile size, overwritten by Vᴴ (row j for s[j]).
/// A is destroyed (overwritten by intermediate values), as LAPACK's with JOBZ = 'N'.
/// Returns info: 0, or i > 0 when the bidiagonal solver failed to converge (xBDSDC's or xBDSQR's
/// info: i superdiagonals of an intermediate bidiagonal form did not converge to zero); s, U and
/// VT are then not meaningful.
/// Throws Error if U or VT has the wrong shape or tile size, kd is negative or does not divide nb, A
/// holds a NaN or an infinity (its
/// largest entry is checked first, LAPACK's xLANGE 'M'), or the Runtime is distributed; TaskError
/// if a task fails.
/// Memory, for m ≥ n: an n×n tile matrix (the LQ panels' scratch) and, with vectors, stage 1's
/// reflectors (about mn/2 + n²/2 scalars, in temporary tiles wherever StarPU places them), the n×n real
/// vectors of the bidiagonal and the reflectors of stage 2 (about n² scalars per side) on the host.
template <class T>
int64_t gesdd(TileMatrix<T>& A, std::vector<real_t<T>>& s, TileMatrix<T>* U = nullptr, TileMatrix<T>* VT = nullptr,
              int64_t kd = 0);

/// gesdd with LAPACK xGESVD's bidiagonal solver (xBDSQR, implicit zero-shift QR: slower with
/// vectors, sometimes more accurate for the smallest singular values); the same arguments,
/// results and errors.
template <class T>
int64_t gesvd(TileMatrix<T>& A, std::vector<real_t<T>>& s, TileMatrix<T>* U = nullptr, TileMatrix<T>* VT = nullptr,
              int64_t kd = 0);

/// The tile size the lapack:: forms and tessera-tester give gesdd and gesvd of an m×n matrix in T's
/// precision when none is given: heevd_nb(min(m, n)) (tessera/eig.hpp), the tuned geqrf tile; the
/// band is then the default kd. Needs a running Runtime.
template <class T>
int64_t gesvd_nb(int64_t m, int64_t n);

namespace lapack {
/// xGESDD on LAPACK column-major arrays (WORK, RWORK and IWORK are allocated inside): a is m×n
/// (lda ≥ max(1, m)), s has min(m, n) entries; jobz (either case):
///  - 'N': values only;
///  - 'S': u is m×min(m, n) (ldu ≥ max(1, m)), vt is min(m, n)×n (ldvt ≥ max(1, min(m, n)));
///  - 'A': u is m×m (ldu ≥ max(1, m)), vt is n×n (ldvt ≥ max(1, n));
///  - 'O': for m ≥ n, a is overwritten by U's first n columns and vt is n×n (ldvt ≥ max(1, n)),
///    u is not referenced; for m < n, a is overwritten by Vᴴ's first m rows and u is m×m.
/// On return a is destroyed unless jobz = 'O'. Tiles of opts.nb (0: gesvd_nb(m, n)). Returns info as
/// tessera::gesdd. Invalid arguments throw Error naming the argument ('jobz', 'm', 'n', 'lda', 'ldu',
/// 'ldvt', 'nb'); the rest as tessera::gesdd. All four precisions.
template <class T>
int64_t gesdd(char jobz, int64_t m, int64_t n, T* a, int64_t lda, real_t<T>* s, T* u, int64_t ldu, T* vt,
              int64_t ldvt, const Options& opts = {});
/// xGESVD on LAPACK column-major arrays: jobu for U and jobvt for Vᴴ, each 'N' (not computed),
/// 'S' (the min(m, n) leading vectors: u m×min(m, n), vt min(m, n)×n), 'A' (all: u m×m, vt n×n) or
/// 'O' (the leading vectors overwrite a: U's min(m, n) columns or Vᴴ's min(m, n) rows); jobu and
/// jobvt are not both 'O'. Leading dimensions as LAPACK's (ldu ≥ 1, and ≥ m when u is referenced;
/// ldvt ≥ 1, and ≥ n for 'A', ≥ min(m, n) for 'S'). On return a is destroyed unless one job is
/// 'O'. Returns info as tessera::gesvd; invalid arguments throw Error naming the argument.
template <class T>
int64_t gesvd(char jobu, char jobvt, int64_t m, int64_t n, T* a, int64_t lda, real_t<T>* s, T* u, int64_t ldu,
              T* vt, int64_t ldvt, const Options& opts = {});
}  // namespace lapack

}  // namespace tessera
