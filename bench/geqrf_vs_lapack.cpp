// Tile QR (geqrf) on Tessera's CPU workers against OpenBLAS's threaded LAPACKE_dgeqrf on the same
// matrix, checked with DESIGN.md's residuals ‖A − Q·R‖ / (m·‖A‖·eps) and ‖I − Qᵀ·Q‖ / (m·eps)
// (Q formed by Tessera's ungqr). One process: the reference runs first with the BLAS on --threads
// threads, then Tessera starts its Runtime (BLAS single-threaded inside its workers).
// Prints seconds and GFLOP/s (median of --repeat runs) and the ratio OpenBLAS time / ours.
#include <CLI/CLI.hpp>
#include <lapacke.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#include "examples/common/checks_qr.hpp"
#include "examples/tester/tester.hpp"
#include "runtime/blas_threads.hpp"
#include "tessera/tessera.hpp"

using namespace tessera;

// Median seconds of `repeat` runs of body(), each preceded by an untimed setup().
static double median_seconds(int repeat, const std::function<void()>& setup, const std::function<void()>& body) {
    std::vector<double> t;
    for (int r = 0; r < repeat; ++r) {
        setup();
        t.push_back(tester::time_it(body));
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

static void print(const char* what, double seconds, double flops, double ref_seconds) {
    std::printf("%-32s %9.4f s %9.2f GFLOP/s", what, seconds, flops / seconds * 1e-9);
    if (ref_seconds > 0) std::printf("  ratio %5.2f", ref_seconds / seconds);
    std::printf("\n");
}

int main(int argc, char** argv) {
    CLI::App app{"Tessera vs OpenBLAS on the CPU: dgeqrf"};
    int64_t m = -1, n = 4096, nb = 256, ib = 32;
    int repeat = 3, threads = 2;
    bool check = true, reference = true;
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    app.add_option("--n", n, "columns (and rows unless --m)");
    app.add_option("--m", m, "rows (default n)");
    app.add_option("--nb", nb, "tile size");
    app.add_option("--ib", ib, "inner block size");
    app.add_option("--repeat", repeat, "runs per measurement (median reported)");
    app.add_option("--threads", threads, "OpenBLAS threads for the reference (and the checks)");
    app.add_flag("!--no-check", check, "skip the residual checks");
    app.add_flag("!--no-reference", reference, "skip OpenBLAS (e.g. to sweep nb and ib)");
    CLI11_PARSE(app, argc, argv);
    if (m < 0) m = n;
    const int64_t k = std::min(m, n);
    const double flops = m >= n ? 2.0 * m * n * n - 2.0 * n * n * n / 3 : 2.0 * n * m * m - 2.0 * m * m * m / 3;
    const auto a = check::random_matrix<double>(m, n, m, 1);
    std::vector<double> f(a.size()), tau(size_t(std::max<int64_t>(k, 1)));

    // Reference: OpenBLAS with `threads` threads, before any StarPU worker exists.
    detail::set_blas_num_threads(threads);
    double ref = 0;
    if (reference)
        ref = median_seconds(repeat, [&] { f = a; },
                             [&] { LAPACKE_dgeqrf(LAPACK_COL_MAJOR, int(m), int(n), f.data(), int(m), tau.data()); });

    Runtime rt;
    std::printf("m = %lld, n = %lld, nb = %lld, ib = %lld, OpenBLAS threads = %d; Tessera: %d CPU workers, scheduler %s\n",
                (long long)m, (long long)n, (long long)nb, (long long)ib, threads, rt.cpu_workers(), rt.scheduler().c_str());
    if (reference) print("OpenBLAS LAPACKE_dgeqrf", ref, flops, ref);

    // Tessera, tile form: the matrix is already in tiles, only the factorization is timed.
    TileMatrix<double> A(m, n, nb);
    QRFactors<double> F;
    const double ours = median_seconds(repeat, [&] { A.fill_from_lapack(a.data(), m); Runtime::wait_all(); },
                                       [&] { F = geqrf(A, {.nb = nb, .ib = ib}); });
    print("Tessera geqrf (tiles)", ours, flops, ref);
    if (!check) return 0;

    // Q (m×k) by ungqr; the residuals use the BLAS on `threads` threads while the workers are idle.
    TileMatrix<double> Q(m, k, nb);
    ungqr(A, F, Q);
    std::vector<double> q(size_t(m * k));
    Q.to_lapack(q.data(), m);
    A.to_lapack(f.data(), m);
    detail::set_blas_num_threads(threads);
    const double res = check::qr_residual(m, n, a.data(), m, q.data(), m, f.data(), m);
    const double orth = check::orthogonality_residual(m, k, q.data(), m);
    detail::set_blas_num_threads(1);
    const bool ok = res <= check::kThreshold && orth <= check::kThreshold;
    std::printf("check: ||A - QR|| / (m ||A|| eps) = %.3g, ||I - Q'Q|| / (m eps) = %.3g  %s\n", res, orth,
                ok ? "pass" : "FAILED");
    if (reference) std::printf("ratio Tessera / OpenBLAS GFLOP/s: %.2f\n", ref / ours);
    return ok ? 0 : 1;
}
