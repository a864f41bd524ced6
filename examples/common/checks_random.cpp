// Randomized residuals on tiles: see checks_random.hpp.
#include "examples/common/checks_random.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "examples/common/checks.hpp"
#include "kernels/cpu/blas.hpp"
#include "runtime/mpi_internal.hpp"
#include "runtime/precisions.hpp"

namespace tessera::check {
namespace {

constexpr int64_t kVectors = 4;

/// n×kVectors random matrix (leading dimension n), entries in [0.5, 1.5): no cancellation in ‖X‖.
template <class T>
std::vector<T> random_vectors(int64_t n) {
    std::vector<T> x = random_matrix<T>(n, kVectors, std::max<int64_t>(n, 1), 7);
    for (T& v : x) v += T(1);
    return x;
}

/// Distributed: replace each rank's partial `v` (the contributions of its own tiles) by the sum over
/// every rank, the same on each (detail::sum_over_ranks, in double: a complex entry is two). Collective;
/// nothing in one process.
template <class T>
void sum_over_ranks(std::vector<T>& v) {
    if (!detail::distributed()) return;
    constexpr size_t parts = is_complex_v<T> ? 2 : 1;
    std::vector<double> d(v.size() * parts);
    for (size_t i = 0; i < v.size(); ++i) {
        d[i * parts] = double(std::real(v[i]));
        if constexpr (parts == 2) d[i * parts + 1] = double(std::imag(v[i]));
    }
    d = detail::sum_over_ranks(std::move(d));
    for (size_t i = 0; i < v.size(); ++i)
        if constexpr (parts == 2) v[i] = T(real_t<T>(d[i * 2]), real_t<T>(d[i * 2 + 1]));
        else v[i] = T(d[i]);
}

/// Y = op(P)·X, P the leading rows×cols block of A (uplo General) or that block's uplo triangle
/// (with a unit diagonal for Diag::Unit). X is (op(P)'s columns)×kVectors and Y (op(P)'s
/// rows)×kVectors, column-major with leading dimension their rows. A's tiles must be in host memory.
/// One gemm per tile: an off-diagonal tile in place, a diagonal tile of a triangle through a copy
/// with the other triangle zeroed. Distributed: each rank multiplies the tiles it owns and the partial
/// products are summed over the ranks (collective), so that every rank gets the whole Y.
template <class T>
std::vector<T> times(const TileMatrix<T>& A, int64_t rows, int64_t cols, Uplo uplo, Diag diag, Trans trans,
                     const std::vector<T>& x) {
    const bool nt = trans == Trans::NoTrans;
    const int64_t yld = std::max<int64_t>(nt ? rows : cols, 1), xld = std::max<int64_t>(nt ? cols : rows, 1);
    const int64_t nb = A.nb();
    std::vector<T> y(size_t(yld * kVectors), T(0)), tri;
    for (int64_t j = 0; j * nb < cols; ++j)
        for (int64_t i = 0; i * nb < rows; ++i) {
            if ((uplo == Uplo::Lower && i < j) || (uplo == Uplo::Upper && i > j)) continue;
            const int64_t r = std::min(A.tile_rows(i), rows - i * nb), c = std::min(A.tile_cols(j), cols - j * nb);
            const T* t = A.tile_data(i, j);
            if (!t) continue;  // distributed: another rank's tile, in its partial product
            int64_t ld = A.tile_ld(i);
            if (uplo != Uplo::General && i == j) {  // the diagonal tile's triangle (same local diagonal)
                tri.assign(size_t(r * c), T(0));
                for (int64_t q = 0; q < c; ++q)
                    for (int64_t p = 0; p < r; ++p)
                        if (p == q) tri[size_t(p + q * r)] = diag == Diag::Unit ? T(1) : t[p + q * ld];
                        else if (uplo == Uplo::Lower ? p > q : p < q) tri[size_t(p + q * r)] = t[p + q * ld];
                t = tri.data();
                ld = r;
            }
            if (nt)
                cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, r, kVectors, c, T(1), t, ld, x.data() + j * nb, xld, T(1),
                             y.data() + i * nb, yld);
            else
                cpu::gemm<T>(trans, Trans::NoTrans, c, kVectors, r, T(1), t, ld, x.data() + i * nb, xld, T(1),
                             y.data() + j * nb, yld);
        }
    sum_over_ranks(y);
    return y;
}

/// Y = op(A)·X for the whole A.
template <class T>
std::vector<T> times(const TileMatrix<T>& A, Trans trans, const std::vector<T>& x) {
    return times(A, A.m(), A.n(), Uplo::General, Diag::NonUnit, trans, x);
}

/// ‖A‖∞ ('I': largest row sum of |a_ij|) or ‖A‖₁ ('1': largest column sum) over A's tiles in host
/// memory, summed in double; 0 for an empty A, NaN when an entry is NaN (as xLANGE). Distributed:
/// each rank sums its own tiles and the row (column) sums are summed over the ranks (collective).
template <class T>
double norm(char which, const TileMatrix<T>& A) {
    const bool rows = which == 'I';
    const int64_t nb = A.nb();
    std::vector<double> sums(size_t(rows ? A.m() : A.n()), 0.0);
    for (int64_t j = 0; j < A.nt(); ++j)
        for (int64_t i = 0; i < A.mt(); ++i) {
            const T* t = A.tile_data(i, j);
            if (!t) continue;  // distributed: another rank's tile
            const int64_t r = A.tile_rows(i), c = A.tile_cols(j), ld = A.tile_ld(i);
            for (int64_t q = 0; q < c; ++q)
                for (int64_t p = 0; p < r; ++p) sums[size_t(rows ? i * nb + p : j * nb + q)] += std::abs(t[p + q * ld]);
        }
    sum_over_ranks(sums);
    double best = 0;
    for (double s : sums)
        if (!(s <= best)) best = s;  // keeps a NaN
    return best;
}

/// ‖Y − Z‖∞ / (scale · ‖X‖∞ · eps), Y and Z rows × kVectors, X xrows × kVectors. The ∞-norm keeps an
/// error confined to a few entries of the factors visible: ‖E·X‖∞ ≈ ‖E‖∞·‖X‖∞ for X with entries of
/// one size. Distributed: rank 0's value on every rank (collective), so that the ranks agree on
/// pass or fail even if their sums of the same partial products rounded differently.
template <class T>
double scaled(const std::vector<T>& y, const std::vector<T>& z, int64_t rows, const std::vector<T>& x, int64_t xrows,
              double scale) {
    std::vector<T> d(y.size());
    for (size_t i = 0; i < y.size(); ++i) d[i] = y[i] - z[i];
    const double num = lange('I', rows, kVectors, d.data(), std::max<int64_t>(rows, 1));
    const double den = scale * lange('I', xrows, kVectors, x.data(), std::max<int64_t>(xrows, 1)) * eps<T>();
    const double mine = ratio(num, den);
    if (!detail::distributed()) return mine;
    return detail::sum_over_ranks({detail::rank() == 0 ? mine : 0.0})[0];  // x + 0 + ... = x, NaN and Inf kept
}

/// Throws tessera::Error unless M is rows×cols.
template <class T>
void require_shape(const char* func, const char* arg, const TileMatrix<T>& M, int64_t rows, int64_t cols) {
    if (M.m() != rows || M.n() != cols)
        throw Error(std::string("tessera::check::") + func + ": argument '" + arg + "' is " + std::to_string(M.m()) +
                    "x" + std::to_string(M.n()) + ", must be " + std::to_string(rows) + "x" + std::to_string(cols));
}

}  // namespace

