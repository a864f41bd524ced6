// tessera-tester operations: potrf, potrs, posv (tile forms, timed without the layout conversions; time_op says what the clock covers).
#include <optional>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_random.hpp"
#include "examples/tester/tester.hpp"
#include "tessera/tessera.hpp"

namespace tessera::tester {
namespace {

template <class T>
Result run_potrf(const Params& p) {
    const int64_t lda = std::max<int64_t>(p.n, 1);
    TileMatrix<T> A(p.n, p.n, p.nb);
    check::generate_random_spd(A, p.seed);
    Runtime::wait_all();
    // The check's inputs, before A is overwritten: A·X and ‖A‖ (O(n²)), or a LAPACK copy of A.
    std::optional<check::PotrfCheckRandom<T>> random;
    check::LapackArray<T> a;
    if (p.check && p.check_random) {
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        random.emplace(p.uplo, A);
    } else if (p.check) {
        a = check::lapack_copy(A);
    }
    Result r{.m = p.n, .k = 0};
    r.seconds = time_op(p, r.info, [&](Sequence& s) { potrf_async(p.uplo, A, s); }, A);
    r.flops = double(p.n) * double(p.n) * double(p.n) / 3.0;
    if (p.check && random) {
        A.acquire_host();
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = random->residual(A);
        r.checked = true;
    } else if (p.check) {
        const auto f = check::lapack_copy(A);
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = check::potrf_residual<T>(p.uplo, p.n, a.data(), lda, f.data(), lda);
        r.checked = true;
    }
    return r;
}

// Solve with an SPD matrix: `factor_timed` says whether potrf is part of the timed operation (posv).
template <class T>
Result run_solve(const Params& p, bool factor_timed) {
    const int64_t lda = std::max<int64_t>(p.n, 1);
    TileMatrix<T> A(p.n, p.n, p.nb), B(p.n, p.nrhs, p.nb);
    check::generate_random_spd(A, p.seed);
    check::generate_random(B, p.seed + 1);
    check::LapackArray<T> a, b;
    if (p.check) a = check::lapack_copy(A), b = check::lapack_copy(B);
    Result r{.m = p.n, .k = p.nrhs};
    if (!factor_timed) r.info = potrf(p.uplo, A);
    Runtime::wait_all();
    r.seconds = time_it([&] {
        if (factor_timed) r.info = posv(p.uplo, A, B);
        else potrs(p.uplo, A, B);
    });
    const double n = double(p.n);
    r.flops = 2.0 * n * n * double(p.nrhs) + (factor_timed ? n * n * n / 3.0 : 0.0);
    if (p.check) {
        const auto x = check::lapack_copy(B);
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = check::solve_residual(Trans::NoTrans, p.n, p.n, p.nrhs, a.data(), lda, x.data(), lda, b.data(), lda);
        r.checked = true;
    }
    return r;
}

template <class T>
Result run_potrs(const Params& p) { return run_solve<T>(p, false); }
template <class T>
Result run_posv(const Params& p) { return run_solve<T>(p, true); }

std::vector<Operand> potrf_operands(const Params& p) { return {{p.n, p.n, "--n", "--n"}}; }
std::vector<Operand> solve_operands(const Params& p) {
    return {{p.n, p.n, "--n", "--n"}, {p.n, p.nrhs, "--n", "--nrhs"}};
}

const Register reg_potrf{{"potrf", "potrf", TESSERA_RUNS(run_potrf), kUplo | kResident, potrf_operands}};
const Register reg_potrs{{"potrs", "potrf", TESSERA_RUNS(run_potrs), kUplo | kNrhs, solve_operands}};
const Register reg_posv{{"posv", "potrf", TESSERA_RUNS(run_posv), kUplo | kNrhs, solve_operands}};

}  // namespace
}  // namespace tessera::tester
