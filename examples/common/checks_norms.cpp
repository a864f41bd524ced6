// LAPACKE references of the matrix norms and their tolerances (checks_norms.hpp).
#include "examples/common/checks_norms.hpp"

#include <algorithm>
#include <cmath>
#include <cctype>
#include <limits>
#include <vector>

#include "kernels/cpu/cblas_lapacke.hpp"
#include "examples/common/checks.hpp"
#include "runtime/precisions.hpp"

namespace tessera::check {

namespace {
template <class T>
std::vector<real_t<T>> work_for(int64_t m, int64_t n) {
    return std::vector<real_t<T>>(size_t(std::max<int64_t>({m, n, 1})));
}
}  // namespace

template <class T>
real_t<T> ref_lange(char norm, int64_t m, int64_t n, const T* a, int64_t lda) {
    auto w = work_for<T>(m, n);
    const int im = int(m), in = int(n), il = int(lda);
    if constexpr (std::is_same_v<T, float>) return LAPACKE_slange_work(LAPACK_COL_MAJOR, norm, im, in, a, il, w.data());
    else if constexpr (std::is_same_v<T, double>) return LAPACKE_dlange_work(LAPACK_COL_MAJOR, norm, im, in, a, il, w.data());
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        return LAPACKE_clange_work(LAPACK_COL_MAJOR, norm, im, in, a, il, w.data());
    else return LAPACKE_zlange_work(LAPACK_COL_MAJOR, norm, im, in, a, il, w.data());
}

template <class T>
real_t<T> ref_lansy(char norm, char uplo, int64_t n, const T* a, int64_t lda) {
    auto w = work_for<T>(n, n);
    const int in = int(n), il = int(lda);
    if constexpr (std::is_same_v<T, float>) return LAPACKE_slansy_work(LAPACK_COL_MAJOR, norm, uplo, in, a, il, w.data());
    else if constexpr (std::is_same_v<T, double>)
        return LAPACKE_dlansy_work(LAPACK_COL_MAJOR, norm, uplo, in, a, il, w.data());
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        return LAPACKE_clansy_work(LAPACK_COL_MAJOR, norm, uplo, in, a, il, w.data());
    else return LAPACKE_zlansy_work(LAPACK_COL_MAJOR, norm, uplo, in, a, il, w.data());
}

template <class T>
real_t<T> ref_lanhe(char norm, char uplo, int64_t n, const T* a, int64_t lda) {
    if constexpr (!is_complex_v<T>) {
        return ref_lansy(norm, uplo, n, a, lda);
    } else {
        auto w = work_for<T>(n, n);
        const int in = int(n), il = int(lda);
        if constexpr (std::is_same_v<T, std::complex<float>>)
            return LAPACKE_clanhe_work(LAPACK_COL_MAJOR, norm, uplo, in, a, il, w.data());
        else return LAPACKE_zlanhe_work(LAPACK_COL_MAJOR, norm, uplo, in, a, il, w.data());
    }
}

template <class T>
real_t<T> ref_lantr(char norm, char uplo, char diag, int64_t m, int64_t n, const T* a, int64_t lda) {
    auto w = work_for<T>(m, n);
    const int im = int(m), in = int(n), il = int(lda);
    if constexpr (std::is_same_v<T, float>)
        return LAPACKE_slantr_work(LAPACK_COL_MAJOR, norm, uplo, diag, im, in, a, il, w.data());
    else if constexpr (std::is_same_v<T, double>)
        return LAPACKE_dlantr_work(LAPACK_COL_MAJOR, norm, uplo, diag, im, in, a, il, w.data());
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        return LAPACKE_clantr_work(LAPACK_COL_MAJOR, norm, uplo, diag, im, in, a, il, w.data());
    else return LAPACKE_zlantr_work(LAPACK_COL_MAJOR, norm, uplo, diag, im, in, a, il, w.data());
}

template <class T>
double norm_tolerance(char norm, int64_t m, int64_t n) {
    const double eps = double(std::numeric_limits<real_t<T>>::epsilon()) / 2;
    switch (std::toupper(static_cast<unsigned char>(norm))) {
        case 'M': return 4 * eps;
        case 'F': case 'E': return 2 * (double(m) * double(n) + 4) * eps;
        default: return 2 * (double(std::max(m, n)) + 4) * eps;
    }
}

template <class T>
double norm_error(char norm, int64_t m, int64_t n, real_t<T> got, real_t<T> ref) {
    const double eps = double(std::numeric_limits<real_t<T>>::epsilon()) / 2;
    double k = 1;
    switch (std::toupper(static_cast<unsigned char>(norm))) {
        case 'M': k = 1; break;
        case 'F': case 'E': k = double(m) * double(n); break;
        default: k = double(std::max(m, n)); break;
    }
    if (std::isnan(double(got)) || std::isnan(double(ref))) return std::numeric_limits<double>::quiet_NaN();
    return ratio(std::abs(double(got) - double(ref)), std::abs(double(ref)) * std::max(k, 1.0) * eps);
}

#define TESSERA_INSTANTIATE(T)                                                                   \
    template real_t<T> ref_lange<T>(char, int64_t, int64_t, const T*, int64_t);                 \
    template real_t<T> ref_lansy<T>(char, char, int64_t, const T*, int64_t);                    \
    template real_t<T> ref_lanhe<T>(char, char, int64_t, const T*, int64_t);                    \
    template real_t<T> ref_lantr<T>(char, char, char, int64_t, int64_t, const T*, int64_t);     \
    template double norm_tolerance<T>(char, int64_t, int64_t);                                     \
    template double norm_error<T>(char, int64_t, int64_t, real_t<T>, real_t<T>);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::check
