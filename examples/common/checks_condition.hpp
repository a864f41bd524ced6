// References and acceptance of the condition number estimates (tessera/condition.hpp): LAPACK's own
// xGECON, xPOCON and xTRCON through LAPACKE on the same factors, the exact reciprocal condition
// number from the inverse (xGETRI, xPOTRI, xTRTRI and xLANGE / xLANTR), and the scaled error the
// tester prints.
#pragma once

#include <cstdint>

#include "tessera/types.hpp"

namespace tessera::check {

/// LAPACKE_xgecon_work / xpocon_work / xtrcon_work on the caller's column-major factors (lu from
/// xGETRF, f from xPOTRF, a triangular), norm 'O' or 'I', uplo, diag LAPACK's characters.
template <class T>
real_t<T> ref_gecon(char norm, int64_t n, const T* lu, int64_t ld, real_t<T> anorm);
template <class T>
real_t<T> ref_pocon(char uplo, int64_t n, const T* f, int64_t ld, real_t<T> anorm);
template <class T>
real_t<T> ref_trcon(char norm, char uplo, char diag, int64_t n, const T* a, int64_t ld);

/// The exact 1 / (anorm · ‖A⁻¹‖) with A⁻¹ formed from the same factors on a copy: xGETRI with the
/// pivots ipiv (1-based, LAPACK's), xPOTRI (its triangle expanded to the Hermitian inverse), xTRTRI
/// (with ‖A‖ by xLANTR); ‖A⁻¹‖ by xLANGE / xLANTR in `norm` (the 1-norm for pocon). 0 when the
/// factor is exactly singular (info > 0). O(n³): for small n.
template <class T>
real_t<T> exact_gecon(char norm, int64_t n, const T* lu, int64_t ld, const int64_t* ipiv, real_t<T> anorm);
template <class T>
real_t<T> exact_pocon(char uplo, int64_t n, const T* f, int64_t ld, real_t<T> anorm);
template <class T>
real_t<T> exact_trcon(char norm, char uplo, char diag, int64_t n, const T* a, int64_t ld);

/// The tester's scaled error of an estimate `est` of rcond against LAPACK's estimate `ref` on the
/// same factors and, when exact ≥ 0 is given, the exact rcond of an n×n matrix in T's precision
/// (eps = unit roundoff): 6 · the largest of ref/est, est/ref (the two estimators agree within a factor
/// 10) and est/exact (the estimate of ‖A⁻¹‖ is within a factor 10 of the true norm), so that
/// check::kThreshold (60) is a factor 10; +∞ when est < exact·(1 − tol), tol = min(0.5, 10·n·eps/exact):
/// the estimate of ‖A⁻¹‖ is a lower bound (it is ‖A⁻¹·x‖₁ for some ‖x‖₁ = 1), broken only by the
/// solves' and the inverse's rounding, of relative size O(n·eps·κ) (Higham, ASNA 2nd ed., §14.1,
/// §15.3). The factor 10 above is the estimator's observed accuracy (Higham 1988: estimates are
/// almost always within a factor 3; no bound is proven). Two zeros agree (an exactly singular
/// factor); a NaN or a negative est gives NaN (never a pass).
template <class T>
double rcond_error(int64_t n, real_t<T> est, real_t<T> ref, real_t<T> exact = -1);

}  // namespace tessera::check
