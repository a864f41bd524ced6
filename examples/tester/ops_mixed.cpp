// tessera-tester operations: posv_mixed and gesv_mixed, the mixed-precision solvers (d from s
// factors, z from c; tessera/mixed.hpp), and their GMRES-IR forms posv_mixed_gmres and
// gesv_mixed_gmres (one right-hand side: no --nrhs). Timed from host memory to host memory with time_it around
// the synchronous call (the refinement waits on every iteration's residual anyway). --check reports
// the double backward error ‖B − A·X‖₁ / (‖A‖₁·‖X‖₁·n·eps) (check::backward_error); the status
// shows LAPACK's iter (< 0: fell back to the double solver). --cond κ generates A of 2-norm
// condition number κ (check::random_cond, O(n²) on the host) instead of the default matrices.
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_mixed.hpp"
#include "examples/tester/tester.hpp"
#include "tessera/tessera.hpp"

namespace tessera::tester {
namespace {

template <class T>
Result run_mixed(const Params& p, bool spd, bool gmres = false) {
    const int64_t lda = std::max<int64_t>(p.n, 1);
    TileMatrix<T> A(p.n, p.n, p.nb), B(p.n, p.nrhs, p.nb), X(p.n, p.nrhs, p.nb);
    check::generate_cond_or_default(A, p.cond, spd, p.seed);  // without --cond: SPD (posv) or random (gesv)
    check::generate_random(B, p.seed + 1);
    check::LapackArray<T> a, b;
    if (p.check) a = check::lapack_copy(A), b = check::lapack_copy(B);
    Runtime::wait_all();
    Result r{.m = p.n, .k = p.nrhs, .has_iter = true};
    std::vector<int64_t> ipiv;
    r.seconds = time_it([&] {
        if (gmres)
            r.info = spd ? posv_mixed_gmres(p.uplo, A, B, X, r.iter, p.factor)
                         : gesv_mixed_gmres(A, ipiv, B, X, r.iter, p.factor);
        else
            r.info = spd ? posv_mixed(p.uplo, A, B, X, r.iter, p.factor) : gesv_mixed(A, ipiv, B, X, r.iter, p.factor);
    });
    // The nominal flops of the double solver (posv: n³/3, gesv: 2n³/3, plus the solves), as LAPACK's
    // timings of xSPOSV / xSGESV count them: the rate says how far the mixed solver beats it.
    const double n = double(p.n);
    r.flops = (spd ? n * n * n / 3.0 : 2.0 * n * n * n / 3.0) + 2.0 * n * n * double(p.nrhs);
    if (p.check) {
        const auto x = check::lapack_copy(X);
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = check::backward_error(p.n, p.nrhs, a.data(), lda, x.data(), lda, b.data(), lda);
        r.checked = true;
    }
    return r;
}

template <class T>
Result run_posv_mixed(const Params& p) {
    if constexpr (std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>>) return run_mixed<T>(p, true);
    else throw Error("posv_mixed takes --prec d or z");  // refused before the run (Op::precisions)
}
template <class T>
Result run_gesv_mixed(const Params& p) {
    if constexpr (std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>>) return run_mixed<T>(p, false);
    else throw Error("gesv_mixed takes --prec d or z");
}

template <class T>
Result run_posv_mixed_gmres(const Params& p) {
    if constexpr (std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>>) return run_mixed<T>(p, true, true);
    else throw Error("posv_mixed_gmres takes --prec d or z");
}
template <class T>
Result run_gesv_mixed_gmres(const Params& p) {
    if constexpr (std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>>) return run_mixed<T>(p, false, true);
    else throw Error("gesv_mixed_gmres takes --prec d or z");
}

// A, B and X in double, the low-precision copies of A and B, and the residual (the low ones counted
// at the double size: an overestimate of the memory needed).
std::vector<Operand> mixed_operands(const Params& p) {
    return {{p.n, p.n, "--n", "--n"}, {p.n, p.n, "--n", "--n", 0, true}, {p.n, p.nrhs, "--n", "--nrhs"},
            {p.n, p.nrhs, "--n", "--nrhs"}, {p.n, p.nrhs, "--n", "--nrhs", 0, true}, {p.n, p.nrhs, "--n", "--nrhs", 0, true}};
}

const Register reg_posv_mixed{{"posv_mixed", "potrf", TESSERA_RUNS(run_posv_mixed), kUplo | kNrhs | kCond | kFactor,
                               mixed_operands, false, "dz"}};
const Register reg_gesv_mixed{{"gesv_mixed", "getrf", TESSERA_RUNS(run_gesv_mixed), kNrhs | kCond | kFactor, mixed_operands,
                               false, "dz"}};
// GMRES-IR: the Arnoldi basis (n×31) besides the classic solvers' operands.
std::vector<Operand> gmres_operands(const Params& p) {
    auto ops = mixed_operands(p);
    ops.push_back({p.n, 31, "--n", "--n", 0, true});
    return ops;
}
const Register reg_posv_mixed_gmres{{"posv_mixed_gmres", "potrf", TESSERA_RUNS(run_posv_mixed_gmres), kUplo | kCond | kFactor,
                                     gmres_operands, false, "dz"}};
const Register reg_gesv_mixed_gmres{{"gesv_mixed_gmres", "getrf", TESSERA_RUNS(run_gesv_mixed_gmres), kCond | kFactor,
                                     gmres_operands, false, "dz"}};

}  // namespace
}  // namespace tessera::tester
