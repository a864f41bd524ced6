// Helpers of the mixed-precision solvers (mixed.cpp: LAPACK's refinement; mixed_gmres.cpp: GMRES-IR):
// the precision conversions, the residual and products with A, LAPACK's convergence test, the
// low-precision factorization, the start of a refinement and the high-precision fallback. Internal header.
#pragma once

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <starpu.h>

#include "algorithms/common.hpp"
#include "algorithms/diagonal_inverse_solves.hpp"
#include "codelets/tasks.hpp"
#include "codelets/tasks_mixed.hpp"
#include "tessera/cholesky.hpp"
#include "tessera/lu.hpp"
#include "tessera/mixed.hpp"
#include "tessera/norms.hpp"

namespace tessera::mixed {

constexpr int64_t kItermax = 30;  // LAPACK's ITERMAX
constexpr double kBwdmax = 1.0;   // LAPACK's BWDMAX

template <class T>
using low_t = cpu::low_t<T>;

// |re| + |im|: the magnitude LAPACK's I?AMAX compares (|x| for real T).
template <class T>
double cabs1(T x) {
    return std::abs(double(std::real(x))) + std::abs(double(std::imag(x)));
}

// Whether the conversions report overflows through their tasks (Flagged: an info slot of the
// sequence each) or the caller tests them from a bound it has anyway (Unflagged: fits_low).
enum class Overflow { Flagged, Unflagged };

// Submit B = low(alpha·A) on every tile of A's uplo triangle (General: all), alpha a power of 2.
// Flagged: each kernel reports an overflow into an info slot of seq, and seq.wait() > 0 means an entry
// overflowed.
template <class T>
void convert_down_async(Uplo uplo, const TileMatrix<T>& A, TileMatrix<low_t<T>>& B, Sequence& seq, double alpha = 1,
                        Overflow report = Overflow::Flagged) {
    detail::SubmitScope scope(seq);
    for (int64_t j = 0; j < A.nt(); ++j)
        for (int64_t i = 0; i < A.mt(); ++i) {
            if ((uplo == Uplo::Lower && i < j) || (uplo == Uplo::Upper && i > j)) continue;
            tasks::lag2_down<T>(i == j ? uplo : Uplo::General, A.handle(i, j), B.handle(i, j),
                                report == Overflow::Flagged ? detail::info_slot(0) : nullptr, alpha);
        }
}

// Whether low(alpha·M) on M's uplo triangle (General: all) is free of overflow, as xLAG2S / xLAG2C
// test it (no real or imaginary part of an entry outside ±FLT_MAX). `bound` is a number known not to
// be below any entry's |real| or |imag| part (‖M‖∞, or the largest cabs1): when alpha·bound ≤ FLT_MAX
// the answer needs no pass over M; otherwise (or when bound is NaN) M's tiles are read in host memory.
template <class T>
bool fits_low(Uplo uplo, const TileMatrix<T>& M, double alpha, double bound) {
    if (alpha * bound <= double(std::numeric_limits<float>::max())) return true;
    for (int64_t j = 0; j < M.nt(); ++j)
        for (int64_t i = 0; i < M.mt(); ++i) {
            if ((uplo == Uplo::Lower && i < j) || (uplo == Uplo::Upper && i > j)) continue;
            starpu_data_acquire(M.handle(i, j), STARPU_R);
            const bool out = cpu::lag2_overflows<T>(i == j ? uplo : Uplo::General, M.tile_rows(i), M.tile_cols(j),
                                                    alpha, M.tile_data(i, j), M.tile_ld(i));
            starpu_data_release(M.handle(i, j));
            if (out) return false;
        }
    return true;
}

// Submit X = high(Xs) (accumulate false) or X += high(Xs).
template <class T>
void convert_up_async(bool accumulate, const TileMatrix<low_t<T>>& Xs, TileMatrix<T>& X, Sequence& seq) {
    detail::SubmitScope scope(seq);
    for (int64_t j = 0; j < X.nt(); ++j)
        for (int64_t i = 0; i < X.mt(); ++i) tasks::lag2_up<T>(accumulate, Xs.handle(i, j), X.handle(i, j));
}

// Submit C = alpha·A·X + beta·C. uplo General: A general (gemm); Lower / Upper: A symmetric or
// Hermitian from that triangle: the diagonal tiles multiplied by symm tasks (xSYMM / xHEMM, as DSPOSV /
// ZCPOSV; CPU and OpenCL, the public symm's codelet), which apply beta, then each stored off-diagonal
// tile A(i, k) by one gemm_pair task for both block rows, C(i) += A(i, k)·X(k) and C(k) += A(i, k)ᴴ·X(i)
// (on a device, one read of the tile for one right-hand side).
template <class T>
void multiply_async(Uplo uplo, T alpha, const TileMatrix<T>& A, const TileMatrix<T>& X, T beta, TileMatrix<T>& C,
                    Sequence& seq) {
    detail::SubmitScope scope(seq);
    for (int64_t j = 0; j < C.nt(); ++j) {
        if (uplo == Uplo::General) {
            for (int64_t i = 0; i < C.mt(); ++i)
                for (int64_t k = 0; k < A.nt(); ++k)
                    tasks::gemm<T>(Trans::NoTrans, Trans::NoTrans, alpha, A.handle(i, k), X.handle(k, j),
                                   k == 0 ? beta : T(1), C.handle(i, j));
            continue;
        }
        for (int64_t i = 0; i < C.mt(); ++i)
            tasks::symm<T>(is_complex_v<T>, Side::Left, uplo, alpha, A.handle(i, i), X.handle(i, j), beta,
                           C.handle(i, j));
        for (int64_t i = 0; i < C.mt(); ++i)
            for (int64_t k = 0; k < i; ++k) {  // the stored tile of block rows i and k: A(i, k) or A(k, i)
                const int64_t r = uplo == Uplo::Lower ? i : k, c = uplo == Uplo::Lower ? k : i;
                tasks::gemm_pair<T>(Trans::ConjTrans, alpha, A.handle(r, c), X.handle(c, j), X.handle(r, j),
                                    C.handle(r, j), C.handle(c, j));
            }
    }
}

// Submit X = B.
template <class T>
void copy_async(const TileMatrix<T>& B, TileMatrix<T>& X, Sequence& seq) {
    detail::SubmitScope scope(seq);
    for (int64_t j = 0; j < X.nt(); ++j)
        for (int64_t i = 0; i < X.mt(); ++i) tasks::lacpy<T>(Uplo::General, B.handle(i, j), X.handle(i, j));
}

// Submit R = B − A·X (A as in multiply_async).
template <class T>
void residual_async(Uplo uplo, const TileMatrix<T>& A, const TileMatrix<T>& B, const TileMatrix<T>& X,
                    TileMatrix<T>& R, Sequence& seq) {
    copy_async(B, R, seq);
    multiply_async(uplo, T(-1), A, X, T(1), R, seq);
}

// Per column j of M (waited for and read in host memory): max_i cabs1(M(i, j)), NaN when an entry is
// NaN (so that a NaN residual or solution never passes the convergence test).
template <class T>
std::vector<double> column_amax(const TileMatrix<T>& M) {
    M.acquire_host();
    std::vector<double> amax(size_t(M.n()), 0.0);
    for (int64_t j = 0; j < M.nt(); ++j)
        for (int64_t i = 0; i < M.mt(); ++i) {
            const T* t = M.tile_data(i, j);
            for (int64_t c = 0; c < M.tile_cols(j); ++c) {
                double& m = amax[size_t(j * M.nb() + c)];
                for (int64_t r = 0; r < M.tile_rows(i); ++r) {
                    const double v = cabs1(t[r + c * M.tile_ld(i)]);
                    if (!(v <= m) && !std::isnan(m)) m = v;  // a NaN entry makes the column's maximum NaN
                }
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

// Whether every column satisfies LAPACK's test ‖r_j‖∞ ≤ ‖x_j‖∞ · cte (waits for R and X); *rmax (when
// given) becomes the largest cabs1 of R's entries (NaN when one is NaN), fits_low's bound for R, and
// *excess the test's largest ratio ‖r_j‖∞ / (‖x_j‖∞ · cte) (≤ 1 when it passes; +∞ for a zero bound, NaN
// for a NaN).
template <class T>
bool converged(const TileMatrix<T>& R, const TileMatrix<T>& X, double cte, double* rmax = nullptr,
               double* excess = nullptr) {
    const std::vector<double> r = column_amax(R), x = column_amax(X);
    bool pass = true;
    double largest = 0, worst = 0;
    for (size_t j = 0; j < r.size(); ++j) {
        if (!(r[j] <= x[j] * cte)) pass = false;
        if (!(r[j] <= largest) && !std::isnan(largest)) largest = r[j];
        const double e = r[j] == 0 ? 0.0 : r[j] / (x[j] * cte);
        if (!(e <= worst) && !std::isnan(worst)) worst = e;
    }
    if (rmax) *rmax = largest;
    if (excess) *excess = worst;
    return pass;
}

// Whether correction `it` (1-based), which took the test's ratio (converged's excess) from `before`
// to `after`, converged too slowly to pass it within kItermax corrections at the same rate (a rate
// of 1 or more, or a NaN, included): it + log(after) / −log(after / before) > kItermax.
inline bool too_slow(double before, double after, int64_t it) {
    const double rate = after / before;
    if (!(rate < 1) || !(after > 0)) return !(after <= 1);  // no progress (or NaN): too slow unless passed
    return double(it) + std::log(after) / -std::log(rate) > double(kItermax);
}

// FP16 products (LowFactorization::Fp16) factor sigma·A instead of A: sigma, a power of 2, brings A's
// largest diagonal entry into [2^14, 2^15), so that every entry of A (|a_ij| ≤ √(a_ii·a_jj)), which
// the tile potrf's and the panels' products take as operands, stays below FP16's 65504, every entry
// of its Cholesky factor below 2^7.5 (|l_ij| ≤ √a_ii), and the Schur complements' small entries as
// far above FP16's subnormals (2^-14) as that allows (scaled to a diagonal of 1, a matrix of κ = 1e5
// lost the classic refinement to them: bench/gpu_notes.md, "FP16 operands").
// Read from the diagonal tiles in host memory (acquired; a copy on a device comes back); 1 when the
// largest diagonal entry is not a positive finite number (the factorization or the conversion then
// fails as it would unscaled); nullopt when a diagonal tile has no host storage (a workspace).
template <class T>
std::optional<double> diagonal_scale(const TileMatrix<T>& A) {
    double amax = 0;
    for (int64_t k = 0; k < std::min(A.mt(), A.nt()); ++k) {
        if (!A.is_local(k, k)) return std::nullopt;
        starpu_data_acquire(A.handle(k, k), STARPU_R);
        const T* t = A.tile_data(k, k);
        for (int64_t d = 0; d < std::min(A.tile_rows(k), A.tile_cols(k)); ++d) {
            const double v = std::real(t[d + d * A.tile_ld(k)]);
            if (!(v <= amax) && !std::isnan(amax)) amax = v;  // a NaN is kept
        }
        starpu_data_release(A.handle(k, k));
    }
    if (!(amax > 0) || !std::isfinite(amax)) return 1.0;
    int e = 0;
    std::frexp(amax, &e);  // amax = f·2^e, 1/2 ≤ f < 1
    return std::ldexp(1.0, 15 - e);
}

// The low-precision factorization of a mixed solver: Cholesky (uplo Lower / Upper) or LU (General).
// Cholesky with OpenCL devices solves by the inverses of the factor's diagonal tiles
// (diagonal_inverse_solves.hpp), which its panels make anyway, instead of device trsm in every solve.
template <class T>
struct LowFactor {
    Uplo uplo;
    TileMatrix<low_t<T>> A;
    std::vector<int64_t> ipiv;
    LowFactorization how = LowFactorization::Low;
    detail::DiagonalInverseSolves<low_t<T>> by_inverses;
    // A holds sigma·(the high-precision A), and each right-hand side is scaled alike when it is
    // rounded down (to_low_async): (sigma·A)⁻¹·(sigma·b) = A⁻¹·b (diagonal_scale; Fp16 only, else 1).
    double sigma = 1;
    ocl::TensorFormat format = ocl::TensorFormat::None;  // the factorization's products

    // Choose the products' format and sigma from `how` and the high-precision A (its diagonal).
    void choose(const TileMatrix<T>& high) {
        if (!std::is_same_v<T, double> || how == LowFactorization::Low) return;
        format = ocl::TensorFormat::Tf32;
        if (how != LowFactorization::Fp16) return;
        const std::optional<double> s = diagonal_scale(high);  // none: TF32, whose range needs no scale
        if (s) format = ocl::TensorFormat::Fp16, sigma = *s;
    }
    // Submit A = low(sigma·high) (high's uplo triangle; General: all) in seq, with no overflow test
    // (the caller's: fits_low with ‖high‖∞).
    void convert_async(const TileMatrix<T>& high, Sequence& seq) {
        convert_down_async(uplo, high, A, seq, sigma, Overflow::Unflagged);
    }
    // Submit Xs = low(sigma·X), a right-hand side of the low solves, in seq (Flagged: info reports an
    // overflow).
    void to_low_async(const TileMatrix<T>& X, TileMatrix<low_t<T>>& Xs, Sequence& seq,
                      Overflow report = Overflow::Flagged) const {
        convert_down_async(Uplo::General, X, Xs, seq, sigma, report);
    }
    // Factor A and solve B in place, in seq (its wait returns the factorization's info); the
    // factorization's tasks ask for the products' format (tasks::TensorScope).
    void solve_async(TileMatrix<low_t<T>>& B, Sequence& seq) {
        {
            std::optional<tasks::TensorScope> scope;
            if (format != ocl::TensorFormat::None) scope.emplace(format);
            if (uplo == Uplo::General) return gesv_async(A, ipiv, B, seq);
            if (detail::opencl_devices() == 0) return posv_async(uplo, A, B, seq);
            by_inverses.potrf_async(uplo, A, seq);
        }
        by_inverses.solve_async(A, B, seq);
    }
    void resolve_async(TileMatrix<low_t<T>>& B, Sequence& seq) {
        if (by_inverses.factored()) by_inverses.solve_async(A, B, seq);
        else if (uplo == Uplo::General) getrs_async(Trans::NoTrans, A, ipiv, B, seq);
        else potrs_async(uplo, A, B, seq);
    }
};

// The high-precision fallback: X = B, then posv / gesv on A and X (A overwritten by the factors).
template <class T>
int64_t fallback(Uplo uplo, TileMatrix<T>& A, std::vector<int64_t>& ipiv, const TileMatrix<T>& B, TileMatrix<T>& X) {
    Sequence seq;
    copy_async(B, X, seq);
    seq.wait();
    return uplo == Uplo::General ? gesv(A, ipiv, X) : posv(uplo, A, X);
}

// `how` must be one of LowFactorization's values, Fp16 for the Cholesky solvers only (`cholesky`:
// Cholesky's factor is bounded by A's diagonal, LU's is not).
inline void check_factorization(const char* func, LowFactorization how, bool cholesky) {
    check_arg(how == LowFactorization::Low || how == LowFactorization::Tf32 || how == LowFactorization::Fp16, func,
              "factorization", int64_t(how), "must be LowFactorization::Low, Tf32 or Fp16");
    check_arg(how != LowFactorization::Fp16 || cholesky, func, "factorization", int64_t(how),
              "must be Low or Tf32 for LU (Fp16: posv_mixed and posv_mixed_gmres only)");
}

inline void check_mixed_args(const char* func, int64_t an, int64_t am, int64_t nb, int64_t bm, int64_t bn, int64_t bnb,
                      int64_t xm, int64_t xn, int64_t xnb) {
    detail::require_runtime(func);
    check_arg(am == an, func, "A", am, "rows must equal columns");
    check_arg(bm == an, func, "B", bm, "rows must equal the order of A");
    check_arg(xm == bm && xn == bn, func, "X", xm, "must have B's shape");
    check_arg(bnb == nb && xnb == nb, func, "nb", bnb == nb ? xnb : bnb, "must be the same for A, B and X");
    if (detail::distributed()) throw Error(std::string("tessera::") + func + ": one process only (not distributed yet)");
}

// The start of DSPOSV / DSGESV, shared by both refinements: low(A) factored, X = X₀ solved from it in
// the low precision (Xs: B, then each residual, in the low precision) and R = B − A·X₀. Returns 0, or
// iter's −2 (an entry of A or B overflows the low precision) or −3 (the low factorization failed);
// cte is the convergence test's ‖A‖∞ · eps · sqrt(n) · BWDMAX.
template <class T>
int64_t start(LowFactor<T>& low, const TileMatrix<T>& A, const TileMatrix<T>& B, TileMatrix<T>& X,
              TileMatrix<low_t<T>>& Xs, TileMatrix<T>& R, double& cte) {
    // Separate sequences: the conversions (whose info flags an overflow) and the low-precision
    // factorization, solve and first residual (whose info is the factorization's), so that
    // LAPACK's -2 is told from -3. ‖A‖∞ (norm tasks) runs meanwhile.
    Sequence convert_b, convert, solve;
    low.choose(A);
    low.to_low_async(B, Xs, convert_b);
    // Xs reaches the devices before A's tiles: a copy a task waits for queues behind the
    // prefetches of ready tasks' inputs (tasks::DevicePrefetch), here the conversions' 128 MiB
    // tiles (n = 32768, nb = 4096), and the first solve then waited ~20 ms at each of its first
    // steps for a tile of Xs (H200 trace of bench/gpu_factorizations.sh case posv_mixed+tf32).
    const bool overflow_b = convert_b.wait() != 0;
    {
        detail::SubmitScope scope(solve);
        tasks::DevicePrefetch prefetch(tasks::DevicePrefetch::Mode::Ahead);
        for (int64_t j = 0; j < Xs.nt(); ++j)
            for (int64_t i = 0; i < Xs.mt(); ++i) prefetch(Xs.handle(i, j));
    }
    low.convert_async(A, convert);
    low.solve_async(Xs, solve);
    convert_up_async(false, Xs, X, solve);
    residual_async(low.uplo, A, B, X, R, solve);
    const double eps = std::numeric_limits<real_t<T>>::epsilon() / 2;  // DLAMCH('Epsilon')
    const double anorm = norm_inf(low.uplo, A);
    cte = anorm * eps * std::sqrt(double(A.n())) * kBwdmax;
    // A's conversion tests no entry: ‖A‖∞ bounds them all (a flag per tile cost a clear and a read-back,
    // about 0.05 ms of each 4096 tile's 0.12 on an H200, bench/gpu_notes.md).
    const bool overflow = !fits_low(low.uplo, A, low.sigma, anorm) || overflow_b;
    convert.wait();
    const int64_t info = solve.wait();
    return overflow ? -2 : info != 0 ? -3 : 0;
}

}  // namespace tessera::mixed
