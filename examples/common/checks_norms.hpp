// References and tolerances for the matrix norms (tessera/norms.hpp): LAPACK's own xLANGE, xLANSY,
// xLANHE and xLANTR through LAPACKE, and the relative error bound a tile result must meet.
#pragma once

#include <cstdint>

#include "tessera/types.hpp"

namespace tessera::check {

/// LAPACKE_xlange_work / xlansy_work / xlanhe_work (lansy for real T) / xlantr_work on the caller's
/// column-major array (the _work forms propagate NaN). norm, uplo, diag are LAPACK's characters.
template <class T>
real_t<T> ref_lange(char norm, int64_t m, int64_t n, const T* a, int64_t lda);
template <class T>
real_t<T> ref_lansy(char norm, char uplo, int64_t n, const T* a, int64_t lda);
template <class T>
real_t<T> ref_lanhe(char norm, char uplo, int64_t n, const T* a, int64_t lda);
template <class T>
real_t<T> ref_lantr(char norm, char uplo, char diag, int64_t m, int64_t n, const T* a, int64_t lda);

/// The relative tolerance between two computations of a norm of an m×n matrix in T's precision,
/// each within its rounding error bound (eps = unit roundoff): the largest modulus, up to the
/// moduli's own rounding, 4·eps; a largest column or row sum, of at most max(m, n) terms each a
/// modulus, 2·(max(m, n) + 4)·eps; the Frobenius norm, a sum of m·n squares, 2·(m·n + 4)·eps.
template <class T>
double norm_tolerance(char norm, int64_t m, int64_t n);

/// The tester's scaled error of a norm against LAPACK's (docs/architecture.md#numerical-checks):
/// |got − ref| / (|ref| · k · eps), k = 1 for Max, max(m, n) for One and Inf, m·n for Fro (at least
/// 1); check::ratio's conventions (0 for an exact result, NaN for a NaN norm); passes ≤ kThreshold.
template <class T>
double norm_error(char norm, int64_t m, int64_t n, real_t<T> got, real_t<T> ref);

}  // namespace tessera::check