template <class T>
SquareReference<T>::SquareReference(const char* func, const TileMatrix<T>& A) : n(A.n()) {
    require_shape(func, "A", A, n, n);
    A.acquire_host();
    x = random_vectors<T>(n);
    ax = times(A, Trans::NoTrans, x);
    norm_a = norm('I', A);
}

template <class T>
PotrfCheckRandom<T>::PotrfCheckRandom(Uplo uplo, const TileMatrix<T>& A) : uplo_(uplo), ref_("PotrfCheckRandom", A) {}

template <class T>
double PotrfCheckRandom<T>::residual(const TileMatrix<T>& F) const {
    const int64_t n = ref_.n;
    const std::vector<T>& x = ref_.x;
    require_shape("PotrfCheckRandom::residual", "F", F, n, n);
    F.acquire_host();
    // Lower: L·(Lᵀ·X); Upper: Uᵀ·(U·X).
    const Trans first = uplo_ == Uplo::Lower ? Trans::ConjTrans : Trans::NoTrans;  // A = L·Lᴴ or Uᴴ·U
    const Trans second = uplo_ == Uplo::Lower ? Trans::NoTrans : Trans::ConjTrans;
    const auto llx = times(F, n, n, uplo_, Diag::NonUnit, second, times(F, n, n, uplo_, Diag::NonUnit, first, x));
    return scaled(ref_.ax, llx, n, x, n, double(std::max<int64_t>(n, 1)) * ref_.norm_a);
}

template <class T>
GetrfCheckRandom<T>::GetrfCheckRandom(const TileMatrix<T>& A) : ref_("GetrfCheckRandom", A) {}

