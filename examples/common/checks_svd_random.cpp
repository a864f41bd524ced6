// Randomized O(mn) checks of the SVD on tiles (checks_svd.hpp: SvdCheckRandom, orthogonality_random).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "examples/common/checks_svd.hpp"
#include "kernels/cpu/blas.hpp"
#include "runtime/precisions.hpp"

namespace tessera::check {
namespace {

constexpr int64_t kVectors = 4;

template <class T>
double tiny() {
    return double(std::numeric_limits<real_t<T>>::min());
}

/// kVectors random vectors of `rows` entries in [0.5, 1.5) (no cancellation in their norms), ld rows.
template <class T>
std::vector<T> random_vectors(int64_t rows, uint64_t seed) {
    std::vector<T> x = random_matrix<T>(rows, kVectors, std::max<int64_t>(rows, 1), seed);
    for (T& v : x) v += T(1);
    return x;
}

/// ‖M‖∞ of the rows×kVectors array m (leading dimension max(rows, 1)); NaN kept.
template <class T>
double inf_norm(const std::vector<T>& m, int64_t rows) {
    const int64_t ld = std::max<int64_t>(rows, 1);
    double best = 0;
    for (int64_t i = 0; i < rows; ++i) {
        double s = 0;
        for (int64_t c = 0; c < kVectors; ++c) s += std::abs(m[size_t(i + c * ld)]);
        if (!(s <= best)) best = s;
    }
    return best;
}

/// y += op(M(0:r, 0:c))·x on M's host tiles: NoTrans y is r×kVectors and x c×kVectors; ConjTrans y is
/// c×kVectors and x r×kVectors (leading dimensions ldx, ldy). Throws Error for a tile on another rank.
template <class T>
void tiles_times(const TileMatrix<T>& M, Trans t, int64_t r, int64_t c, const T* x, int64_t ldx, T* y, int64_t ldy) {
    const int64_t nb = M.nb();
    for (int64_t j = 0; j < M.nt() && j * nb < c; ++j)
        for (int64_t i = 0; i < M.mt() && i * nb < r; ++i) {
            const T* a = M.tile_data(i, j);
            if (!a) throw Error("tessera::check::SvdCheckRandom: every tile must be local (one process)");
            const int64_t rows = std::min(M.tile_rows(i), r - i * nb), cols = std::min(M.tile_cols(j), c - j * nb);
            if (t == Trans::NoTrans)
                cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, rows, kVectors, cols, T(1), a, M.tile_ld(i), x + j * nb, ldx,
                             T(1), y + i * nb, ldy);
            else
                cpu::gemm<T>(Trans::ConjTrans, Trans::NoTrans, cols, kVectors, rows, T(1), a, M.tile_ld(i), x + i * nb,
                             ldx, T(1), y + j * nb, ldy);
        }
}

}  // namespace

template <class T>
SvdCheckRandom<T>::SvdCheckRandom(const TileMatrix<T>& A) : m_(A.m()), n_(A.n()), norm_inf_(0), frob2_(0) {
    A.acquire_host();
    const int64_t m = m_, n = n_, nb = A.nb(), ldm = std::max<int64_t>(m, 1);
    x_ = random_vectors<T>(n, 7);
    ax_.assign(size_t(ldm * kVectors), T(0));
    tiles_times(A, Trans::NoTrans, m, n, x_.data(), std::max<int64_t>(n, 1), ax_.data(), ldm);
    std::vector<double> rowsum(size_t(m), 0.0);
    long double frob2 = 0;
    for (int64_t j = 0; j < A.nt(); ++j)
        for (int64_t i = 0; i < A.mt(); ++i) {
            const T* a = A.tile_data(i, j);
            for (int64_t q = 0; q < A.tile_cols(j); ++q)
                for (int64_t p = 0; p < A.tile_rows(i); ++p) {
                    const long double v = std::abs(a[p + q * A.tile_ld(i)]);
                    rowsum[size_t(i * nb + p)] += double(v);
                    frob2 += v * v;
                }
        }
    for (double s : rowsum)
        if (!(s <= norm_inf_)) norm_inf_ = s;  // keeps a NaN
    frob2_ = double(frob2);
}

