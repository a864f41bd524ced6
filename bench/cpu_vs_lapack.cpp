// Tile Cholesky and gemm on Tessera's CPU workers against OpenBLAS's own threaded LAPACKE_dpotrf and
// cblas_dgemm on the same matrix, checked. One process: the reference runs first with the BLAS on
// `--threads` threads, then Tessera starts its Runtime (BLAS single-threaded inside its workers).
// Prints GFLOP/s (median of --repeat runs) and the ratio ours / OpenBLAS.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/cli_parse.hpp"
#include "examples/common/tool_main.hpp"
#include "examples/tester/tester.hpp"
#include "kernels/cpu/blas.hpp"
#include "runtime/blas_threads.hpp"
#include "runtime/host_memory.hpp"
#include "tessera/tessera.hpp"

using namespace tessera;

struct Row {
    const char* what;
    double seconds, flops, error;
};

static void print(const Row& r, double ref_seconds) {
    std::printf("%-34s %9.4f s %9.2f GFLOP/s  ratio %5.2f  error %8.3g %s\n", r.what, r.seconds, r.flops / r.seconds * 1e-9,
                ref_seconds / r.seconds, r.error, check::passes(r.error) ? "pass" : "FAILED");
}

// Exit status (examples/common/tool_main.hpp): 0 every result within the residual threshold; 1 one
// was not, or a task failed; 2 refused: bad arguments or more memory than is available.
static int bench_main(int argc, char** argv) {
    CLI::App app{"Tessera vs OpenBLAS on the CPU: dpotrf and dgemm"};
    int64_t n = 4096, nb = 0;  // 0: the tuned tile size of each routine (tuned_tile)
    int repeat = 3, threads = 2;
    app.add_option("--n", n, "matrix order")->check(CLI::Range(int64_t(1), int64_t(INT32_MAX)));  // LAPACKE's int
    app.add_option("--nb", nb, "tile size of both (default: tuned per routine on this machine)")->check(CLI::Range(int64_t(1), int64_t(INT32_MAX)));
    app.add_option("--repeat", repeat, "runs per measurement (median reported)")->check(CLI::PositiveNumber);
    app.add_option("--threads", threads, "OpenBLAS threads for the reference")->check(CLI::PositiveNumber);
    if (auto rc = tool::parse_cli(app, argc, argv, "cpu_vs_lapack")) return *rc;
    // a, b, c0 and the two results as LAPACK arrays, A, B and C in tiles.
    detail::require_host_arrays("--n " + std::to_string(n), n, n, sizeof(double), 8);

    const double potrf_flops = double(n) * n * n / 3.0, gemm_flops = 2.0 * double(n) * n * n;
    const auto a = check::random_spd<double>(n, n, 1);
    const auto b = check::random_matrix<double>(n, n, n, 2), c0 = check::random_matrix<double>(n, n, n, 3);
    std::vector<double> f(a.size()), c(c0.size());
    std::vector<Row> rows;

    // Reference: OpenBLAS with `threads` threads, before any StarPU worker exists.
    detail::set_blas_num_threads(threads);
    const double ref_potrf = tester::median_seconds(repeat, [&] { f = a; },
                                            [&] { LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', int(n), f.data(), int(n)); });
    const double ref_potrf_err = check::potrf_residual(Uplo::Lower, n, a.data(), n, f.data(), n);
    const double ref_gemm = tester::median_seconds(repeat, [&] { c = c0; }, [&] {
        cpu::gemm<double>(Trans::NoTrans, Trans::NoTrans, n, n, n, 1.0, a.data(), n, b.data(), n, -1.0, c.data(), n);
    });
    const double ref_gemm_err = check::gemm_residual(Trans::NoTrans, Trans::NoTrans, n, n, n, 1.0, a.data(), n, b.data(), n,
                                                     -1.0, c0.data(), c.data(), n);

    Runtime rt;
    const TileChoice tuned_potrf = tuned_tile("dpotrf", n), tuned_gemm = tuned_tile("dgemm", n);  // what lapack:: takes
    const int64_t nb_potrf = nb > 0 ? nb : tuned_potrf.nb, nb_gemm = nb > 0 ? nb : tuned_gemm.nb;
    std::printf("n = %lld, OpenBLAS threads = %d; Tessera: %d CPU workers, scheduler %s\n", (long long)n, threads,
                rt.cpu_workers(), rt.scheduler().c_str());
    std::printf("nb: dpotrf %lld (%s), dgemm %lld (%s)\n", (long long)nb_potrf, nb > 0 ? "--nb" : tuned_potrf.source.c_str(),
                (long long)nb_gemm, nb > 0 ? "--nb" : tuned_gemm.source.c_str());
    const bool in_place = rt.opencl_workers() == 0;  // LapackLayout::Auto
    // Tessera, tile form: the matrix is already in tiles, only the factorization is timed.
    TileMatrix<double> A(n, n, nb_potrf);
    const double tile_potrf = tester::median_seconds(repeat, [&] { A.fill_from_lapack(a.data(), n); Runtime::wait_all(); },
                                             [&] { potrf(Uplo::Lower, A); });
    A.to_lapack(f.data(), n);
    const double tile_potrf_err = check::potrf_residual(Uplo::Lower, n, a.data(), n, f.data(), n);
    const double lapack_potrf = tester::median_seconds(repeat, [&] { f = a; }, [&] { lapack::potrf<double>('L', n, f.data(), n, {.nb = nb_potrf}); });
    const double lapack_potrf_err = check::potrf_residual(Uplo::Lower, n, a.data(), n, f.data(), n);
    TileMatrix<double> G(n, n, nb_gemm), B(n, n, nb_gemm), C(n, n, nb_gemm);
    G.fill_from_lapack(a.data(), n);
    B.fill_from_lapack(b.data(), n);
    const double tile_gemm = tester::median_seconds(repeat, [&] { C.fill_from_lapack(c0.data(), n); Runtime::wait_all(); },
                                            [&] { gemm(Trans::NoTrans, Trans::NoTrans, 1.0, G, B, -1.0, C); });
    C.to_lapack(c.data(), n);
    const double tile_gemm_err = check::gemm_residual(Trans::NoTrans, Trans::NoTrans, n, n, n, 1.0, a.data(), n, b.data(), n,
                                                      -1.0, c0.data(), c.data(), n);
    const double lapack_gemm = tester::median_seconds(repeat, [&] { c = c0; }, [&] {
        lapack::gemm<double>('N', 'N', n, n, n, 1.0, a.data(), n, b.data(), n, -1.0, c.data(), n, {.nb = nb_gemm});
    });
    const double lapack_gemm_err = check::gemm_residual(Trans::NoTrans, Trans::NoTrans, n, n, n, 1.0, a.data(), n, b.data(), n,
                                                        -1.0, c0.data(), c.data(), n);

    print({"OpenBLAS LAPACKE_dpotrf", ref_potrf, potrf_flops, ref_potrf_err}, ref_potrf);
    print({"Tessera potrf (tiles)", tile_potrf, potrf_flops, tile_potrf_err}, ref_potrf);
    print({in_place ? "Tessera lapack::potrf (in place)" : "Tessera lapack::potrf (tile copy)", lapack_potrf, potrf_flops, lapack_potrf_err}, ref_potrf);
    print({"OpenBLAS cblas_dgemm", ref_gemm, gemm_flops, ref_gemm_err}, ref_gemm);
    print({"Tessera gemm (tiles)", tile_gemm, gemm_flops, tile_gemm_err}, ref_gemm);
    print({in_place ? "Tessera lapack::gemm (in place)" : "Tessera lapack::gemm (tile copy)", lapack_gemm, gemm_flops, lapack_gemm_err}, ref_gemm);
    // What no factorization can pass on these cores: its flop rate is bounded by the gemm rate.
    const double gemm_rate = gemm_flops / ref_gemm;
    std::printf("potrf GFLOP/s as a fraction of OpenBLAS dgemm's (the ceiling): OpenBLAS %.2f, Tessera tiles %.2f\n",
                potrf_flops / ref_potrf / gemm_rate, potrf_flops / tile_potrf / gemm_rate);
    bool ok = true;
    for (double err : {ref_potrf_err, tile_potrf_err, lapack_potrf_err, ref_gemm_err, tile_gemm_err, lapack_gemm_err})
        ok = ok && check::passes(err);
    return ok ? tool::kOk : tool::kFailed;
}

int main(int argc, char** argv) {
    return tool::guarded_main("cpu_vs_lapack", [&] { return bench_main(argc, argv); });
}

