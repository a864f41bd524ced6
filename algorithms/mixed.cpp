// Mixed-precision iterative refinement (LAPACK DSPOSV / DSGESV / ZCPOSV / ZCGESV; Langou et al.
// 2006): factor in the low precision, refine in the high one, fall back to the high precision's
// posv / gesv when that does not reach the high precision's backward error. The LAPACK-layout
// forms are in mixed_lapack.cpp.
#include "tessera/mixed.hpp"

#include "algorithms/mixed_common.hpp"

namespace tessera {

namespace {

using namespace mixed;

// The refinement of DSPOSV / DSGESV, with uplo General for LU.
template <class T>
int64_t refine(Uplo uplo, TileMatrix<T>& A, std::vector<int64_t>& ipiv, const TileMatrix<T>& B, TileMatrix<T>& X,
               int64_t& iter, LowFactorization how) {
    iter = 0;
    const int64_t n = A.n(), nrhs = B.n(), nb = A.nb();
    if (n == 0) return 0;
    LowFactor<T> low{uplo, TileMatrix<low_t<T>>::workspace(n, n, nb), {}, how, {}};  // no host storage: written where converted
    TileMatrix<low_t<T>> Xs(n, nrhs, nb);  // SWORK: B, then each residual, in the low precision
    TileMatrix<T> R(n, nrhs, nb);
    double cte = 0, rmax = 0, excess = 0;
    iter = start(low, A, B, X, Xs, R, cte);
    if (iter < 0) return fallback(uplo, A, ipiv, B, X);
    if (converged(R, X, cte, &rmax, &excess)) {
        if (uplo == Uplo::General) ipiv = low.ipiv;
        return 0;
    }
    // Tensor-core factors (Tf32, Fp16; not LAPACK's Low, which iterates kItermax times as DSGESV):
    // two corrections in a row too slow to pass the test within kItermax end the refinement early,
    // with the same iter and fallback as kItermax corrections would have.
    const bool stop_early = how != LowFactorization::Low;
    int slow = 0;  // corrections in a row too_slow
    for (int64_t it = 1; it <= kItermax; ++it) {
        // R's conversion tests no entry: the convergence test's largest |r| bounds them.
        if (!fits_low(Uplo::General, R, low.sigma, rmax)) return iter = -2, fallback(uplo, A, ipiv, B, X);
        Sequence seq;
        low.to_low_async(R, Xs, seq, Overflow::Unflagged);
        low.resolve_async(Xs, seq);
        convert_up_async(true, Xs, X, seq);
        residual_async(uplo, A, B, X, R, seq);
        seq.wait();
        const double before = excess;
        if (converged(R, X, cte, &rmax, &excess)) {
            if (uplo == Uplo::General) ipiv = low.ipiv;
            return iter = it, 0;
        }
        if (stop_early && (slow = too_slow(before, excess, it) ? slow + 1 : 0) == 2) break;
    }
    iter = -kItermax - 1;
    return fallback(uplo, A, ipiv, B, X);
}

}  // namespace

template <class T>
int64_t posv_mixed(Uplo uplo, TileMatrix<T>& A, const TileMatrix<T>& B, TileMatrix<T>& X, int64_t& iter,
                   LowFactorization how) {
    check_factorization("posv_mixed", how, true);
    check_arg(uplo != Uplo::General, "posv_mixed", "uplo", 'G', "must be Lower or Upper");
    check_mixed_args("posv_mixed", A.n(), A.m(), A.nb(), B.m(), B.n(), B.nb(), X.m(), X.n(), X.nb());
    std::vector<int64_t> unused;
    return refine(uplo, A, unused, B, X, iter, how);
}

template <class T>
int64_t gesv_mixed(TileMatrix<T>& A, std::vector<int64_t>& ipiv, const TileMatrix<T>& B, TileMatrix<T>& X,
                   int64_t& iter, LowFactorization how) {
    check_factorization("gesv_mixed", how, false);
    check_mixed_args("gesv_mixed", A.n(), A.m(), A.nb(), B.m(), B.n(), B.nb(), X.m(), X.n(), X.nb());
    ipiv.assign(size_t(A.n()), 0);
    return refine(Uplo::General, A, ipiv, B, X, iter, how);
}

// The high precisions only: the low one is derived.
#define TESSERA_INSTANTIATE(T)                                                                                  \
    template int64_t posv_mixed(Uplo, TileMatrix<T>&, const TileMatrix<T>&, TileMatrix<T>&, int64_t&,           \
                                LowFactorization);                                                              \
    template int64_t gesv_mixed(TileMatrix<T>&, std::vector<int64_t>&, const TileMatrix<T>&, TileMatrix<T>&,    \
                                int64_t&, LowFactorization);
TESSERA_INSTANTIATE(double)
TESSERA_INSTANTIATE(std::complex<double>)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