template <class T>
double GetrfCheckRandom<T>::residual(const TileMatrix<T>& F, const std::vector<int64_t>& ipiv) const {
    const int64_t n = ref_.n;
    const std::vector<T>& x = ref_.x;
    require_shape("GetrfCheckRandom::residual", "F", F, n, n);
    if (!ipiv.empty() && int64_t(ipiv.size()) != n)
        throw Error("tessera::check::GetrfCheckRandom::residual: argument 'ipiv' has " + std::to_string(ipiv.size()) +
                    " entries, must have 0 or " + std::to_string(n));
    F.acquire_host();
    auto pax = ref_.ax;  // P·(A·X): the row interchanges in order
    for (int64_t i = 0; i < int64_t(ipiv.size()); ++i) {
        const int64_t p = ipiv[size_t(i)] - 1;
        if (p < 0 || p >= n) return INFINITY;  // not a valid interchange
        if (p != i)
            for (int64_t c = 0; c < kVectors; ++c) std::swap(pax[size_t(i + c * n)], pax[size_t(p + c * n)]);
    }
    const auto ux = times(F, n, n, Uplo::Upper, Diag::NonUnit, Trans::NoTrans, x);
    const auto lux = times(F, n, n, Uplo::Lower, Diag::Unit, Trans::NoTrans, ux);
    return scaled(pax, lux, n, x, n, double(std::max<int64_t>(n, 1)) * ref_.norm_a);
}

template <class T>
GeqrfCheckRandom<T>::GeqrfCheckRandom(const TileMatrix<T>& A) : m_(A.m()), n_(A.n()) {
    if (m_ < n_)
        throw Error("tessera::check::GeqrfCheckRandom: argument 'A' is " + std::to_string(m_) + "x" +
                    std::to_string(n_) + ", must have m >= n");
    A.acquire_host();
    x_ = random_vectors<T>(n_);
    atax_ = times(A, Trans::ConjTrans, times(A, Trans::NoTrans, x_));  // Aᴴ·A·x
    norm_a_ = std::max(norm('1', A), norm('I', A));  // bounds ‖Aᵀ‖∞·‖A‖∞ when squared
}

template <class T>
double GeqrfCheckRandom<T>::residual(const TileMatrix<T>& F) const {
    require_shape("GeqrfCheckRandom::residual", "F", F, m_, n_);
    F.acquire_host();
    const auto rx = times(F, n_, n_, Uplo::Upper, Diag::NonUnit, Trans::NoTrans, x_);
    const auto rtrx = times(F, n_, n_, Uplo::Upper, Diag::NonUnit, Trans::ConjTrans, rx);
    return scaled(atax_, rtrx, n_, x_, n_, double(std::max<int64_t>(m_, 1)) * norm_a_ * norm_a_);
}

template <class T>
GemmCheckRandom<T>::GemmCheckRandom(Trans ta, Trans tb, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& B,
                                    T beta, const TileMatrix<T>& C0)
    : m_(C0.m()), n_(C0.n()) {
    const int64_t k = ta == Trans::NoTrans ? A.n() : A.m();
    if (ta == Trans::NoTrans) require_shape("GemmCheckRandom", "A", A, m_, k);
    else require_shape("GemmCheckRandom", "A", A, k, m_);
    if (tb == Trans::NoTrans) require_shape("GemmCheckRandom", "B", B, k, n_);
    else require_shape("GemmCheckRandom", "B", B, n_, k);
    A.acquire_host();
    B.acquire_host();
    C0.acquire_host();
    x_ = random_vectors<T>(n_);
    ref_ = times(A, ta, times(B, tb, x_));  // op(A)·(op(B)·X)
    const auto c0x = times(C0, Trans::NoTrans, x_);
    for (size_t i = 0; i < ref_.size(); ++i) ref_[i] = alpha * ref_[i] + beta * c0x[i];
    // ‖op(A)‖∞ is ‖A‖₁ for a transposed A.
    const double na = norm(ta == Trans::NoTrans ? 'I' : '1', A), nb = norm(tb == Trans::NoTrans ? 'I' : '1', B);
    scale_ = (std::abs(alpha) * na * nb + std::abs(beta) * norm('I', C0)) *
             double(std::max<int64_t>(k, 1));
}

template <class T>
double GemmCheckRandom<T>::residual(const TileMatrix<T>& C) const {
    require_shape("GemmCheckRandom::residual", "C", C, m_, n_);
    C.acquire_host();
    return scaled(times(C, Trans::NoTrans, x_), ref_, m_, x_, n_, scale_);
}

#define TESSERA_INSTANTIATE(T)                \
    template struct SquareReference<T>;       \
    template class PotrfCheckRandom<T>;       \
    template class GetrfCheckRandom<T>;       \
    template class GeqrfCheckRandom<T>;       \
    template class GemmCheckRandom<T>;
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::check
