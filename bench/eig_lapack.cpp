// LAPACKE_dsyevd (OpenBLAS, --threads threads) on tessera-tester's matrix, the peer of
// bench/eig_vs_lapack.sh: the seeded random matrix of `tessera-tester syevd --seed S` (its lower
// triangle, as the tester's default --uplo L), --repeat timed calls, each on a fresh copy (the copy
// untimed). Prints one row per call in tessera-tester's --csv columns
// (op,prec,m,n,k,nb,time_s,gflops,error,status; op "lapacke_syevd", nb 0) so that the script reads
// both alike. Flops as the tester counts them: 4n³/3 values only, 4n³ with vectors.
// The last call is checked (the others are "unchecked"): with --check full (the default up to
// n = 4096) ‖A − Z·Λ·Zᵀ‖₁ / (n·‖A‖₁·eps) and ‖I − Zᵀ·Z‖₁ / (n·eps) (check::eig_residual,
// check::orthogonality), with --check random ‖A·X − Z·(Λ·(Zᵀ·X))‖∞ / (‖A‖∞·‖X‖∞·n·eps) over 4 random
// vectors (O(n²)); in both, |Σw − trace(A)| / (n·‖A‖₁·eps), the values-only check.
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

int peer_main(int argc, char** argv) {
    CLI::App app{"LAPACKE_dsyevd on tessera-tester's matrix (the peer of bench/eig_vs_lapack.sh)"};
    int64_t n = 4096, repeat = 3;
    uint64_t seed = 42;
    int threads = 0;
    std::string jobz = "V", check = "auto";
    app.add_option("--n", n, "order")->check(CLI::Range(int64_t(1), int64_t(46340)));  // n² within LAPACKE's int
    app.add_option("--jobz", jobz, "N (values) or V (and vectors)")->check(CLI::IsMember({"N", "V"}));
    app.add_option("--repeat", repeat, "timed calls")->check(CLI::PositiveNumber);
    app.add_option("--seed", seed, "seed of the matrix (tessera-tester's --seed)");
    app.add_option("--threads", threads, "OpenBLAS threads (default: the BLAS library's own)")->check(CLI::NonNegativeNumber);
    app.add_option("--check", check, "full (O(n^3)), random (O(n^2)) or auto (full up to n = 4096)")
        ->check(CLI::IsMember({"auto", "full", "random"}));
    if (auto rc = tool::parse_cli(app, argc, argv, "eig_lapack")) return *rc;
    if (threads > 0) detail::set_blas_num_threads(threads);
    const bool vectors = jobz == "V", full = check == "full" || (check == "auto" && n <= 4096);
    detail::require_host_arrays("--n " + std::to_string(n), n, n, sizeof(double), full ? 6 : 3);
    const std::vector<double> a = check::random_matrix<double>(n, n, n, seed);  // the tester's matrix
    const double flops = (vectors ? 4.0 : 4.0 / 3.0) * double(n) * double(n) * double(n);
    std::vector<double> f, w(static_cast<size_t>(n));
    std::printf("op,prec,m,n,k,nb,time_s,gflops,error,status\n");
    bool ok = true;
    for (int64_t r = 0; r < repeat; ++r) {
        f = a;
        const auto t0 = std::chrono::steady_clock::now();
        const int info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, jobz[0], 'L', int(n), f.data(), int(n), w.data());
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        double error = NAN;
        std::string status = "unchecked";
        if (r + 1 == repeat || info != 0) {
            if (info == 0) {
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
        std::printf("lapacke_syevd,d,%lld,%lld,0,0,%.6f,%.2f,%.3g,%s\n", (long long)n, (long long)n, s,
                    flops / s * 1e-9, error, status.c_str());
        std::fflush(stdout);
    }
    return ok ? tool::kOk : tool::kFailed;
}

}  // namespace

int main(int argc, char** argv) {
    return tool::guarded_main("eig_lapack", [&] { return peer_main(argc, argv); });
}
