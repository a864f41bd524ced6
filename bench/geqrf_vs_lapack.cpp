// Tile QR (geqrf) on Tessera's CPU workers against OpenBLAS's threaded LAPACKE_dgeqrf on the same matrix,
// checked with the residuals of docs/architecture.md#numerical-checks, ‖A − Q·R‖ / (m·‖A‖·eps) and
// ‖I − Qᵀ·Q‖ / (m·eps) (Q formed by Tessera's ungqr). One process, --repeat rounds; each round times the
// reference (BLAS on --threads threads, no StarPU worker alive) and then Tessera (a Runtime started for
// the round, BLAS single-threaded inside its workers), so that load from other processes hits both alike.
// Prints every round, then the median and the best of the rounds, GFLOP/s and the ratio OpenBLAS time /
// ours.
#include <CLI/CLI.hpp>
#include <lapacke.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "examples/common/checks_qr.hpp"
#include "examples/common/cli_parse.hpp"
#include "examples/common/tool_main.hpp"
#include "examples/tester/tester.hpp"
#include "runtime/blas_threads.hpp"
#include "runtime/host_memory.hpp"
#include "tessera/tessera.hpp"

using namespace tessera;

static void print(const char* what, double seconds, double flops, double ref_seconds) {
    std::printf("%-38s %9.4f s %9.2f GFLOP/s", what, seconds, flops / seconds * 1e-9);
    if (ref_seconds > 0) std::printf("  ratio %5.2f", ref_seconds / seconds);
    std::printf("\n");
}

// Exit status (examples/common/tool_main.hpp): 0 every result within the residual threshold; 1 one
// was not, or a task failed; 2 refused: bad arguments or more memory than is available.
static int bench_main(int argc, char** argv) {
    CLI::App app{"Tessera vs OpenBLAS on the CPU: dgeqrf"};
    int64_t m = -1, n = 4096, nb = 0, ib = 0;  // 0: the tuned ones for dgeqrf on this machine (tuned_tile)
    int repeat = 3, threads = 2;
    bool check = true, reference = true;
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    const auto lapack_int_range = CLI::Range(int64_t(1), int64_t(INT32_MAX));  // LAPACKE's int
    app.add_option("--n", n, "columns (and rows unless --m)")->check(lapack_int_range);
    app.add_option("--m", m, "rows (default n)")->check(lapack_int_range);
    app.add_option("--nb", nb, "tile size (default: tuned)")->check(lapack_int_range);
    app.add_option("--ib", ib, "inner block size (default: tuned)")->check(lapack_int_range);
    app.add_option("--repeat", repeat, "rounds (median and best reported)")->check(CLI::PositiveNumber);
    app.add_option("--threads", threads, "OpenBLAS threads for the reference (and the checks)")
        ->check(CLI::PositiveNumber);
    app.add_flag("!--no-check", check, "skip the residual checks");
    app.add_flag("!--no-reference", reference, "skip OpenBLAS (e.g. to sweep nb and ib)");
    if (auto rc = tool::parse_cli(app, argc, argv, "geqrf_vs_lapack")) return *rc;
    if (m < 0) m = n;
    // a and the reference's result as LAPACK arrays, A in tiles, the check's Q and copies.
    detail::require_host_arrays("--m " + std::to_string(m) + " --n " + std::to_string(n), m, n, sizeof(double), 6);
    const int64_t k = std::min(m, n);
    const double flops = m >= n ? 2.0 * m * n * n - 2.0 * n * n * n / 3 : 2.0 * n * m * m - 2.0 * m * m * m / 3;
    const auto a = check::random_matrix<double>(m, n, m, 1);
    std::vector<double> f(a.size()), tau(size_t(std::max<int64_t>(k, 1)));
    std::vector<double> ref, ours, in_place;
    bool ok = true;
    for (int round = 0; round < repeat; ++round) {
        if (reference) {
            detail::set_blas_num_threads(threads);
            f = a;
            ref.push_back(tester::time_it(
                [&] { LAPACKE_dgeqrf(LAPACK_COL_MAJOR, int(m), int(n), f.data(), int(m), tau.data()); }));
            print("OpenBLAS LAPACKE_dgeqrf", ref.back(), flops, ref.back());
        }
        Runtime rt;
        if (round == 0) {
            const TileChoice tuned = tuned_tile("dgeqrf", std::max(m, n));  // what geqrf takes by default (its largest dimension)
            const char* source = nb == 0 && ib == 0 ? tuned.source.c_str() : "--nb/--ib";
            if (nb == 0) nb = tuned.nb;
            if (ib == 0) ib = std::min(tuned.ib, nb);
            std::printf("m = %lld, n = %lld, nb = %lld, ib = %lld (%s), OpenBLAS threads = %d\n", (long long)m,
                        (long long)n, (long long)nb, (long long)ib, source, threads);
            std::printf("Tessera: %d CPU workers, scheduler %s\n", rt.cpu_workers(), rt.scheduler().c_str());
        }
        // Tile form: the matrix is already in tiles, only the factorization is timed.
        TileMatrix<double> A(m, n, nb);
        A.fill_from_lapack(a.data(), m);
        Runtime::wait_all();
        QRFactors<double> F;
        ours.push_back(tester::time_it([&] { F = geqrf(A, {.nb = nb, .ib = ib}); }));
        print("Tessera geqrf (tiles)", ours.back(), flops, reference ? ref.back() : 0);
        // On the LAPACK array in place (TileMatrix::view, what the lapack:: forms use on CPUs): the
        // factorization and the wait for every tile back in the array are timed.
        f = a;
        in_place.push_back(tester::time_it([&] {
            auto V = TileMatrix<double>::view(f.data(), m, n, m, nb);
            QRFactors<double> G = geqrf(V, {.ib = ib});
            V.acquire_host();
        }));
        print("Tessera geqrf (LAPACK array in place)", in_place.back(), flops, reference ? ref.back() : 0);
        if (!check || round + 1 < repeat) continue;
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
        ok = check::passes(res) && check::passes(orth);
        std::printf("check: ||A - QR|| / (m ||A|| eps) = %.3g, ||I - Q'Q|| / (m eps) = %.3g  %s\n", res, orth,
                    ok ? "pass" : "FAILED");
    }
    auto median = [](std::vector<double> t) {
        std::sort(t.begin(), t.end());
        return t[t.size() / 2];
    };
    auto best = [](const std::vector<double>& t) { return *std::min_element(t.begin(), t.end()); };
    std::printf("--- %d rounds\n", repeat);
    if (reference) print("OpenBLAS median", median(ref), flops, median(ref));
    print("Tessera median", median(ours), flops, reference ? median(ref) : 0);
    print("Tessera in place median", median(in_place), flops, reference ? median(ref) : 0);
    if (reference) print("OpenBLAS best", best(ref), flops, best(ref));
    print("Tessera best", best(ours), flops, reference ? best(ref) : 0);
    return ok ? tool::kOk : tool::kFailed;
}

int main(int argc, char** argv) {
    return tool::guarded_main("geqrf_vs_lapack", [&] { return bench_main(argc, argv); });
}

