// tessera-solve: solve A·x = b for a matrix A read from a Matrix Market file, with tile algorithms.
//
//   tessera-solve FILE.mtx [--rhs ones|B.mtx] [--method auto|potrf|getrf|gels] [--nb NB] [--prec s|d]
//
// b = A·1 by default (--rhs ones), so that the forward error ‖x − 1‖∞ can be reported. Methods:
// potrf (Cholesky of the lower triangle), getrf (LU with partial pivoting, gesv), gels (QR least
// squares for m > n, minimum-norm solution for m < n). auto: potrf for a matrix declared symmetric,
// falling back to getrf when it is not positive definite (info > 0); getrf for other square matrices;
// gels for rectangular ones. Prints the method, the time, the backward error
// ‖b − A·x‖ / ((‖A‖·‖x‖ + ‖b‖)·n·eps) (1-norms) and, for b = A·1, the forward error.
// A or b whose largest entry lies outside LAPACK's safe range [smlnum, bignum] of the precision is
// scaled by a power of 2 first, as xGELS does (so that b = A·1 and the solve stay finite), and the
// solution of the original system is reported.
// Exit status (tool::ExitCode): 0 solved and the backward error (or, for least squares, either
// DESIGN.md residual) is at most 60; 1 a singular, indefinite or rank-deficient matrix (LAPACK's
// info is printed), an overflow, or a failed residual check; 2 a malformed or unsupported file, bad
// arguments or more memory than could be allocated (one line on stderr).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "examples/common/cli_parse.hpp"
#include "examples/common/tool_main.hpp"
#include "examples/solve/matrix_market.hpp"
#include "examples/solve/residuals.hpp"
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
    std::string file, rhs = "ones", method = "auto", prec = "d";
    int64_t nb = 320;
};

