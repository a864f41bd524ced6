// LAPACKE_dsyevd or (--op gesdd) LAPACKE_dgesdd (OpenBLAS, --threads threads) on tessera-tester's
// matrix, the peer of bench/eig_vs_lapack.sh: the seeded random n×n matrix of `tessera-tester syevd
// --seed S` (its lower triangle, as the tester's default --uplo L) or of `tessera-tester gesdd`,
// --repeat timed calls, each on a fresh copy (the copy untimed). Prints one row per call in
// tessera-tester's --csv columns (op,prec,m,n,k,nb,time_s,gflops,error,status; op "lapacke_syevd" or
// "lapacke_gesdd", nb 0) so that the script reads both alike. Flops as the tester counts them: syevd
// 4n³/3 values only, 4n³ with vectors; gesdd 8n³/3 values only (xGEBRD), 20n³/3 with thin vectors
// (and the back-transformations, LAWN 41; ops_svd.cpp).
// The last call is checked (the others are "unchecked"). syevd: with --check full (the default up
// to n = 4096) ‖A − Z·Λ·Zᵀ‖₁ / (n·‖A‖₁·eps) and ‖I − Zᵀ·Z‖₁ / (n·eps) (check::eig_residual,
// check::orthogonality), with --check random ‖A·X − Z·(Λ·(Zᵀ·X))‖∞ / (‖A‖∞·‖X‖∞·n·eps) over 4 random
// vectors (O(n²)); in both, |Σw − trace(A)| / (n·‖A‖₁·eps), the values-only check. gesdd (jobz N or
// S): |Σσ² − ‖A‖_F²| / (‖A‖_F²·n·eps) and σ descending, with vectors full ‖A − U·Σ·Vᵀ‖₁ / (n·‖A‖₁·eps)
// and U's, Vᵀ's orthogonality (check::svd_residual, orthogonality_columns / _rows), random
// ‖A·X − U·(Σ·(Vᵀ·X))‖∞ / (‖A‖∞·‖X‖∞·n·eps).
// Runs no StarPU. Exit status (examples/common/tool_main.hpp): 0 checked and passed, 1 a check failed
// or LAPACK's info ≠ 0, 2 bad arguments or more memory than is available.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_eig.hpp"
#include "examples/common/checks_svd.hpp"
#include "examples/common/cli_parse.hpp"
#include "examples/common/tool_main.hpp"
#include "kernels/cpu/blas.hpp"
#include "runtime/blas_threads.hpp"
#include "runtime/host_memory.hpp"

using namespace tessera;

