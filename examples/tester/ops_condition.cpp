// tessera-tester operations: gecon, pocon, trcon (condition number estimates, tessera/condition.hpp).
// The matrix: --cond κ generates one of 2-norm condition number κ (check::random_cond, on the host),
// else the default random (gecon), SPD (pocon) or diagonally dominant triangular (trcon) matrix;
// trcon with --cond takes the triangle of the getrf factors of that matrix (--uplo U: U, L: L, whose
// --diag U is the unit one). Untimed: ‖A‖ (lange / lanhe before factoring, --norm O or I; pocon the
// 1-norm) and the factorization (getrf, potrf --uplo); the clock covers the estimate from factor
// tiles in host memory (its solves as tasks, each waited). No flop rate: the number of estimator
// steps varies (≤ 11 products, usually 4 or 5, each 2n² flops). --check compares rcond with
// LAPACKE's xGECON / xPOCON / xTRCON on the same factors and, for n ≤ 512, with the exact rcond from
// the inverse (xGETRI / xPOTRI / xTRTRI): check::rcond_error, 60 = a factor 10.
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_condition.hpp"
#include "examples/common/checks_lu.hpp"
#include "examples/common/checks_mixed.hpp"
#include "examples/tester/tester.hpp"
#include "tessera/tessera.hpp"

namespace tessera::tester {
namespace {

enum class Kind { Ge, Po, Tr };

constexpr int64_t kExactMax = 512;  // the largest n checked against the O(n³) exact rcond

template <class T, Kind K>
Result run_con(const Params& p) {
    using R = real_t<T>;
    const int64_t n = p.n, lda = std::max<int64_t>(n, 1);
    TileMatrix<T> A(n, n, p.nb);
    std::vector<int64_t> ipiv;
    R anorm = 0;
    Result r{.m = n, .k = 0};
    if (K == Kind::Tr && p.cond <= 0) {
        check::generate_random_shifted(A, p.seed, double(n));
        Runtime::wait_all();
    } else {
        check::generate_cond_or_default(A, p.cond, K == Kind::Po, p.seed);
        if constexpr (K == Kind::Po) {
            anorm = lanhe(Norm::One, p.uplo, A);
            r.info = potrf(p.uplo, A);
        } else {
            anorm = lange(p.norm, A);
            r.info = getrf(A, ipiv);
        }
    }
    check::LapackArray<T> f;
    if (p.check) f = check::lapack_copy(A);
    A.keep_only_on_host();
    R rcond = 0;
    last_phases().staging = std::chrono::steady_clock::now();
    r.seconds = time_it([&] {
        if constexpr (K == Kind::Ge) rcond = gecon(p.norm, A, anorm);
        else if constexpr (K == Kind::Po) rcond = pocon(p.uplo, A, anorm);
        else rcond = trcon(p.norm, p.uplo, p.diag, A);
    });
    r.flops = 0;
    if (p.check) {
        const char norm = char(p.norm), uplo = char(p.uplo), diag = char(p.diag);
        const bool exact = n <= kExactMax;
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        R ref = 0, ex = -1;
        if constexpr (K == Kind::Ge) {
            ref = check::ref_gecon<T>(norm, n, f.data(), lda, anorm);
            if (exact) ex = check::exact_gecon<T>(norm, n, f.data(), lda, ipiv.data(), anorm);
        } else if constexpr (K == Kind::Po) {
            ref = check::ref_pocon<T>(uplo, n, f.data(), lda, anorm);
            if (exact) ex = check::exact_pocon<T>(uplo, n, f.data(), lda, anorm);
        } else {
            ref = check::ref_trcon<T>(norm, uplo, diag, n, f.data(), lda);
            if (exact) ex = check::exact_trcon<T>(norm, uplo, diag, n, f.data(), lda);
        }
        r.error = check::rcond_error<T>(n, rcond, ref, ex);
        r.checked = true;
    }
    return r;
}

std::vector<Operand> con_operands(const Params& p) { return {{p.n, p.n, "--n", "--n"}}; }

// One process only (the estimates throw on a distributed Runtime): distributed = false.
const Register reg_gecon{{"gecon", "getrf", TESSERA_RUNS(run_con, Kind::Ge), kNorm | kCond, con_operands, false}};
const Register reg_pocon{{"pocon", "potrf", TESSERA_RUNS(run_con, Kind::Po), kUplo | kCond, con_operands, false}};
const Register reg_trcon{{"trcon", "gemm", TESSERA_RUNS(run_con, Kind::Tr), kNorm | kUplo | kDiag | kCond,
                          con_operands, false}};

}  // namespace
}  // namespace tessera::tester