/// One attempt: LAPACK info, seconds of factorization + solve, flops, and the solution (n×nrhs).
template <class T>
struct Attempt {
    int64_t info = 0;
    double seconds = 0, flops = 0;
    std::vector<T> x;
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
    const auto t0 = std::chrono::steady_clock::now();
    if (method == Method::Potrf) {
        r.info = posv(Uplo::Lower, A, B);
    } else if (method == Method::Getrf) {
        r.info = gesv(A, ipiv, B);
    } else {
        r.info = gels(Trans::NoTrans, A, B);
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double dm = double(m), dn = double(n), k = double(std::min(m, n)), big = double(std::max(m, n));
    r.flops = method == Method::Potrf   ? dn * dn * dn / 3 + 2 * dn * dn * double(nrhs)
              : method == Method::Getrf ? 2 * dn * dn * dn / 3 + 2 * dn * dn * double(nrhs)
                                        : 2 * big * k * k - 2 * k * k * k / 3 + 4 * dm * dn * double(nrhs);
    B.to_lapack(bx.data(), rows);
    r.x.assign(size_t(n * nrhs), T(0));
    for (int64_t j = 0; j < nrhs; ++j)
        for (int64_t i = 0; i < n; ++i) r.x[size_t(i + j * n)] = bx[size_t(i + j * rows)];
    return r;
}

/// LAPACK's safe range for scaling (xGELS with xLASCL): [smlnum, bignum], smlnum = tiny/eps of T.
template <class T>
double smlnum() {
    return double(std::numeric_limits<T>::min()) / double(std::numeric_limits<T>::epsilon());
}

/// Power of 2 that brings `amax`, the largest |entry| of an operand, just inside [smlnum, bignum] of
/// T (0 when it is inside already, or zero), as xGELS scales A and B before factoring. Powers of 2
/// change no digit: only entries pushed below T's normal range lose bits, and those lie far below
/// the backward error eps·‖A‖ of the solve. Moving no further than the range's edge keeps that loss
/// to the least, as LAPACK does.
template <class T>
int scale_exponent(double amax) {
    const double lo = smlnum<T>(), hi = 1 / lo;  // both powers of 2
    if (amax == 0 || (amax >= lo && amax <= hi)) return 0;
    return amax > hi ? std::ilogb(hi) - std::ilogb(amax) - 1 : std::ilogb(lo) - std::ilogb(amax);
}

double max_abs(const std::vector<double>& v) {
    double r = 0;
    for (double e : v) r = std::max(r, std::abs(e));
    return r;
}

/// The system actually solved, in precision T: a = 2^ea·A and b = 2^eb·B. Its solution y gives the
/// original one, x = 2^(ea − eb)·y; the backward error is the same for both (every term of
/// ‖b − A·x‖ / (‖A‖·‖x‖ + ‖b‖) scales by 2^eb).
template <class T>
struct ScaledSystem {
    std::vector<T> a, b;
    int ea = 0, eb = 0;
};

/// b = (2^ea·A)·1 in double: the original A·1 may not be representable (a 2×2 of ±1e308 sums to 2e308).
std::vector<double> scaled_row_sums(const MMMatrix& M, int ea) {
    std::vector<double> b(size_t(M.m), 0.0);
    for (int64_t j = 0; j < M.n; ++j)
        for (int64_t i = 0; i < M.m; ++i) b[size_t(i)] += std::ldexp(M.at(i, j), ea);
    return b;
}

/// Scale A, then form b (for b = A·1 from the scaled A) and scale it too if it leaves T's safe range.
template <class T>
ScaledSystem<T> scale_system(const MMMatrix& M, const std::vector<double>& b_in, bool ones) {
    const char* prec = sizeof(T) == 4 ? "single" : "double";
    const double lo = smlnum<T>(), hi = 1 / lo;
    ScaledSystem<T> s;
    const double amax = max_abs(M.a);
    s.ea = scale_exponent<T>(amax);
    s.a.resize(M.a.size());
    for (size_t k = 0; k < M.a.size(); ++k) s.a[k] = T(std::ldexp(M.a[k], s.ea));
    if (s.ea != 0)
        std::printf("scaling   A multiplied by 2^%d: max |a_ij| = %.3g is outside [%.3g, %.3g], LAPACK's safe range in %s "
                    "(as xGELS scales)\n", s.ea, amax, lo, hi, prec);
    const std::vector<double> b = ones ? scaled_row_sums(M, s.ea) : b_in;
    const double bmax = max_abs(b);
    const int eb = scale_exponent<T>(bmax);
    s.b.resize(b.size());
    for (size_t k = 0; k < b.size(); ++k) s.b[k] = T(std::ldexp(b[k], eb));
    s.eb = eb + (ones ? s.ea : 0);
    if (eb != 0)
        std::printf("scaling   b%s multiplied by 2^%d: max |b_i| = %.3g is outside [%.3g, %.3g] in %s\n",
                    ones ? " = (scaled A)*1" : "", eb, bmax, lo, hi, prec);
    if (s.ea != 0 || s.eb != 0)
        std::printf("scaling   solving 2^%d A x' = 2^%d b; x = 2^%d x' is reported, the solution of the original system\n",
                    s.ea, s.eb, s.ea - s.eb);
    return s;
}

/// x = 2^e·y in double (y n×nrhs), or false and the message saying which entry overflowed T's range.
template <class T>
bool unscale(const std::vector<T>& y, int64_t n, int e, std::vector<double>& x, std::string& overflow) {
    x.resize(y.size());
    for (size_t k = 0; k < y.size(); ++k) {
        x[k] = std::ldexp(double(y[k]), e);
        if (!(std::abs(x[k]) <= double(std::numeric_limits<T>::max()))) {
            char text[256];
            std::snprintf(text, sizeof text, "x(%lld,%lld) = %.3g * 2^%d exceeds the largest %s (%.3g)",
                          (long long)(int64_t(k) % n + 1), (long long)(int64_t(k) / n + 1), double(y[k]), e,
                          sizeof(T) == 4 ? "float" : "double", double(std::numeric_limits<T>::max()));
            overflow = text;
            return false;
        }
    }
    return true;
}

template <class T>
int run(const SolveOptions& opt, const MMMatrix& M, const std::vector<double>& b_in, int64_t nrhs, bool ones) {
    const int64_t m = M.m, n = M.n;
    Method method = Method::Getrf;
    std::string why;
    if (opt.method == "potrf") method = Method::Potrf, why = "--method potrf";
    else if (opt.method == "getrf") method = Method::Getrf, why = "--method getrf";
    else if (opt.method == "gels") method = Method::Gels, why = "--method gels";
    else if (m != n) method = Method::Gels, why = "auto: rectangular";
    else if (M.symmetry == MMSymmetry::Symmetric) method = Method::Potrf, why = "auto: declared symmetric";
    else why = std::string("auto: square, ") + to_string(M.symmetry);
    if (method != Method::Gels && m != n) {
        std::fprintf(stderr, "tessera-solve: --method %s needs a square matrix; %s is %lld x %lld (use gels)\n",
                     opt.method.c_str(), opt.file.c_str(), (long long)m, (long long)n);
        return tool::kRefused;
    }
    if (method == Method::Potrf && M.symmetry != MMSymmetry::Symmetric)
        std::printf("note      the matrix is not declared symmetric: potrf uses its lower triangle only\n");

    const ScaledSystem<T> sys = scale_system<T>(M, b_in, ones);
    const std::vector<T>& a = sys.a;
    const std::vector<T>& b = sys.b;
    Runtime rt;
    std::printf("runtime   %d CPU + %d OpenCL workers, scheduler %s, precision %s, nb %lld\n", rt.cpu_workers(),
                rt.opencl_workers(), rt.scheduler().c_str(), opt.prec == "s" ? "single" : "double", (long long)opt.nb);
    if (m == 0 || n == 0 || nrhs == 0) {
        std::printf("method    none: empty system, nothing to solve\n");
        return tool::kOk;
    }
    Attempt<T> r = attempt<T>(method, m, n, nrhs, opt.nb, a, b);
    if (method == Method::Potrf && r.info > 0 && opt.method == "auto") {
        std::printf("method    %s [%s]: not positive definite (LAPACK info = %lld), falling back to LU\n",
                    describe(method), why.c_str(), (long long)r.info);
        method = Method::Getrf;
        why = "auto: Cholesky failed";
        const double first = r.seconds;
        r = attempt<T>(method, m, n, nrhs, opt.nb, a, b);
        r.seconds += first;
    }
    std::printf("method    %s [%s]\n", describe(method), why.c_str());
    if (r.info > 0) {
        const char* what = method == Method::Potrf ? "the matrix is not positive definite: leading minor of order"
                           : method == Method::Getrf ? "the matrix is singular: U(i,i) is exactly zero for i ="
                                                      : "the matrix is rank deficient: R(i,i) is exactly zero for i =";
        std::printf("FAILED    %s %lld (LAPACK info = %lld); no solution\n", what, (long long)r.info, (long long)r.info);
        return tool::kFailed;
    }
    std::printf("time      %.4f s factorization + solve, %.2f GFLOP/s\n", r.seconds,
                r.seconds > 0 ? r.flops / r.seconds * 1e-9 : 0.0);
    // A and b are finite and inside the safe range here, so a non-finite entry comes from the solve.
    if (!all_finite(r.x)) {
        std::printf("FAILED    the %s overflowed: the solution has non-finite entries although A and b are finite "
                    "(the matrix is numerically singular in %s precision)\n",
                    method == Method::Potrf ? "Cholesky solve" : method == Method::Getrf ? "LU solve" : "QR solve",
                    sizeof(T) == 4 ? "single" : "double");
        return tool::kFailed;
    }
    std::vector<double> x;
    std::string overflow;
    if (!unscale(r.x, n, sys.ea - sys.eb, x, overflow)) {
        std::printf("FAILED    the solution of the original system overflows: %s\n", overflow.c_str());
        return tool::kFailed;
    }
    const double berr = backward_error<T>(m, n, nrhs, a.data(), m, r.x.data(), n, b.data(), m);
    bool ok = std::isfinite(berr) && berr <= check::kThreshold;
    std::printf("residual  ||b - A x|| / ((||A|| ||x|| + ||b||) n eps) = %.3g%s\n", berr,
                sys.ea != 0 || sys.eb != 0 ? " (on the scaled system: the same value)" : "");
    if (m > n && ones) {
        std::printf("residual  (b = A*1 lies in the range of A: b - A x is rounding noise, so the line above is the check)\n");
    } else if (m > n) {
        const double orth = ls_orthogonality<T>(m, n, nrhs, a.data(), m, r.x.data(), n, b.data(), m);
        std::printf("residual  ||A^T (b - A x)|| / (||A|| ||b - A x|| n eps) = %.3g (least squares)\n", orth);
        ok = ok || (std::isfinite(orth) && orth <= check::kThreshold);
    }
    if (ones && m >= n) {
        double err = 0;
        for (double v : x) err = std::max(err, std::abs(v - 1.0));
        std::printf("forward   ||x - 1||_inf / ||1||_inf = %.3g\n", err);
    }
    std::printf("check     %s (threshold %g)\n", ok ? "pass" : "FAILED", check::kThreshold);
    return ok ? tool::kOk : tool::kFailed;
}

/// Parse the command line, read A (and B), solve. Malformed files are refused (kRefused) with the
/// reader's one line "FILE:LINE: what is wrong".
int solve_main(int argc, char** argv) {
    CLI::App app{"tessera-solve: solve A x = b for a Matrix Market matrix with Tessera's tile algorithms",
                 "tessera-solve"};
    SolveOptions opt;
    app.add_option("file", opt.file, "matrix A (Matrix Market .mtx)")->required();
    app.add_option("--rhs", opt.rhs, "right-hand sides: 'ones' (b = A*1) or a Matrix Market file with A's rows")
        ->capture_default_str();
    app.add_option("--method", opt.method, "auto, potrf, getrf or gels")->capture_default_str()
        ->check(CLI::IsMember({"auto", "potrf", "getrf", "gels"}));
    app.add_option("--nb", opt.nb, "tile size")->capture_default_str()->check(CLI::Range(int64_t(1), int64_t(1) << 20));
    app.add_option("--prec", opt.prec, "precision: s or d")->capture_default_str()->check(CLI::IsMember({"s", "d"}));
    if (auto rc = tool::parse_cli(app, argc, argv, "tessera-solve")) return *rc;
    try {
        const MMMatrix M = read_matrix_market(opt.file);
        std::printf("matrix    %s: %lld x %lld, %s %s %s, %lld stored entries\n", opt.file.c_str(), (long long)M.m,
                    (long long)M.n, to_string(M.format), to_string(M.field), to_string(M.symmetry), (long long)M.stored);
        std::vector<double> b;  // empty for b = A·1, formed after A is scaled
        int64_t nrhs = 1;
        const bool ones = opt.rhs == "ones";
        if (!ones) {
            const MMMatrix B = read_matrix_market(opt.rhs);
            if (B.m != M.m) {
                std::fprintf(stderr, "%s:1: the right-hand side has %lld rows, the matrix %s has %lld\n", opt.rhs.c_str(),
                             (long long)B.m, opt.file.c_str(), (long long)M.m);
                return tool::kRefused;
            }
            b = B.a;
            nrhs = B.n;
            std::printf("rhs       %s: %lld right-hand side(s)\n", opt.rhs.c_str(), (long long)nrhs);
        }
        return opt.prec == "s" ? run<float>(opt, M, b, nrhs, ones) : run<double>(opt, M, b, nrhs, ones);
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
