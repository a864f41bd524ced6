// tessera-tester operations: gelqf, unmlq, unglq (tile forms, timed without the layout conversions).
// Residuals: LAPACK's xLQT01 ratios ‖A − L·Q‖ / (n·‖A‖·eps) and ‖I − Q·Qᴴ‖ / (n·eps) (checks_lq.hpp);
// unmlq against the explicit n×n Q. Flops: LAPACK's counts (gelqf as geqrf with m and n swapped).
//   tessera-tester gelqf --prec d --m 1500 --n 4000 --nb 250 --ib 50 --check
//   tessera-tester unmlq --prec z --m 300 --n 500 --nrhs 64 --side R --trans C --check
#include <algorithm>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_lq.hpp"
#include "examples/common/checks_random.hpp"
#include "examples/tester/tester.hpp"
#include "tessera/tessera.hpp"

namespace tessera::tester {
namespace {

/// Flops of an LQ of an m×n matrix: LAPACK's xGEQRF count with m and n swapped (xGELQF's; xORGLQ's
/// for the thin Q is the same).
double lq_flops(double m, double n) {
    return n >= m ? 2 * n * m * m - 2 * m * m * m / 3 : 2 * m * n * n - 2 * n * n * n / 3;
}

/// The random m×n matrix of the run generated in its tiles, with its factors; `a` is a LAPACK copy
/// of the original (leading dimension max(1, m)) when `copy`, empty otherwise.
template <class T>
struct Factored {
    check::LapackArray<T> a;
    TileMatrix<T> A;
    LQFactors<T> F;
    Factored(const Params& p, bool copy) : A(p.m, p.n, p.nb) {
        check::generate_random(A, p.seed);
        if (copy) a = check::lapack_copy(A);
    }
};

/// Explicit Q (its first q rows, q×n) of the factorization, leading dimension max(1, q).
template <class T>
check::LapackArray<T> explicit_q(const TileMatrix<T>& A, const LQFactors<T>& F, int64_t q) {
    TileMatrix<T> Q(q, A.n(), A.nb());
    unglq(A, F, Q);
    return check::lapack_copy(Q);
}

/// The xLQT01 ratios of the factored f (A's factors in its tiles) with Q's first k rows q.
template <class T>
double lq_check(const Params& p, const Factored<T>& f, const check::LapackArray<T>& q) {
    const int64_t k = std::min(p.m, p.n), lda = std::max<int64_t>(p.m, 1), ldq = std::max<int64_t>(k, 1);
    const auto fa = check::lapack_copy(f.A);
    CallerBlasThreads blas;  // the check runs on every core, StarPU paused
    return std::max(check::lq_residual(p.m, p.n, f.a.data(), lda, q.data(), ldq, fa.data(), lda),
                    check::lq_orthogonality_residual(k, p.n, q.data(), ldq));
}

template <class T>
Result run_gelqf(const Params& p) {
    Factored<T> f(p, p.check);
    Runtime::wait_all();
    Result r;
    f.F = LQFactors<T>(f.A, p.options().ib);
    r.seconds = time_op(p, r.info, [&](Sequence& s) { gelqf_async(f.A, f.F, s); }, f.A);
    r.flops = lq_flops(double(p.m), double(p.n));
    if (p.check) {
        r.error = lq_check(p, f, explicit_q(f.A, f.F, std::min(p.m, p.n)));
        r.checked = true;
    }
    return r;
}

template <class T>
Result run_unglq(const Params& p) {
    Factored<T> f(p, p.check);
    f.F = gelqf(f.A, p.options());
    const int64_t k = std::min(p.m, p.n);
    TileMatrix<T> Q(k, p.n, p.nb);
    Runtime::wait_all();
    Result r{.k = 0};
    r.seconds = time_it([&] { unglq(f.A, f.F, Q); });
    r.flops = lq_flops(double(k), double(p.n));
    if (p.check) {
        r.error = lq_check(p, f, check::lapack_copy(Q));
        r.checked = true;
    }
    return r;
}

// C is n×nrhs (Left) or nrhs×n (Right); A is m×n, Q n×n.
template <class T>
Result run_unmlq(const Params& p) {
    Factored<T> f(p, false);
    f.F = gelqf(f.A, p.options());
    const bool left = p.side == Side::Left;
    const int64_t rows = left ? p.n : p.nrhs, cols = left ? p.nrhs : p.n, ldc = std::max<int64_t>(rows, 1);
    TileMatrix<T> C(rows, cols, p.nb);
    check::generate_random(C, p.seed + 1);
    check::LapackArray<T> c0;
    if (p.check) c0 = check::lapack_copy(C);
    Runtime::wait_all();
    Result r{.k = p.nrhs};
    r.seconds = time_it([&] { unmlq(p.side, p.trans, f.A, f.F, C); });
    const double k = double(std::min(p.m, p.n));
    r.flops = 2 * double(p.nrhs) * k * (2 * double(p.n) - k);
    if (p.check) {
        const auto c = check::lapack_copy(C);
        auto q = explicit_q(f.A, f.F, p.n);
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = check::unmqr_residual(p.side, p.trans, p.n, q.data(), std::max<int64_t>(p.n, 1), rows, cols,
                                        c0.data(), c.data(), ldc);
        r.checked = true;
    }
    return r;
}

// A (m×n) and its T factors (an ib×nb tile per tile of A).
std::vector<Operand> gelqf_operands(const Params& p) {
    return {{p.m, p.n, "--m", "--n"}, {p.m, p.n, "--m", "--n", p.ib, true}};
}
// The factors and the thin Q (min(m, n)×n).
std::vector<Operand> unglq_operands(const Params& p) {
    std::vector<Operand> ops = gelqf_operands(p);
    ops.push_back({std::min(p.m, p.n), p.n, p.m < p.n ? "--m" : "--n", "--n"});
    return ops;
}
// The factors, C (n×nrhs or nrhs×n) and, for the check, the explicit n×n Q.
std::vector<Operand> unmlq_operands(const Params& p) {
    std::vector<Operand> ops = gelqf_operands(p);
    const bool left = p.side == Side::Left;
    ops.push_back({left ? p.n : p.nrhs, left ? p.nrhs : p.n, left ? "--n" : "--nrhs", left ? "--nrhs" : "--n"});
    if (p.check) ops.push_back({p.n, p.n, "--n", "--n"});
    return ops;
}

const Register reg_gelqf{{"gelqf", "geqrf", TESSERA_RUNS(run_gelqf), kM | kIb | kResident, gelqf_operands}};
const Register reg_unglq{{"unglq", "geqrf", TESSERA_RUNS(run_unglq), kM | kIb, unglq_operands}};
const Register reg_unmlq{{"unmlq", "geqrf", TESSERA_RUNS(run_unmlq), kM | kIb | kNrhs | kSide | kTrans,
                          unmlq_operands}};

}  // namespace
}  // namespace tessera::tester
