// Mixed-precision iterative refinement (LAPACK DSPOSV / DSGESV / ZCPOSV / ZCGESV; Langou et al.
// 2006): factor in the low precision, refine in the high one, fall back to the high precision's
// posv / gesv when that does not reach the high precision's backward error. The LAPACK-layout
// forms are in mixed_lapack.cpp.
#include "tessera/mixed.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "algorithms/common.hpp"
#include "codelets/tasks.hpp"
#include "codelets/tasks_mixed.hpp"
#include "tessera/cholesky.hpp"
#include "tessera/lu.hpp"
#include "tessera/norms.hpp"

namespace tessera {

namespace {

constexpr int64_t kItermax = 30;  // LAPACK's ITERMAX
constexpr double kBwdmax = 1.0;   // LAPACK's BWDMAX

template <class T>
using low_t = cpu::low_t<T>;

// |re| + |im|: the magnitude LAPACK's I?AMAX compares (|x| for real T).
template <class T>
double cabs1(T x) {
    return std::abs(double(std::real(x))) + std::abs(double(std::imag(x)));
}

// Submit B = low(A) on every tile of A's uplo triangle (General: all), each kernel reporting an
// overflow into an info slot of seq: seq.wait() > 0 means an entry overflowed.
template <class T>
void convert_down_async(Uplo uplo, const TileMatrix<T>& A, TileMatrix<low_t<T>>& B, Sequence& seq) {
    detail::SubmitScope scope(seq);
    for (int64_t j = 0; j < A.nt(); ++j)
        for (int64_t i = 0; i < A.mt(); ++i) {
            if ((uplo == Uplo::Lower && i < j) || (uplo == Uplo::Upper && i > j)) continue;
            tasks::lag2_down<T>(i == j ? uplo : Uplo::General, A.handle(i, j), B.handle(i, j), detail::info_slot(0));
        }
}

// Submit X = high(Xs) (accumulate false) or X += high(Xs).
template <class T>
void convert_up_async(bool accumulate, const TileMatrix<low_t<T>>& Xs, TileMatrix<T>& X, Sequence& seq) {
    detail::SubmitScope scope(seq);
    for (int64_t j = 0; j < X.nt(); ++j)
        for (int64_t i = 0; i < X.mt(); ++i) tasks::lag2_up<T>(accumulate, Xs.handle(i, j), X.handle(i, j));
}

// Submit R = B − A·X. uplo General: A general (gemm); Lower / Upper: A symmetric or Hermitian from
// that triangle, the tiles of the other one taken as the conjugate transposes of their mirrors and
// the diagonal tiles multiplied by hemm (LAPACK's xSYMM / xHEMM in DSPOSV / ZCPOSV).
template <class T>
void residual_async(Uplo uplo, const TileMatrix<T>& A, const TileMatrix<T>& B, const TileMatrix<T>& X,
                    TileMatrix<T>& R, Sequence& seq) {
    detail::SubmitScope scope(seq);
    for (int64_t j = 0; j < R.nt(); ++j)
        for (int64_t i = 0; i < R.mt(); ++i) {
            tasks::lacpy<T>(Uplo::General, B.handle(i, j), R.handle(i, j));
            for (int64_t k = 0; k < A.nt(); ++k) {
                if (uplo != Uplo::General && i == k)
                    tasks::hemm<T>(Side::Left, uplo, T(-1), A.handle(i, i), X.handle(i, j), T(1), R.handle(i, j));
                else if (uplo == Uplo::General || (uplo == Uplo::Lower) == (i > k))
                    tasks::gemm<T>(Trans::NoTrans, Trans::NoTrans, T(-1), A.handle(i, k), X.handle(k, j), T(1),
                                   R.handle(i, j));
                else
                    tasks::gemm<T>(Trans::ConjTrans, Trans::NoTrans, T(-1), A.handle(k, i), X.handle(k, j), T(1),
                                   R.handle(i, j));
            }
        }
}

// Per column j of M (waited for and read in host memory): max_i cabs1(M(i, j)).
template <class T>
std::vector<double> column_amax(const TileMatrix<T>& M) {
    M.acquire_host();
    std::vector<double> amax(size_t(M.n()), 0.0);
    for (int64_t j = 0; j < M.nt(); ++j)
        for (int64_t i = 0; i < M.mt(); ++i) {
            const T* t = M.tile_data(i, j);
            for (int64_t c = 0; c < M.tile_cols(j); ++c) {
                double& m = amax[size_t(j * M.nb() + c)];
                for (int64_t r = 0; r < M.tile_rows(i); ++r) m = std::max(m, cabs1(t[r + c * M.tile_ld(i)]));
            }
        }
    return amax;
}

// ‖A‖∞: LAPACK's xLANGE('I') for General, xLANSY / xLANHE('I') from the uplo triangle otherwise
// (tessera/norms.hpp: its tasks only read A, as the factorization's submitted before it do).
template <class T>
double norm_inf(Uplo uplo, const TileMatrix<T>& A) {
    if (uplo == Uplo::General) return double(lange(Norm::Inf, A));
    return double(is_complex_v<T> ? lanhe(Norm::Inf, uplo, A) : lansy(Norm::Inf, uplo, A));
}

// Whether every column satisfies LAPACK's test ‖r_j‖∞ ≤ ‖x_j‖∞ · cte (waits for R and X).
template <class T>
bool converged(const TileMatrix<T>& R, const TileMatrix<T>& X, double cte) {
    const std::vector<double> r = column_amax(R), x = column_amax(X);
    for (size_t j = 0; j < r.size(); ++j)
        if (!(r[j] <= x[j] * cte)) return false;
    return true;
}

// The low-precision factorization of a mixed solver: Cholesky (uplo Lower / Upper) or LU (General).
template <class T>
struct LowFactor {
    Uplo uplo;
    TileMatrix<low_t<T>> A;
    std::vector<int64_t> ipiv;
    // Factor A and solve B in place, in seq (its wait returns the factorization's info).
    void solve_async(TileMatrix<low_t<T>>& B, Sequence& seq) {
        if (uplo == Uplo::General) gesv_async(A, ipiv, B, seq);
        else posv_async(uplo, A, B, seq);
    }
    void resolve_async(TileMatrix<low_t<T>>& B, Sequence& seq) {
        if (uplo == Uplo::General) getrs_async(Trans::NoTrans, A, ipiv, B, seq);
        else potrs_async(uplo, A, B, seq);
    }
};

// Submit X = B.
template <class T>
void copy_async(const TileMatrix<T>& B, TileMatrix<T>& X, Sequence& seq) {
    detail::SubmitScope scope(seq);
    for (int64_t j = 0; j < X.nt(); ++j)
        for (int64_t i = 0; i < X.mt(); ++i) tasks::lacpy<T>(Uplo::General, B.handle(i, j), X.handle(i, j));
}

// The high-precision fallback: X = B, then posv / gesv on A and X (A overwritten by the factors).
template <class T>
int64_t fallback(Uplo uplo, TileMatrix<T>& A, std::vector<int64_t>& ipiv, const TileMatrix<T>& B, TileMatrix<T>& X) {
    Sequence seq;
    copy_async(B, X, seq);
    seq.wait();
    return uplo == Uplo::General ? gesv(A, ipiv, X) : posv(uplo, A, X);
}

void check_mixed_args(const char* func, int64_t an, int64_t am, int64_t nb, int64_t bm, int64_t bn, int64_t bnb,
                      int64_t xm, int64_t xn, int64_t xnb) {
    detail::require_runtime(func);
    check_arg(am == an, func, "A", am, "rows must equal columns");
    check_arg(bm == an, func, "B", bm, "rows must equal the order of A");
    check_arg(xm == bm && xn == bn, func, "X", xm, "must have B's shape");
    check_arg(bnb == nb && xnb == nb, func, "nb", bnb == nb ? xnb : bnb, "must be the same for A, B and X");
    if (detail::distributed()) throw Error(std::string("tessera::") + func + ": one process only (not distributed yet)");
}

// The refinement of DSPOSV / DSGESV, with uplo General for LU.
template <class T>
int64_t refine(Uplo uplo, TileMatrix<T>& A, std::vector<int64_t>& ipiv, const TileMatrix<T>& B, TileMatrix<T>& X,
               int64_t& iter) {
    iter = 0;
    const int64_t n = A.n(), nrhs = B.n(), nb = A.nb();
    if (n == 0) return 0;
    LowFactor<T> low{uplo, TileMatrix<low_t<T>>(n, n, nb), {}};
    TileMatrix<low_t<T>> Xs(n, nrhs, nb);  // SWORK: B, then each residual, in the low precision
    TileMatrix<T> R(n, nrhs, nb);
    // Two sequences, submitted together: the conversions (whose info flags an overflow) and the
    // low-precision factorization, solve and first residual (whose info is the factorization's),
    // so that LAPACK's -2 is told from -3. ‖A‖∞ (norm tasks) runs meanwhile.
    Sequence convert, solve;
    convert_down_async(Uplo::General, B, Xs, convert);
    convert_down_async(uplo, A, low.A, convert);
    low.solve_async(Xs, solve);
    convert_up_async(false, Xs, X, solve);
    residual_async(uplo, A, B, X, R, solve);
    const double eps = std::numeric_limits<real_t<T>>::epsilon() / 2;  // DLAMCH('Epsilon')
    const double cte = norm_inf(uplo, A) * eps * std::sqrt(double(n)) * kBwdmax;
    const bool overflow = convert.wait() != 0;
    const int64_t info = solve.wait();
    if (overflow) return iter = -2, fallback(uplo, A, ipiv, B, X);
    if (info != 0) return iter = -3, fallback(uplo, A, ipiv, B, X);
    if (converged(R, X, cte)) {
        if (uplo == Uplo::General) ipiv = low.ipiv;
        return 0;
    }
    for (int64_t it = 1; it <= kItermax; ++it) {
        Sequence seq;
        convert_down_async(Uplo::General, R, Xs, seq);
        low.resolve_async(Xs, seq);
        convert_up_async(true, Xs, X, seq);
        residual_async(uplo, A, B, X, R, seq);
        if (seq.wait() != 0) return iter = -2, fallback(uplo, A, ipiv, B, X);
        if (converged(R, X, cte)) {
            if (uplo == Uplo::General) ipiv = low.ipiv;
            return iter = it, 0;
        }
    }
    iter = -kItermax - 1;
    return fallback(uplo, A, ipiv, B, X);
}

}  // namespace

template <class T>
int64_t posv_mixed(Uplo uplo, TileMatrix<T>& A, const TileMatrix<T>& B, TileMatrix<T>& X, int64_t& iter) {
    check_arg(uplo != Uplo::General, "posv_mixed", "uplo", 'G', "must be Lower or Upper");
    check_mixed_args("posv_mixed", A.n(), A.m(), A.nb(), B.m(), B.n(), B.nb(), X.m(), X.n(), X.nb());
    std::vector<int64_t> unused;
    return refine(uplo, A, unused, B, X, iter);
}

template <class T>
int64_t gesv_mixed(TileMatrix<T>& A, std::vector<int64_t>& ipiv, const TileMatrix<T>& B, TileMatrix<T>& X,
                   int64_t& iter) {
    check_mixed_args("gesv_mixed", A.n(), A.m(), A.nb(), B.m(), B.n(), B.nb(), X.m(), X.n(), X.nb());
    ipiv.assign(size_t(A.n()), 0);
    return refine(Uplo::General, A, ipiv, B, X, iter);
}

// The high precisions only: the low one is derived.
#define TESSERA_INSTANTIATE(T)                                                                                  \
    template int64_t posv_mixed(Uplo, TileMatrix<T>&, const TileMatrix<T>&, TileMatrix<T>&, int64_t&);          \
    template int64_t gesv_mixed(TileMatrix<T>&, std::vector<int64_t>&, const TileMatrix<T>&, TileMatrix<T>&,    \
                                int64_t&);
TESSERA_INSTANTIATE(double)
TESSERA_INSTANTIATE(std::complex<double>)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