namespace {

/// The larger of two ratios, NaN if either is (std::max would drop a NaN second argument).
double worst(double a, double b) { return std::isnan(a) || a > b ? a : b; }

/// The randomized residual of check::HeevdCheckRandom on the column-major arrays (lower triangle of a).
double random_residual(int64_t n, const std::vector<double>& a, const std::vector<double>& z, const std::vector<double>& w) {
    const int64_t k = 4;
    std::vector<double> x = check::random_matrix<double>(n, k, n, 7), ax(size_t(n * k)), y(size_t(n * k)), v(size_t(n * k));
    for (double& e : x) e += 1;
    cblas_dsymm(CblasColMajor, CblasLeft, CblasLower, int(n), int(k), 1.0, a.data(), int(n), x.data(), int(n), 0.0,
                ax.data(), int(n));
    cpu::gemm<double>(Trans::Trans, Trans::NoTrans, n, k, n, 1.0, z.data(), n, x.data(), n, 0.0, y.data(), n);
    for (int64_t c = 0; c < k; ++c)
        for (int64_t i = 0; i < n; ++i) y[size_t(i + c * n)] *= w[size_t(i)];
    cpu::gemm<double>(Trans::NoTrans, Trans::NoTrans, n, k, n, 1.0, z.data(), n, y.data(), n, 0.0, v.data(), n);
    for (size_t i = 0; i < v.size(); ++i) v[i] -= ax[i];
    const double norm_a = LAPACKE_dlansy(LAPACK_COL_MAJOR, 'I', 'L', int(n), a.data(), int(n));
    return check::ratio(check::lange('I', n, k, v.data(), n),
                        norm_a * check::lange('I', n, k, x.data(), n) * double(n) * check::eps<double>());
}

/// The randomized residual of check::SvdCheckRandom on the column-major n×n arrays (thin U, Vᵀ).
double svd_random_residual(int64_t n, const std::vector<double>& a, const std::vector<double>& u,
                           const std::vector<double>& vt, const std::vector<double>& s) {
    const int64_t k = 4;
    std::vector<double> x = check::random_matrix<double>(n, k, n, 7), ax(size_t(n * k)), y(size_t(n * k));
    for (double& e : x) e += 1;
    cpu::gemm<double>(Trans::NoTrans, Trans::NoTrans, n, k, n, 1.0, a.data(), n, x.data(), n, 0.0, ax.data(), n);
    cpu::gemm<double>(Trans::NoTrans, Trans::NoTrans, n, k, n, 1.0, vt.data(), n, x.data(), n, 0.0, y.data(), n);
    for (int64_t c = 0; c < k; ++c)
        for (int64_t i = 0; i < n; ++i) y[size_t(i + c * n)] *= s[size_t(i)];
    cpu::gemm<double>(Trans::NoTrans, Trans::NoTrans, n, k, n, 1.0, u.data(), n, y.data(), n, -1.0, ax.data(), n);
    return check::ratio(check::lange('I', n, k, ax.data(), n),
                        check::lange('I', n, n, a.data(), n) * check::lange('I', n, k, x.data(), n) * double(n) *
                            check::eps<double>());
}

/// gesdd's checks of one LAPACKE_dgesdd result (s descending, Σσ² against ‖A‖_F²; with vectors the
/// residual and orthogonality, full or random).
double gesdd_error(int64_t n, const std::vector<double>& a, const std::vector<double>& s, const std::vector<double>* u,
                   const std::vector<double>* vt, bool full) {
    long double sum = 0;
    bool ordered = true;
    for (int64_t i = 0; i < n; ++i) {
        sum += (long double)s[size_t(i)] * s[size_t(i)];
        ordered = ordered && s[size_t(i)] >= 0 && (i == 0 || s[size_t(i)] <= s[size_t(i - 1)]);
    }
    const double frob = check::lange('F', n, n, a.data(), n);
    double error = ordered ? check::ratio(double(std::abs(sum - (long double)frob * frob)),
                                          frob * frob * double(n) * check::eps<double>())
                           : INFINITY;
    if (!u) return error;
    if (!full) return worst(error, svd_random_residual(n, a, *u, *vt, s));
    error = worst(error, check::svd_residual<double>(n, n, a.data(), n, s.data(), u->data(), n, vt->data(), n));
    error = worst(error, check::orthogonality_columns<double>(n, n, u->data(), n));
    return worst(error, check::orthogonality_rows<double>(n, n, vt->data(), n));
}

int peer_main(int argc, char** argv) {
    CLI::App app{"LAPACKE_dsyevd on tessera-tester's matrix (the peer of bench/eig_vs_lapack.sh)"};
    int64_t n = 4096, repeat = 3;
    uint64_t seed = 42;
    int threads = 0;
    std::string op = "syevd", jobz = "V", check = "auto";
    app.add_option("--op", op, "syevd (LAPACKE_dsyevd) or gesdd (LAPACKE_dgesdd, square)")
        ->check(CLI::IsMember({"syevd", "gesdd"}));
    app.add_option("--n", n, "order")->check(CLI::Range(int64_t(1), int64_t(46340)));  // n² within LAPACKE's int
    app.add_option("--jobz", jobz, "syevd: N (values) or V (and vectors); gesdd: N or S (thin vectors)")
        ->check(CLI::IsMember({"N", "V", "S"}));
    app.add_option("--repeat", repeat, "timed calls")->check(CLI::PositiveNumber);
    app.add_option("--seed", seed, "seed of the matrix (tessera-tester's --seed)");
    app.add_option("--threads", threads, "OpenBLAS threads (default: the BLAS library's own)")->check(CLI::NonNegativeNumber);
    app.add_option("--check", check, "full (O(n^3)), random (O(n^2)) or auto (full up to n = 4096)")
        ->check(CLI::IsMember({"auto", "full", "random"}));
    if (auto rc = tool::parse_cli(app, argc, argv, "eig_lapack")) return *rc;
    if (threads > 0) detail::set_blas_num_threads(threads);
    const bool svd = op == "gesdd";
    if ((svd && jobz == "V") || (!svd && jobz == "S"))
        return std::fprintf(stderr, "eig_lapack: --jobz %s does not apply to %s\n", jobz.c_str(), op.c_str()), tool::kRefused;
    const bool vectors = jobz != "N", full = check == "full" || (check == "auto" && n <= 4096);
    detail::require_host_arrays("--n " + std::to_string(n), n, n, sizeof(double), (full ? 6 : 3) + (svd ? 2 : 0));
    const std::vector<double> a = check::random_matrix<double>(n, n, n, seed);  // the tester's matrix
    const double n3 = double(n) * double(n) * double(n);
    const double flops = svd ? (vectors ? 20.0 / 3.0 : 8.0 / 3.0) * n3 : (vectors ? 4.0 : 4.0 / 3.0) * n3;
    std::vector<double> f, w(static_cast<size_t>(n)), u(svd && vectors ? size_t(n * n) : 1), vt(u.size());
    std::printf("op,prec,m,n,k,nb,time_s,gflops,error,status\n");
    bool ok = true;
    for (int64_t r = 0; r < repeat; ++r) {
        f = a;
        const auto t0 = std::chrono::steady_clock::now();
        const int info = svd ? LAPACKE_dgesdd(LAPACK_COL_MAJOR, jobz[0], int(n), int(n), f.data(), int(n), w.data(),
                                              u.data(), vectors ? int(n) : 1, vt.data(), vectors ? int(n) : 1)
                             : LAPACKE_dsyevd(LAPACK_COL_MAJOR, jobz[0], 'L', int(n), f.data(), int(n), w.data());
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        double error = NAN;
        std::string status = "unchecked";
        if (r + 1 == repeat || info != 0) {
            if (info == 0 && svd) {
                error = gesdd_error(n, a, w, vectors ? &u : nullptr, vectors ? &vt : nullptr, full);
            } else if (info == 0) {
                long double sum = 0, trace = 0;
                for (int64_t i = 0; i < n; ++i) sum += w[size_t(i)], trace += a[size_t(i + i * n)];
                const double norm1 = LAPACKE_dlansy(LAPACK_COL_MAJOR, '1', 'L', int(n), a.data(), int(n));
                error = check::ratio(double(std::abs(sum - trace)), norm1 * double(n) * check::eps<double>());
                if (vectors && full) {
                    error = worst(error, check::eig_residual<double>(Uplo::Lower, n, a.data(), n, f.data(), n, w.data()));
                    error = worst(error, check::orthogonality<double>(n, f.data(), n));
                } else if (vectors) {
                    error = worst(error, random_residual(n, a, f, w));
                }
            }
            const bool pass = info == 0 && check::passes(error);
            status = pass ? "pass" : "FAILED";
            if (info != 0) status += " (info=" + std::to_string(info) + ")";
            ok = ok && pass;
        }
        std::printf("lapacke_%s,d,%lld,%lld,0,0,%.6f,%.2f,%.3g,%s\n", op.c_str(), (long long)n, (long long)n, s,
                    flops / s * 1e-9, error, status.c_str());
        std::fflush(stdout);
    }
    return ok ? tool::kOk : tool::kFailed;
}

}  // namespace

int main(int argc, char** argv) {
    return tool::guarded_main("eig_lapack", [&] { return peer_main(argc, argv); });
}
