// Scaled residuals of tile LQ: the QR residuals (checks_qr.cpp) of the conjugate transposes.
#include "examples/common/checks_lq.hpp"

#include <algorithm>

#include "runtime/precisions.hpp"
#include "tessera/runtime.hpp"

namespace tessera::check {

template <class T>
std::vector<T> conj_transpose(int64_t m, int64_t n, const T* a, int64_t lda) {
    const int64_t ld = std::max<int64_t>(1, n);
    std::vector<T> at(size_t(ld * std::max<int64_t>(1, m)));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) at[size_t(j + i * ld)] = conjugate(a[i + j * lda]);
    return at;
}

template <class T>
double lq_residual(int64_t m, int64_t n, const T* a, int64_t lda, const T* q, int64_t ldq, const T* f, int64_t ldf) {
    if (Runtime::rank() != 0) return 0;  // distributed: rank 0 holds the gathered arrays
    if (m == 0 || n == 0) return 0;
    const int64_t k = std::min(m, n), ld = std::max<int64_t>(1, n);
    const auto at = conj_transpose(m, n, a, lda), qt = conj_transpose(k, n, q, ldq), ft = conj_transpose(m, n, f, ldf);
    return qr_residual(n, m, at.data(), ld, qt.data(), ld, ft.data(), ld);
}

template <class T>
double lq_orthogonality_residual(int64_t k, int64_t n, const T* q, int64_t ldq) {
    if (Runtime::rank() != 0) return 0;  // distributed: rank 0 holds the gathered arrays
    if (k == 0 || n == 0) return 0;
    const auto qt = conj_transpose(k, n, q, ldq);
    return orthogonality_residual(n, k, qt.data(), n);
}

#define TESSERA_INSTANTIATE(T)                                                                                    \
    template std::vector<T> conj_transpose(int64_t, int64_t, const T*, int64_t);                                  \
    template double lq_residual(int64_t, int64_t, const T*, int64_t, const T*, int64_t, const T*, int64_t);       \
    template double lq_orthogonality_residual(int64_t, int64_t, const T*, int64_t);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::check
