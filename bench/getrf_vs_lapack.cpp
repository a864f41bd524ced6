// Tile LU with partial pivoting on Tessera's CPU workers against OpenBLAS's threaded LAPACKE_dgetrf
// on the same matrix, checked (‖P·A − L·U‖ / (n·‖A‖·eps)); also getrf_nopiv (on the matrix made
// diagonally dominant) and getrf_incpiv (checked through a solve) so that their cost relative to
// partial pivoting is known. One process: the reference runs first with the BLAS on `--threads`
// threads, then Tessera starts its Runtime (BLAS single-threaded inside its workers).
// Prints seconds and GFLOP/s (median of --repeat runs) and the ratio OpenBLAS time / ours.
#include <CLI/CLI.hpp>
#include <lapacke.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "examples/common/checks_lu.hpp"
#include "examples/common/cli_parse.hpp"
#include "examples/common/tool_main.hpp"
#include "examples/tester/tester.hpp"
#include "runtime/blas_threads.hpp"
#include "runtime/host_memory.hpp"
#include "tessera/tessera.hpp"

using namespace tessera;

static bool print(const char* what, double seconds, double flops, double error, double ref_seconds) {
    const bool ok = check::passes(error);
    std::printf("%-36s %9.4f s %9.2f GFLOP/s  ratio %5.2f  error %8.3g %s\n", what, seconds, flops / seconds * 1e-9,
                ref_seconds / seconds, error, ok ? "pass" : "FAILED");
    return ok;
}

// Exit status (examples/common/tool_main.hpp): 0 every result within the residual threshold; 1 one
// was not, or a task failed; 2 refused: bad arguments or more memory than is available.
static int bench_main(int argc, char** argv) {
    CLI::App app{"Tessera vs OpenBLAS on the CPU: dgetrf (and getrf_nopiv, getrf_incpiv)"};
    int64_t n = 4096, nb = 0, ib = 0;  // 0: the tuned ones (tuned_tile)
    int repeat = 3, threads = 2;
    bool variants = true;
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    const auto lapack_int_range = CLI::Range(int64_t(1), int64_t(INT32_MAX));  // LAPACKE's int
    app.add_option("--n", n, "matrix order")->check(lapack_int_range);
    app.add_option("--nb", nb, "tile size (default: tuned for dgetrf on this machine)")->check(lapack_int_range);
    app.add_option("--ib", ib, "inner block size of getrf_incpiv (default: tuned)")->check(lapack_int_range);
    app.add_option("--repeat", repeat, "runs per measurement (median reported)")->check(CLI::PositiveNumber);
    app.add_option("--threads", threads, "OpenBLAS threads for the reference")->check(CLI::PositiveNumber);
    app.add_flag("!--no-variants", variants, "skip getrf_nopiv and getrf_incpiv");
    if (auto rc = tool::parse_cli(app, argc, argv, "getrf_vs_lapack")) return *rc;
    // a and the results as LAPACK arrays, A in tiles, the incremental-pivoting factors.
    detail::require_host_arrays("--n " + std::to_string(n), n, n, sizeof(double), 5);

    const double flops = 2.0 * double(n) * n * n / 3.0;
    const auto a = check::random_matrix<double>(n, n, n, 1);
    std::vector<double> f(a.size());
    std::vector<int64_t> ipiv(static_cast<size_t>(n));
    bool ok = true;

    // Reference: OpenBLAS with `threads` threads, before any StarPU worker exists.
    detail::set_blas_num_threads(threads);
    std::vector<lapack_int> ref_piv(static_cast<size_t>(n));
    const double ref = tester::median_seconds(repeat, [&] { f = a; },
                                      [&] { LAPACKE_dgetrf(LAPACK_COL_MAJOR, int(n), int(n), f.data(), int(n), ref_piv.data()); });
    std::vector<int64_t> ref_ipiv(ref_piv.begin(), ref_piv.end());
    const double ref_err = check::getrf_residual(n, n, a.data(), n, f.data(), n, ref_ipiv.data());

    Runtime rt;
    const TileChoice tuned = tuned_tile("dgetrf", n);  // what getrf takes by default
    const char* source = nb == 0 && ib == 0 ? tuned.source.c_str() : "--nb/--ib";
    if (nb == 0) nb = tuned.nb;
    if (ib == 0) ib = std::min(tuned.ib, nb);
    std::printf("n = %lld, nb = %lld, ib = %lld (%s), OpenBLAS threads = %d; Tessera: %d CPU workers, scheduler %s\n",
                (long long)n, (long long)nb, (long long)ib, source, threads, rt.cpu_workers(), rt.scheduler().c_str());
    ok &= print("OpenBLAS LAPACKE_dgetrf", ref, flops, ref_err, ref);

    // Tessera, tile form: the matrix is already in tiles, only the factorization is timed.
    TileMatrix<double> A(n, n, nb);
    std::vector<int64_t> piv;
    const double tile = tester::median_seconds(repeat, [&] { A.fill_from_lapack(a.data(), n); Runtime::wait_all(); },
                                       [&] { getrf(A, piv); });
    A.to_lapack(f.data(), n);
    ok &= print("Tessera getrf (tiles)", tile, flops, check::getrf_residual(n, n, a.data(), n, f.data(), n, piv.data()), ref);
    std::printf("%-36s %s\n", "  ipiv identical to OpenBLAS's", piv == ref_ipiv ? "yes" : "no");
    const double lap = tester::median_seconds(repeat, [&] { f = a; }, [&] { lapack::getrf<double>(n, n, f.data(), n, ipiv.data(), {.nb = nb}); });
    ok &= print(rt.opencl_workers() == 0 ? "Tessera lapack::getrf (in place)" : "Tessera lapack::getrf (tile copy)", lap, flops, check::getrf_residual(n, n, a.data(), n, f.data(), n, ipiv.data()), ref);

    if (variants) {
        // No pivoting, on A + n·I (diagonally dominant, so the check is meaningful).
        const auto d = check::random_shifted<double>(n, n, n, 1, double(n));
        const double nopiv = tester::median_seconds(repeat, [&] { A.fill_from_lapack(d.data(), n); Runtime::wait_all(); },
                                            [&] { getrf_nopiv(A); });
        A.to_lapack(f.data(), n);
        ok &= print("Tessera getrf_nopiv (tiles)", nopiv, flops, check::getrf_residual(n, n, d.data(), n, f.data(), n, nullptr), ref);
        // Incremental pivoting, checked by solving with its factors.
        const auto b = check::random_matrix<double>(n, 1, n, 2);
        std::vector<double> x(b.size());
        TileMatrix<double> B(n, 1, nb);
        IncpivFactors<double> F;
        const double incpiv = tester::median_seconds(repeat, [&] { A.fill_from_lapack(a.data(), n); Runtime::wait_all(); },
                                             [&] { getrf_incpiv(A, F, {.nb = nb, .ib = ib}); });
        B.fill_from_lapack(b.data(), n);
        getrs_incpiv(A, F, B);
        B.to_lapack(x.data(), n);
        ok &= print("Tessera getrf_incpiv (tiles)", incpiv, flops,
                    check::solve_residual(Trans::NoTrans, n, n, 1, a.data(), n, x.data(), n, b.data(), n), ref);
        std::printf("time relative to Tessera getrf: nopiv %.2f, incpiv %.2f\n", nopiv / tile, incpiv / tile);
    }
    return ok ? tool::kOk : tool::kFailed;
}

int main(int argc, char** argv) {
    return tool::guarded_main("getrf_vs_lapack", [&] { return bench_main(argc, argv); });
}

