// Numerical checks of tile LQ (LAPACK's xLQT01 ratios), on LAPACK column-major arrays: each is the
// QR check of checks_qr.hpp on the conjugate transposes (Aᴴ = Qᴴ·Lᴴ). Each returns a scaled residual
// that passes when ≤ check::kThreshold. unmlq is checked with check::unmqr_residual and the explicit
// n×n Q of the LQ.
#pragma once

#include <cstdint>
#include <vector>

#include "examples/common/checks_qr.hpp"

namespace tessera::check {

/// aᴴ (n×m, leading dimension max(1, n)) of the m×n a.
template <class T>
std::vector<T> conj_transpose(int64_t m, int64_t n, const T* a, int64_t lda);
/// gelqf: ‖A − L·Q‖ / (n · ‖A‖ · eps). A is m×n, q the explicit k×n Q (k = min(m, n), its rows), f the
/// factored A whose lower trapezoid (its first k columns) is L.
template <class T>
double lq_residual(int64_t m, int64_t n, const T* a, int64_t lda, const T* q, int64_t ldq, const T* f, int64_t ldf);
/// Orthogonality of the k×n Q (its rows): ‖I − Q·Qᴴ‖ / (n · eps).
template <class T>
double lq_orthogonality_residual(int64_t k, int64_t n, const T* q, int64_t ldq);

}  // namespace tessera::check
