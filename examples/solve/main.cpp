// tessera-solve: solve A·x = b for a matrix A read from a Matrix Market file, with tile algorithms.
//
//   tessera-solve FILE.mtx [--rhs ones|B.mtx] [--method auto|potrf|getrf|gels] [--nb NB] [--prec s|d|c|z]
//                 [--quiet] [--trace FILE.json] [--gantt FILE.png|svg]
//
// b = A·1 by default (--rhs ones), so that the forward error ‖x − 1‖∞ can be reported. Precision:
// s, d (real) or c, z (complex, LAPACK's letters); d by default, z when A or B is a complex file. A
// complex file with --prec s or d is refused; a real one with c or z is solved in complex
// arithmetic. Methods: potrf (Cholesky A = L·Lᴴ of the lower triangle),
// getrf (LU with partial pivoting, gesv), gels (QR least squares for m > n, minimum-norm solution
// for m < n). auto: potrf for a matrix declared Hermitian, or symmetric with real entries, falling
// back to getrf when it is not positive definite (info > 0); getrf for other square matrices
// (complex symmetric and skew-symmetric included); gels for rectangular ones. Prints the method, the
// time (GFLOP/s counted as LAPACK does, 4 times the real count for complex), the backward
// error ‖b − A·x‖ / ((‖A‖·‖x‖ + ‖b‖)·n·eps) (1-norms, on the moduli of complex entries) and, for
// b = A·1, the forward error ‖x − 1‖∞; after a potrf or getrf solve, the condition number estimate
// κ₁(A) ≈ 1/rcond (pocon / gecon on the factors, ‖A‖₁ by lanhe / lange before factoring; one process
// only) and a warning line when κ₁·eps > 1e-2 (eps the unit roundoff of the precision: the solution
// may then be wrong beyond 1% although the backward error passes). A or b whose largest entry (in modulus) lies outside
// LAPACK's safe range [smlnum, bignum] of the precision is scaled by a power of 2 first, as xGELS
// does (so that b = A·1 and the solve stay finite; scaling.hpp), and the solution of the original
// system is reported.
// Exit status (tool::ExitCode): 0 solved and the backward error (or, for least squares, either residual
// of docs/architecture.md#numerical-checks) is at most 60; 1 a singular, indefinite or rank-deficient
// matrix (LAPACK's info is printed), an overflow, or a failed residual check; 2 a malformed or
// unsupported file, bad arguments (a real --prec for a complex file) or more memory than could be
// allocated (one line on stderr).
// Under mpirun (docs/distributed.md#agreement) every rank reads the files and takes part in the
// solve, and rank 0 alone prints; ranks given different command lines are refused before the work
// with exit 2 on every rank.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "examples/common/cli_parse.hpp"
#include "examples/common/rank_agreement.hpp"
#include "examples/common/tool_main.hpp"
#include "examples/common/tool_trace.hpp"
#include "examples/solve/matrix_market.hpp"
#include "examples/solve/read_progress.hpp"
#include "examples/solve/residuals.hpp"
#include "examples/solve/scaling.hpp"
#include "tessera/lu.hpp"
#include "tessera/qr.hpp"
#include "tessera/tessera.hpp"

using namespace tessera;
using namespace tessera::solve;