template <class T>
double SvdCheckRandom<T>::residual(const TileMatrix<T>& U, const TileMatrix<T>& VT,
                                   const std::vector<real_t<T>>& s) const {
    const int64_t m = m_, n = n_, k = std::min(m, n), ldm = std::max<int64_t>(m, 1), ldk = std::max<int64_t>(k, 1);
    if (U.m() != m || U.n() < k || VT.n() != n || VT.m() < k || int64_t(s.size()) != k)
        throw Error("tessera::check::SvdCheckRandom::residual: U is " + std::to_string(U.m()) + "x" +
                    std::to_string(U.n()) + ", VT " + std::to_string(VT.m()) + "x" + std::to_string(VT.n()) + ", s has " +
                    std::to_string(s.size()) + " entries; A is " + std::to_string(m) + "x" + std::to_string(n));
    if (k == 0) return 0;
    U.acquire_host();
    VT.acquire_host();
    // y = Vᴴ₁·X, then Σ·y, then v = U₁·y − A·X.
    std::vector<T> y(size_t(ldk * kVectors), T(0)), v(size_t(ldm * kVectors), T(0));
    tiles_times(VT, Trans::NoTrans, k, n, x_.data(), std::max<int64_t>(n, 1), y.data(), ldk);
    for (int64_t c = 0; c < kVectors; ++c)
        for (int64_t i = 0; i < k; ++i) y[size_t(i + c * ldk)] *= s[size_t(i)];
    tiles_times(U, Trans::NoTrans, m, k, y.data(), ldk, v.data(), ldm);
    for (size_t i = 0; i < v.size(); ++i) v[i] -= ax_[i];
    if (!std::isfinite(norm_inf_)) return NAN;
    const double num = inf_norm(v, m) / std::max(norm_inf_, tiny<T>());
    return ratio(num, inf_norm(x_, n) * double(std::max(m, n)) * eps<T>());
}

template <class T>
double SvdCheckRandom<T>::frobenius_error(const std::vector<real_t<T>>& s) const {
    const int64_t k = std::min(m_, n_);
    if (int64_t(s.size()) != k)
        throw Error("tessera::check::SvdCheckRandom::frobenius_error: s has " + std::to_string(s.size()) +
                    " entries, must have " + std::to_string(k));
    if (k == 0) return 0;
    long double sum = 0;
    for (real_t<T> v : s) sum += (long double)v * (long double)v;
    if (!std::isfinite(frob2_)) return NAN;
    const double num = double(std::abs(sum - (long double)frob2_)) / std::max(frob2_, tiny<T>());
    return ratio(num, double(std::max(m_, n_)) * eps<T>());
}

template <class T>
double orthogonality_random(const TileMatrix<T>& Q, bool columns) {
    const int64_t rows = Q.m(), cols = Q.n();
    if (rows == 0 || cols == 0) return 0;
    Q.acquire_host();
    // columns: v = Qᴴ·(Q·Z) − Z, Z cols×4; rows: v = Q·(Qᴴ·Z) − Z, Z rows×4.
    const int64_t outer = columns ? cols : rows, inner = columns ? rows : cols;
    const std::vector<T> z = random_vectors<T>(outer, 11);
    std::vector<T> w(size_t(inner * kVectors), T(0)), v(size_t(outer * kVectors), T(0));
    tiles_times(Q, columns ? Trans::NoTrans : Trans::ConjTrans, rows, cols, z.data(), outer, w.data(), inner);
    tiles_times(Q, columns ? Trans::ConjTrans : Trans::NoTrans, rows, cols, w.data(), inner, v.data(), outer);
    for (size_t i = 0; i < v.size(); ++i) v[i] -= z[i];
    return ratio(inf_norm(v, outer), inf_norm(z, outer) * double(inner) * eps<T>());
}

#define TESSERA_INSTANTIATE(T)         \
    template class SvdCheckRandom<T>; \
    template double orthogonality_random(const TileMatrix<T>&, bool);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::check
