// tessera-tester operations of the LU family: getrf (m×n), getrf_nopiv, getrf_incpiv, getrs, gesv,
// gesv_nopiv, gesv_incpiv (tile forms, timed without the layout conversions; time_op says what the clock covers).
#include <algorithm>
#include <optional>
#include <vector>

#include "examples/common/checks_lu.hpp"
#include "examples/common/checks_mixed.hpp"
#include "examples/common/checks_random.hpp"
#include "examples/tester/tester.hpp"
#include "tessera/tessera.hpp"

namespace tessera::tester {
namespace {

// Flops of an m×n LU (LAPACK's count): 2·(m·n·k − (m+n)·k²/2 + k³/3), k = min(m, n).
double getrf_flops(int64_t m, int64_t n) {
    const double k = double(std::min(m, n)), dm = double(m), dn = double(n);
    return 2.0 * (dm * dn * k - (dm + dn) * k * k / 2.0 + k * k * k / 3.0);
}

enum class Variant { Partial, NoPiv };

// getrf or getrf_nopiv on an m×n matrix, checked with ‖P·A − L·U‖ / (n·‖A‖·eps), or its randomized
// form (checks_random.hpp) for a square matrix with --check-random.
template <class T, Variant V>
Result run_getrf(const Params& p) {
    const int64_t lda = std::max<int64_t>(p.m, 1);
    TileMatrix<T> A(p.m, p.n, p.nb);
    if (V == Variant::NoPiv) check::generate_random_shifted(A, p.seed, double(std::max(p.m, p.n)));
    else check::generate_random(A, p.seed);
    Runtime::wait_all();
    // The check's inputs, before A is overwritten: A·X and ‖A‖ (O(n²)), or a LAPACK copy of A.
    std::optional<check::GetrfCheckRandom<T>> random;
    check::LapackArray<T> a;
    if (p.check && p.check_random && p.m == p.n) {
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        random.emplace(A);
    } else if (p.check) {
        a = check::lapack_copy(A);
    }
    std::vector<int64_t> ipiv;
    Result r{.k = 0};
    r.seconds = time_op(
        p, r.info,
        [&](Sequence& s) { V == Variant::NoPiv ? getrf_nopiv_async(A, s) : getrf_async(A, ipiv, s); }, A);
    r.flops = getrf_flops(p.m, p.n);
    if (p.check && random) {
        A.acquire_host();
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = random->residual(A, V == Variant::NoPiv ? std::vector<int64_t>{} : ipiv);
        r.checked = true;
    } else if (p.check) {
        const auto f = check::lapack_copy(A);
        const int64_t* piv = V == Variant::NoPiv ? nullptr : ipiv.data();
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = check::getrf_residual(p.m, p.n, a.data(), lda, f.data(), lda, piv);
        r.checked = true;
    }
    return r;
}

enum class Solve { Getrs, Gesv, GesvNoPiv, GetrfIncpiv, GesvIncpiv };

// Square solves, checked with ‖B − op(A)·X‖ / ((‖A‖·‖X‖ + ‖B‖)·n·eps). getrs times the solve
// only (factorization untimed, --trans honoured); getrf_incpiv times the factorization and checks
// it through getrs_incpiv.
template <class T, Solve S>
Result run_solve(const Params& p) {
    const int64_t n = p.n, lda = std::max<int64_t>(n, 1);
    TileMatrix<T> A(n, n, p.nb), B(n, p.nrhs, p.nb);
    if (S == Solve::GesvNoPiv) check::generate_random_shifted(A, p.seed, double(n));
    else check::generate_cond_or_default(A, p.cond, false, p.seed);  // random, or gesv_mixed's with --cond (gesv)
    check::generate_random(B, p.seed + 1);
    check::LapackArray<T> a, b;
    if (p.check) a = check::lapack_copy(A), b = check::lapack_copy(B);
    std::vector<int64_t> ipiv;
    IncpivFactors<T> F;
    Result r{.m = n, .k = p.nrhs};
    if (S == Solve::Getrs) r.info = getrf(A, ipiv);
    Runtime::wait_all();
    const Trans trans = S == Solve::Getrs ? p.trans : Trans::NoTrans;
    r.seconds = time_it([&] {
        switch (S) {
            case Solve::Getrs: getrs(trans, A, ipiv, B); break;
            case Solve::Gesv: r.info = gesv(A, ipiv, B); break;
            case Solve::GesvNoPiv: r.info = gesv_nopiv(A, B); break;
            case Solve::GetrfIncpiv: r.info = getrf_incpiv(A, F, p.options()); break;
            case Solve::GesvIncpiv: r.info = gesv_incpiv(A, F, B, p.options()); break;
        }
    });
    if (S == Solve::GetrfIncpiv && p.check && r.info == 0) getrs_incpiv(A, F, B);  // for the check's residual
    const double dn = double(n), solve = 2.0 * dn * dn * double(p.nrhs);
    r.flops = S == Solve::Getrs ? solve : S == Solve::GetrfIncpiv ? getrf_flops(n, n) : getrf_flops(n, n) + solve;
    if (p.check && r.info == 0) {
        const auto x = check::lapack_copy(B);
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = check::solve_residual(trans, n, n, p.nrhs, a.data(), lda, x.data(), lda, b.data(), lda);
        r.checked = true;
    }
    return r;
}

std::vector<Operand> getrf_operands(const Params& p) { return {{p.m, p.n, "--m", "--n"}}; }
std::vector<Operand> solve_operands(const Params& p) {
    return {{p.n, p.n, "--n", "--n"}, {p.n, p.nrhs, "--n", "--nrhs"}};
}
// Incremental pivoting adds an ib×nb L tile below the diagonal of each column of tiles (StarPU
// allocates them where they are produced); counted as an n×n matrix of ib-row tiles, which also
// covers the copies of the diagonal tiles.
std::vector<Operand> incpiv_operands(const Params& p) {
    std::vector<Operand> ops = solve_operands(p);
    ops.push_back({p.n, p.n, "--n", "--n", p.ib, true});
    return ops;
}

// LU with partial pivoting and its solves are distributed (docs/distributed.md).
const Register reg_getrf{{"getrf", "getrf", TESSERA_RUNS(run_getrf, Variant::Partial),
                          kM | kResident, getrf_operands}};
const Register reg_getrf_nopiv{{"getrf_nopiv", "getrf", TESSERA_RUNS(run_getrf, Variant::NoPiv),
                                kM | kResident, getrf_operands}};
// getrf_incpiv's --nrhs: the right-hand sides of the check's solve.
const Register reg_getrf_incpiv{{"getrf_incpiv", "getrf", TESSERA_RUNS(run_solve, Solve::GetrfIncpiv), kNrhs | kIb,
                                 incpiv_operands}};
const Register reg_getrs{{"getrs", "getrf", TESSERA_RUNS(run_solve, Solve::Getrs), kNrhs | kTrans, solve_operands}};
const Register reg_gesv{{"gesv", "getrf", TESSERA_RUNS(run_solve, Solve::Gesv), kNrhs | kCond, solve_operands}};
const Register reg_gesv_nopiv{{"gesv_nopiv", "getrf", TESSERA_RUNS(run_solve, Solve::GesvNoPiv),
                               kNrhs, solve_operands}};
const Register reg_gesv_incpiv{{"gesv_incpiv", "getrf", TESSERA_RUNS(run_solve, Solve::GesvIncpiv), kNrhs | kIb,
                                incpiv_operands}};

}  // namespace
}  // namespace tessera::tester
