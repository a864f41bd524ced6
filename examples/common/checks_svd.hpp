// Checks and test matrices of the SVD (tessera/svd.hpp: gesdd, gesvd): LAPACK's test ratios of xGESDD /
// xGESVD (xDRVBD's: xBDT01's residual, xUNT01's orthogonality, the singular values against LAPACKE's)
// on column-major arrays, computed with CBLAS/LAPACKE in the working precision; randomized O(mn)
// forms of them on tiles for large problems (checks_svd_random.cpp); matrices U·diag(σ)·Vᴴ of chosen
// singular values and LAPACK's distributions (xLATMS's modes: geometric, clustered; a repeated value;
// exact zeros). Each ratio passes when check::passes() (≤ kThreshold, 60). k = min(m, n) throughout.
#pragma once

#include <cstdint>
#include <vector>

#include "examples/common/checks.hpp"
#include "tessera/tile_matrix.hpp"
#include "tessera/types.hpp"

namespace tessera::check {

/// Residual of an SVD: ‖A − U(:, 1:k)·diag(s)·Vᴴ(1:k, :)‖₁ / (max(m, n) · max(‖A‖₁, tiny) · eps)
/// (xBDT01's ratio, tiny = the safe minimum). a is m×n (lda ≥ m), u m×(k or more) (ldu ≥ m), vt
/// (k or more)×n (ldvt ≥ k), s k real values. 0 when m or n is 0; NaN for a NaN anywhere.
template <class T>
double svd_residual(int64_t m, int64_t n, const T* a, int64_t lda, const real_t<T>* s, const T* u, int64_t ldu,
                    const T* vt, int64_t ldvt);

/// One-sided residuals, when only one side's vectors were computed. Left (u given, m×k used):
/// W = U(:, 1:k)ᴴ·A, the larger of ‖A − U(:, 1:k)·W‖₁ / (max(m, n)·‖A‖₁·eps) and
/// ‖W·Wᴴ − diag(s)²‖₁ / (max(m, n)·max(s_ref², tiny)·eps) with s_ref = s[0] (W must be Σ·Vᴴ for some V
/// with orthonormal columns). Right (vt given, k×n used): W = A·Vᴴ(1:k, :)ᴴ, ‖A − W·Vᴴ(1:k, :)‖₁ and
/// ‖Wᴴ·W − diag(s)²‖₁, scaled alike.
template <class T>
double svd_left_residual(int64_t m, int64_t n, const T* a, int64_t lda, const real_t<T>* s, const T* u,
                         int64_t ldu);
template <class T>
double svd_right_residual(int64_t m, int64_t n, const T* a, int64_t lda, const real_t<T>* s, const T* vt,
                          int64_t ldvt);

/// ‖I − Xᴴ·X‖₁ / (max(rows, 1) · eps) of the rows×cols X (orthonormal columns: U, m×k or m×m;
/// xUNT01's ratio). 0 when cols is 0.
template <class T>
double orthogonality_columns(int64_t rows, int64_t cols, const T* x, int64_t ldx);
/// ‖I − Y·Yᴴ‖₁ / (max(cols, 1) · eps) of the rows×cols Y (orthonormal rows: Vᴴ, k×n or n×n).
template <class T>
double orthogonality_rows(int64_t rows, int64_t cols, const T* y, int64_t ldy);

/// The k singular values of the m×n a by LAPACKE_xgesdd with jobz 'N' on a padded copy (OpenBLAS
/// issue #4013, as checks_eig's reference), descending. Throws tessera::Error when info ≠ 0.
template <class T>
std::vector<real_t<T>> ref_singular_values(int64_t m, int64_t n, const T* a, int64_t lda);

/// Singular value error: max_i |s_i − s_ref_i| / (max(m, n) · max(s_ref_0, tiny) · eps), s_ref_0 =
/// ‖A‖₂ (xDRVBD's scaling by the largest singular value). +Inf when s is not in LAPACK's order
/// (non-negative, descending); NaN when s holds a NaN.
template <class T>
double singular_value_error(int64_t m, int64_t n, const real_t<T>* s, const real_t<T>* s_ref);
/// The same against ref_singular_values(m, n, a, lda).
template <class T>
double singular_value_error(int64_t m, int64_t n, const T* a, int64_t lda, const real_t<T>* s);

/// Every ratio that applies to one result, the largest (NaN if any is): the singular values against
/// LAPACKE's; with u (m×ucols, ucols = k or m) its orthogonality; with vt (vrows×n, vrows = k or n)
/// its orthogonality; with both the residual, with one of them its one-sided residual. u, vt may be
/// null (not computed).
template <class T>
double svd_error(int64_t m, int64_t n, const T* a, int64_t lda, const real_t<T>* s, const T* u, int64_t ldu,
                 int64_t ucols, const T* vt, int64_t ldvt, int64_t vrows);

/// Randomized checks of gesdd / gesvd on tiles, for the large problems (checks_random.hpp's form):
/// the constructor reads A (acquire_host(): its tiles in host memory) and keeps X (n×4, entries in
/// [0.5, 1.5)), A·X, ‖A‖∞ and ‖A‖_F²; O(mn) flops, no LAPACK-layout copy. One process only.
template <class T>
class SvdCheckRandom {
public:
    explicit SvdCheckRandom(const TileMatrix<T>& A);
    /// ‖A·X − U₁·(Σ·(Vᴴ₁·X))‖∞ / (‖A‖∞ · ‖X‖∞ · max(m, n) · eps), U₁ = U's first k columns, Vᴴ₁ = VT's
    /// first k rows (thin or full). Throws Error when the shapes do not match A's.
    double residual(const TileMatrix<T>& U, const TileMatrix<T>& VT, const std::vector<real_t<T>>& s) const;
    /// |Σ s_i² − ‖A‖_F²| / (max(‖A‖_F², tiny) · max(m, n) · eps): the values, with or without vectors.
    double frobenius_error(const std::vector<real_t<T>>& s) const;

private:
    int64_t m_, n_;
    std::vector<T> x_, ax_;  // n×4, m×4
    double norm_inf_, frob2_;
};

/// Sampled orthogonality of the rows×cols Q's columns (U; for VT pass columns = false: its rows):
/// ‖(QᴴQ − I)·Z‖∞ / (‖Z‖∞ · rows · eps) over 4 random vectors Z (‖(VT·VTᴴ − I)·Z‖∞ / (‖Z‖∞·cols·eps));
/// a lower bound of orthogonality_columns's / _rows's ratio (QᴴQ − I is Hermitian). O(rows·cols).
template <class T>
double orthogonality_random(const TileMatrix<T>& Q, bool columns = true);

/// The m×n A = U(:, 1:k)·diag(sigma)·V(:, 1:k)ᴴ with U (m×m) and V (n×n) the Q factors of seeded random
/// square matrices (LAPACKE_xgeqrf + xungqr), so that its singular vectors are dense and
/// unstructured. sigma: k non-negative values in any order. Column-major, leading dimension
/// max(1, m). O(m³ + n³) on the caller's thread.
template <class T>
std::vector<T> matrix_with_singular_values(int64_t m, int64_t n, const std::vector<real_t<T>>& sigma, uint64_t seed);

/// Singular value distributions (of real type R, descending) after LAPACK's test matrices (xLATMS):
/// geometric: σ_i = cond^(−i/(k−1)), from 1 down to 1/cond (MODE 3; 2-norm condition number cond).
template <class R>
std::vector<R> geometric_singular_values(int64_t k, double cond);
/// clustered: one value 1 and k − 1 within 2 ulps of 1/cond (MODE 1, perturbed within eps).
template <class R>
std::vector<R> clustered_singular_values(int64_t k, double cond = 1e4);
/// repeated: distinct values spread over (1/3, 1] for the first k − k/2, then 1/3 repeated k/2 times.
template <class R>
std::vector<R> repeated_singular_values(int64_t k);
/// rank-deficient: 1/(i + 1) for i < rank, then exact zeros (a matrix of rank `rank`).
template <class R>
std::vector<R> rank_deficient_singular_values(int64_t k, int64_t rank);

}  // namespace tessera::check
