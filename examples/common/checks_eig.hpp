// Checks and test matrices of the Hermitian eigensolvers (tessera/eig.hpp): LAPACK's test ratios of
// xSYEVD / xHEEVD (its xSYT21 / xHET21 and the eigenvalue comparison of xDRVST) on column-major
// arrays, computed with CBLAS/LAPACKE in the working precision; randomized O(n²) forms of them on
// tiles for large problems; Hermitian matrices of a chosen spectrum and LAPACK's spectra (xLATMS's
// modes: geometric, clustered, repeated). Each ratio passes when check::passes() (≤ kThreshold, 60).
#pragma once

#include <cstdint>
#include <vector>

#include "examples/common/checks.hpp"
#include "tessera/tile_matrix.hpp"
#include "tessera/types.hpp"

namespace tessera::check {

/// The n×n Hermitian (symmetric for real T) matrix given by the uplo triangle (Lower or Upper) of
/// `a` as a full column-major array (leading dimension max(1, n)): the other triangle mirrored
/// (conjugated), the diagonal's imaginary part dropped, as xHEEVD reads it.
template <class T>
std::vector<T> hermitian_from_triangle(Uplo uplo, int64_t n, const T* a, int64_t lda);

/// Residual of an eigendecomposition: ‖A − Z·diag(w)·Zᴴ‖₁ / (n · max(‖A‖₁, tiny) · eps), A the
/// Hermitian matrix of a's uplo triangle, z the n×n eigenvectors (column j for w[j]), w real.
/// (LAPACK's xHET21 ratio 1 with ITYPE 1, tiny = the safe minimum.) 0 for n = 0.
template <class T>
double eig_residual(Uplo uplo, int64_t n, const T* a, int64_t lda, const T* z, int64_t ldz, const real_t<T>* w);

/// Orthogonality of the n×n eigenvectors: ‖I − Zᴴ·Z‖₁ / (n · eps) (xHET21's ratio 2). 0 for n = 0.
template <class T>
double orthogonality(int64_t n, const T* z, int64_t ldz);

/// The eigenvalues of the Hermitian matrix of a's uplo triangle by LAPACKE_xsyevd / xheevd with
/// jobz 'N' on a copy, ascending. Throws tessera::Error when LAPACK returns info ≠ 0.
template <class T>
std::vector<real_t<T>> ref_eigenvalues(Uplo uplo, int64_t n, const T* a, int64_t lda);

/// Eigenvalue error: max_i |w_i − w_ref_i| / (n · max(‖A‖₁, tiny) · eps), w_ref = ref_eigenvalues
/// (both ascending, LAPACK's order). NaN when w holds a NaN (check::ratio's conventions).
template <class T>
double eigenvalue_error(Uplo uplo, int64_t n, const T* a, int64_t lda, const real_t<T>* w);
/// The same with the reference eigenvalues and ‖A‖₁ already known.
template <class T>
double eigenvalue_error(int64_t n, double norm_a, const real_t<T>* w, const real_t<T>* w_ref);

/// Randomized checks of heevd on tiles, for the large problems (checks_random.hpp's form): the
/// constructor reads A's uplo triangle (acquire_host(): its tiles in host memory; the other triangle
/// is not read) and keeps X (n×4, entries in [0.5, 1.5)), A·X, ‖A‖₁ (= ‖A‖∞) and the trace of A;
/// residual() then reads the eigenvectors Z the same way. O(n²) flops, no LAPACK-layout copy. One
/// process only (heevd's own limit). Throws tessera::Error unless A is square and uplo Lower or Upper.
template <class T>
class HeevdCheckRandom {
public:
    HeevdCheckRandom(Uplo uplo, const TileMatrix<T>& A);
    /// ‖A·X − Z·(Λ·(Zᴴ·X))‖∞ / (‖A‖∞ · ‖X‖∞ · n · eps), Λ = diag(w).
    double residual(const TileMatrix<T>& Z, const std::vector<real_t<T>>& w) const;
    /// |Σ_i w_i − trace(A)| / (n · max(‖A‖₁, tiny) · eps): the eigenvalues' sum, values only or not.
    double trace_error(const std::vector<real_t<T>>& w) const;

private:
    int64_t n_;
    std::vector<T> x_, ax_;  // n×4
    double norm_a_, trace_;
};

/// The n×n Hermitian (symmetric for real T) matrix Q·diag(λ)·Qᴴ with eigenvalues λ (n of them),
/// Q unitary: the Q of the QR of a seeded random n×n matrix (LAPACKE_xgeqrf + xungqr), so its
/// eigenvectors are dense and unstructured. Column-major, leading dimension max(1, n), both
/// triangles set (exactly Hermitian: the upper triangle mirrors the lower, the diagonal real).
/// O(n³) on the caller's thread (CBLAS/LAPACKE: threaded when the BLAS is).
template <class T>
std::vector<T> hermitian_with_spectrum(int64_t n, const std::vector<real_t<T>>& lambda, uint64_t seed);

/// Spectra of LAPACK's test matrices (xLATMS's MODE), of real type R (float or double), in no
/// particular order:
/// geometric_spectrum: λ_i = cond^(−i/(n−1)), from 1 down to 1/cond (MODE 3), with alternating signs
/// when `alternate_signs` (an indefinite matrix of 2-norm condition number cond).
template <class R>
std::vector<R> geometric_spectrum(int64_t n, double cond, bool alternate_signs = true);
/// clustered_spectrum: one eigenvalue 1 and n − 1 within a few ulps of 1/cond (MODE 1's "one 1,
/// the rest 1/cond", perturbed by up to 2 ulps so that the cluster is equal only within eps).
template <class R>
std::vector<R> clustered_spectrum(int64_t n, double cond = 1e4);
/// repeated_spectrum: the eigenvalue 1/3 with multiplicity n/2 (rounded down) and n − n/2 distinct
/// values spread evenly over [−1, 0).
template <class R>
std::vector<R> repeated_spectrum(int64_t n);

}  // namespace tessera::check