namespace {

enum class Method { Potrf, Getrf, Gels };
const char* describe(Method m) {
    return m == Method::Potrf ? "potrf (tile Cholesky, lower triangle) + potrs"
           : m == Method::Getrf ? "getrf (tile LU, partial pivoting) + getrs"
                                : "gels (tile QR least squares)";
}

struct SolveOptions {
    std::string file, rhs = "ones", method = "auto", prec;  ///< prec "" until resolved: d, or z for a complex file
    int64_t nb = 0;  ///< 0: the tuned tile size of the method's factorization (tuned_tile)
    tool::WatchOptions watch;  ///< --quiet, --trace, --gantt
};

/// One attempt: LAPACK info, seconds of factorization + solve, flops (LAPACK's count: 4 times the
/// real one for complex T), the solution (n×nrhs), and the reciprocal condition number estimate of
/// the factors (gecon / pocon with ‖A‖₁ taken before factoring; −1 when not estimated: gels, a
/// failed factorization, or several MPI ranks, where the estimates do not run) and its seconds.
template <class T>
struct Attempt {
    int64_t info = 0;
    double seconds = 0, flops = 0;
    std::vector<T> x;
    double rcond = -1, rcond_seconds = 0;
};

template <class T>
Attempt<T> attempt(Method method, int64_t m, int64_t n, int64_t nrhs, int64_t nb, const std::vector<T>& a,
                   const std::vector<T>& b) {
    Attempt<T> r;
    const int64_t rows = method == Method::Gels ? std::max(m, n) : n;
    std::vector<T> bx(size_t(rows * nrhs), T(0));  // B, padded to max(m, n) rows for gels
    for (int64_t j = 0; j < nrhs; ++j)
        for (int64_t i = 0; i < m; ++i) bx[size_t(i + j * rows)] = b[size_t(i + j * m)];
    TileMatrix<T> A(m, n, nb), B(rows, nrhs, nb);
    A.fill_from_lapack(a.data(), m);
    B.fill_from_lapack(bx.data(), rows);
    Runtime::wait_all();
    std::vector<int64_t> ipiv;
    // ‖A‖₁ for the condition estimate, before A is overwritten by its factors (one process only).
    const bool estimate = method != Method::Gels && Runtime::ranks() == 1;
    real_t<T> anorm = 0;
    if (estimate) anorm = method == Method::Potrf ? lanhe(Norm::One, Uplo::Lower, A) : lange(Norm::One, A);
    const auto t0 = std::chrono::steady_clock::now();
    if (method == Method::Potrf) {
        r.info = posv(Uplo::Lower, A, B);
    } else if (method == Method::Getrf) {
        r.info = gesv(A, ipiv, B);
    } else {
        r.info = gels(Trans::NoTrans, A, B);
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (estimate && r.info == 0) {
        const auto t1 = std::chrono::steady_clock::now();
        r.rcond = method == Method::Potrf ? pocon(Uplo::Lower, A, anorm) : gecon(Norm::One, A, anorm);
        r.rcond_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    }
    const double dm = double(m), dn = double(n), k = double(std::min(m, n)), big = double(std::max(m, n));
    r.flops = method == Method::Potrf   ? dn * dn * dn / 3 + 2 * dn * dn * double(nrhs)
              : method == Method::Getrf ? 2 * dn * dn * dn / 3 + 2 * dn * dn * double(nrhs)
                                        : 2 * big * k * k - 2 * k * k * k / 3 + 4 * dm * dn * double(nrhs);
    if (is_complex_v<T>) r.flops *= 4;  // LAPACK counts a complex multiply-add as 6 + 2 flops, a real one 2
    B.to_lapack(bx.data(), rows);
    r.x.assign(size_t(n * nrhs), T(0));
    for (int64_t j = 0; j < nrhs; ++j)
        for (int64_t i = 0; i < n; ++i) r.x[size_t(i + j * n)] = bx[size_t(i + j * rows)];
    return r;
}

template <class T>
int solve_and_report(SolveOptions& opt, const MMMatrix& M, const MMMatrix* B, const ScaledSystem<T>& sys,
                     Method method, std::string why, Runtime& rt);
template <class T>
int report(const ScaledSystem<T>& sys, Method method, const Attempt<T>& r, int64_t m,
           int64_t n, int64_t nrhs, bool ones);

/// Choose the method, refuse what cannot be solved (before the work), scale the system, start the
/// Runtime and solve.
template <class T>
int run(SolveOptions opt, const MMMatrix& M, const MMMatrix* B) {
    const int64_t m = M.m, n = M.n;
    // Cholesky needs A = Aᴴ: a Hermitian file, or a real symmetric one (in any precision). A complex
    // symmetric matrix (A = Aᵀ ≠ Aᴴ) is solved by LU.
    const bool hermitian = M.symmetry == MMSymmetry::Hermitian || (M.symmetry == MMSymmetry::Symmetric && !M.is_complex());
    Method method = Method::Getrf;
    std::string why;
    if (opt.method == "potrf") method = Method::Potrf, why = "--method potrf";
    else if (opt.method == "getrf") method = Method::Getrf, why = "--method getrf";
    else if (opt.method == "gels") method = Method::Gels, why = "--method gels";
    else if (m != n) method = Method::Gels, why = "auto: rectangular";
    else if (hermitian) method = Method::Potrf, why = std::string("auto: declared ") + to_string(M.symmetry);
    else why = std::string("auto: square, ") + (M.is_complex() && M.symmetry != MMSymmetry::General ? "complex " : "") +
               to_string(M.symmetry);
    if (method != Method::Gels && m != n) {
        std::fprintf(stderr, "tessera-solve: --method %s needs a square matrix; %s is %lld x %lld (use gels)\n",
                     opt.method.c_str(), opt.file.c_str(), (long long)m, (long long)n);
        return tool::kRefused;
    }
    if (method == Method::Potrf && !hermitian)
        tool::print_root(is_complex_v<T> ? "note      the matrix is not declared hermitian: potrf uses its lower triangle only "
                                      "(as a hermitian one's)\n"
                                    : "note      the matrix is not declared symmetric: potrf uses its lower triangle only\n");

    const ScaledSystem<T> sys = scale_system<T>(M, B);
    Runtime rt(tool::runtime_config(opt.watch));
    return tool::run_in_runtime("tessera-solve", [&] { return solve_and_report<T>(opt, M, B, sys, method, why, rt); });
}

/// The solve on the running Runtime `rt` and its report, printed by MPI rank 0, whose exit code every
/// rank returns (the solution is gathered to rank 0 alone).
template <class T>
int solve_and_report(SolveOptions& opt, const MMMatrix& M, const MMMatrix* B, const ScaledSystem<T>& sys,
                     Method method, std::string why, Runtime& rt) {
    const int64_t m = M.m, n = M.n, nrhs = B ? B->n : 1;
    const bool ones = B == nullptr;
    const std::vector<T>& a = sys.a;
    const std::vector<T>& b = sys.b;
    const auto refused = tool::prepare_together("tessera-solve", [&] {
        if (opt.nb == 0)
            opt.nb = tuned_tile(prec_letter<T>() + std::string(method == Method::Potrf ? "potrf" : method == Method::Getrf ? "getrf" : "geqrf"),
                                std::max({m, n, nrhs})).nb;
    });
    if (refused) return *refused;
    if (auto rc = tool::refuse_unless_ranks_agree("tessera-solve", "--nb " + std::to_string(opt.nb),
                                                  "resolved different tile sizes", "resolved", "give --nb"))
        return *rc;
    tool::print_root("runtime   %d CPU + %d OpenCL workers, scheduler %s, precision %s, nb %lld\n", rt.cpu_workers(),
                rt.opencl_workers(), rt.scheduler().c_str(), precision_name<T>(), (long long)opt.nb);
    if (m == 0 || n == 0 || nrhs == 0) {
        tool::print_root("method    none: empty system, nothing to solve\n");
        return tool::kOk;
    }
    std::optional<tool::ProgressDisplay> progress;
    progress.emplace(rt, "solve", opt.watch.quiet);
    Attempt<T> r = attempt<T>(method, m, n, nrhs, opt.nb, a, b);
    if (method == Method::Potrf && r.info > 0 && opt.method == "auto") {
        tool::print_root("method    %s [%s]: not positive definite (LAPACK info = %lld), falling back to LU\n",
                    describe(method), why.c_str(), (long long)r.info);
        method = Method::Getrf;
        why = "auto: Cholesky failed";
        const double first = r.seconds;
        r = attempt<T>(method, m, n, nrhs, opt.nb, a, b);
        r.seconds += first;
    }
    progress.reset();
    tool::print_root("method    %s [%s]\n", describe(method), why.c_str());
    if (!opt.watch.gantt.empty())
        tool::print_root("gantt     %ld tasks drawn to %s\n",
                         tool::writing_output([&] {
                             return tool::draw_gantt_of_run(rt, opt.watch, "tessera-solve " + opt.file + ": tasks per worker");
                         }),
                         opt.watch.gantt.c_str());
    tool::finish_trace(rt);  // a trace that cannot be written fails the run (exit 1)
    const int rc = tool::root_rank() ? report<T>(sys, method, r, m, n, nrhs, ones) : tool::kOk;
    return detail::broadcast_from_rank0(rc);
}

/// The condition line: κ₁(A) ≈ 1/rcond (∞ for rcond = 0: numerically singular), and a warning
/// line when κ₁·eps > 1e-2 (eps the unit roundoff of T's precision): the forward error bound κ·eps
/// (times a small factor) of a backward stable solve then allows errors above 1%.
template <class T>
void report_condition(Method method, const Attempt<T>& r) {
    const double kappa = r.rcond > 0 ? 1.0 / r.rcond : INFINITY;
    const double eps = double(std::numeric_limits<real_t<T>>::epsilon()) / 2;
    tool::print_root("condition kappa_1(A) ~ %.3g (1/rcond, %s estimate, %.4f s)\n", kappa,
                     method == Method::Potrf ? "pocon" : "gecon", r.rcond_seconds);
    if (kappa * eps > 1e-2)
        tool::print_root("warning   kappa_1(A) * eps = %.3g > 1e-2: A is ill-conditioned in %s precision: the "
                         "relative error of x may be as large as about kappa * eps\n",
                         kappa * eps, precision_name<T>());
}

/// Rank 0's report of the solution `r` (gathered to it) of the scaled system `sys`: failure, time,
/// residuals, forward error for b = A·1, the check. Returns the exit code.
template <class T>
int report(const ScaledSystem<T>& sys, Method method, const Attempt<T>& r, int64_t m,
           int64_t n, int64_t nrhs, bool ones) {
    const std::vector<T>& a = sys.a;
    const std::vector<T>& b = sys.b;
    if (r.info > 0) {
        const char* what = method == Method::Potrf ? "the matrix is not positive definite: leading minor of order"
                           : method == Method::Getrf ? "the matrix is singular: U(i,i) is exactly zero for i ="
                                                      : "the matrix is rank deficient: R(i,i) is exactly zero for i =";
        tool::print_root("FAILED    %s %lld (LAPACK info = %lld); no solution\n", what, (long long)r.info, (long long)r.info);
        return tool::kFailed;
    }
    tool::print_root("time      %.4f s factorization + solve, %.2f GFLOP/s\n", r.seconds,
                r.seconds > 0 ? r.flops / r.seconds * 1e-9 : 0.0);
    // A and b are finite and inside the safe range here, so a non-finite entry comes from the solve.
    if (!all_finite(r.x)) {
        tool::print_root("FAILED    the %s overflowed: the solution has non-finite entries although A and b are finite "
                    "(the matrix is numerically singular in %s precision)\n",
                    method == Method::Potrf ? "Cholesky solve" : method == Method::Getrf ? "LU solve" : "QR solve",
                    precision_name<T>());
        return tool::kFailed;
    }
    std::vector<wide_t<T>> x;
    std::string overflow;
    if (!unscale(r.x, n, sys.ea - sys.eb, x, overflow)) {
        tool::print_root("FAILED    the solution of the original system overflows: %s\n", overflow.c_str());
        return tool::kFailed;
    }
    const double berr = backward_error<T>(m, n, nrhs, a.data(), m, r.x.data(), n, b.data(), m);
    bool ok = check::passes(berr);
    tool::print_root("residual  ||b - A x|| / ((||A|| ||x|| + ||b||) n eps) = %.3g%s\n", berr,
                sys.ea != 0 || sys.eb != 0 ? " (on the scaled system: the same value)" : "");
    if (r.rcond >= 0) report_condition<T>(method, r);
    if (m > n && ones) {
        tool::print_root("residual  (b = A*1 lies in the range of A: b - A x is rounding noise, so the line above is the check)\n");
    } else if (m > n) {
        const double orth = ls_orthogonality<T>(m, n, nrhs, a.data(), m, r.x.data(), n, b.data(), m);
        tool::print_root("residual  ||A^%s (b - A x)|| / (||A|| ||b - A x|| n eps) = %.3g (least squares)\n",
                    is_complex_v<T> ? "H" : "T", orth);
        ok = ok || check::passes(orth);
    }
    if (ones && m >= n) {
        double err = 0;
        for (const wide_t<T>& v : x) err = std::max(err, double(std::abs(v - 1.0)));  // modulus for complex
        tool::print_root("forward   ||x - 1||_inf / ||1||_inf = %.3g\n", err);
    }
    tool::print_root("check     %s (threshold %g)\n", ok ? "pass" : "FAILED", check::kThreshold);
    return ok ? tool::kOk : tool::kFailed;
}

/// Whether the precision asked for can hold the matrix read from `file`: a complex file needs c or z
/// (or no --prec: it then defaults to z). Prints the one line of refusal otherwise.
bool precision_fits(const SolveOptions& opt, const MMMatrix& M, const std::string& file) {
    if (!M.is_complex() || opt.prec.empty() || opt.prec == "c" || opt.prec == "z") return true;
    std::fprintf(stderr, "tessera-solve: %s is a complex matrix: --prec %s is a real precision (use --prec c or z)\n",
                 file.c_str(), opt.prec.c_str());
    return false;
}

/// Parse the command line, read A (and B), solve. Malformed files are refused (kRefused) with the
/// reader's one line "FILE:LINE: what is wrong".
int solve_main(int argc, char** argv) {
    // Under mpirun: every rank must run rank 0's command line (checked before it is even parsed).
    if (auto rc = tool::agree_on_command("tessera-solve", argc, argv)) return *rc;
    CLI::App app{"tessera-solve: solve A x = b for a Matrix Market matrix with Tessera's tile algorithms",
                 "tessera-solve"};
    SolveOptions opt;
    app.add_option("file", opt.file, "matrix A (Matrix Market .mtx)")->required();
    app.add_option("--rhs", opt.rhs, "right-hand sides: 'ones' (b = A*1) or a Matrix Market file with A's rows")
        ->capture_default_str();
    app.add_option("--method", opt.method, "auto, potrf, getrf or gels")->capture_default_str()
        ->check(CLI::IsMember({"auto", "potrf", "getrf", "gels"}));
    app.add_option("--nb", opt.nb, "tile size (default: the tuned one for the method on this machine)")->check(CLI::Range(int64_t(1), int64_t(1) << 20));
    app.add_option("--prec", opt.prec, "precision: s, d, c or z (default: d, or z when A or B is complex)")
        ->check(CLI::IsMember({"s", "d", "c", "z"}));
    tool::add_watch_options(app, opt.watch);
    if (auto rc = tool::parse_cli(app, argc, argv, "tessera-solve")) return *rc;
    if (!opt.watch.gantt.empty()) tool::check_picture_path("--gantt", opt.watch.gantt);
    opt.watch.quiet = opt.watch.quiet || !tool::root_rank();  // under mpirun rank 0 alone shows progress
    try {
        const MMMatrix M = read_matrix_market_with_progress(opt.file, opt.watch.quiet);
        tool::print_root("matrix    %s: %lld x %lld, %s %s %s, %lld stored entries\n", opt.file.c_str(), (long long)M.m,
                    (long long)M.n, to_string(M.format), to_string(M.field), to_string(M.symmetry), (long long)M.stored);
        if (!precision_fits(opt, M, opt.file)) return tool::kRefused;
        std::optional<MMMatrix> B;  // none for b = A·1, formed after A is scaled
        if (opt.rhs != "ones") {
            B = read_matrix_market_with_progress(opt.rhs, opt.watch.quiet);
            if (B->m != M.m) {
                std::fprintf(stderr, "%s:1: the right-hand side has %lld rows, the matrix %s has %lld\n", opt.rhs.c_str(),
                             (long long)B->m, opt.file.c_str(), (long long)M.m);
                return tool::kRefused;
            }
            if (!precision_fits(opt, *B, opt.rhs)) return tool::kRefused;
            tool::print_root("rhs       %s: %lld right-hand side(s)\n", opt.rhs.c_str(), (long long)B->n);
        }
        if (opt.prec.empty()) opt.prec = M.is_complex() || (B && B->is_complex()) ? "z" : "d";
        const MMMatrix* b = B ? &*B : nullptr;
        switch (opt.prec[0]) {
        case 's': return run<float>(opt, M, b);
        case 'd': return run<double>(opt, M, b);
        case 'c': return run<std::complex<float>>(opt, M, b);
        default: return run<std::complex<double>>(opt, M, b);
        }
    } catch (const MMError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return tool::kRefused;
    }
}

}  // namespace

// Any other exception (out of memory, tessera::Error, a failed task) becomes one line and its exit code.
int main(int argc, char** argv) {
    return tool::guarded_main("tessera-solve", [&] { return solve_main(argc, argv); });
}
