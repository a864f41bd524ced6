// Complex against real on the CPU: gemm, potrf and getrf in z and d (or c and s with --real s) on
// Tessera's CPU workers and on OpenBLAS's own threaded cblas_xgemm, LAPACKE_xpotrf and LAPACKE_xgetrf,
// each result checked with the scaled residuals of docs/architecture.md#numerical-checks. The ratio
// Tessera / OpenBLAS of a complex operation is meant to equal the real one's (issue 15); the last
// column prints the two side by side.
// One process: every reference runs first with the BLAS on `--threads` threads, then Tessera starts
// its Runtime (BLAS single-threaded inside its workers). Median of --repeat runs; GFLOP/s count a
// complex multiply-add as 4 real flops (gemm 2n³, potrf n³/3, getrf 2n³/3, times 4 in complex).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <complex>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_lu.hpp"
#include "examples/common/cli_parse.hpp"
#include "examples/common/tool_main.hpp"
#include "examples/tester/tester.hpp"
#include "kernels/cpu/blas.hpp"
#include "kernels/cpu/lu.hpp"
#include "runtime/blas_threads.hpp"
#include "runtime/host_memory.hpp"
#include "tessera/lu.hpp"
#include "tessera/tessera.hpp"

using namespace tessera;

namespace {

/// One measured operation: seconds and scaled residual.
struct Timing {
    double seconds = 0, error = 0;
};

/// The operands of one precision, as LAPACK arrays (n×n, lda = n).
template <class T>
struct Operands {
    explicit Operands(int64_t n)
        : spd(check::random_spd<T>(n, n, 1)), a(check::random_matrix<T>(n, n, n, 2)),
          b(check::random_matrix<T>(n, n, n, 3)), c0(check::random_matrix<T>(n, n, n, 4)) {}
    std::vector<T> spd, a, b, c0;
};

/// OpenBLAS, threaded: gemm C = A·B − C0, potrf of the SPD (HPD) matrix, getrf of A.
template <class T>
std::map<std::string, Timing> reference(const Operands<T>& o, int64_t n, int repeat) {
    std::map<std::string, Timing> r;
    std::vector<T> f, c;
    r["gemm"].seconds = tester::median_seconds(repeat, [&] { c = o.c0; }, [&] {
        cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, n, n, n, T(1), o.a.data(), n, o.b.data(), n, T(-1), c.data(), n);
    });
    r["gemm"].error = check::gemm_residual(Trans::NoTrans, Trans::NoTrans, n, n, n, T(1), o.a.data(), n, o.b.data(), n,
                                           T(-1), o.c0.data(), c.data(), n);
    r["potrf"].seconds = tester::median_seconds(repeat, [&] { f = o.spd; }, [&] { cpu::potrf<T>(Uplo::Lower, n, f.data(), n); });
    r["potrf"].error = check::potrf_residual(Uplo::Lower, n, o.spd.data(), n, f.data(), n);
    std::vector<int> ipiv(static_cast<size_t>(n));
    r["getrf"].seconds = tester::median_seconds(repeat, [&] { f = o.a; }, [&] { cpu::getrf<T>(n, n, f.data(), n, ipiv.data()); });
    const std::vector<int64_t> ipiv64(ipiv.begin(), ipiv.end());
    r["getrf"].error = check::getrf_residual(n, n, o.a.data(), n, f.data(), n, ipiv64.data());
    return r;
}

/// Tessera's tile algorithms on the same operands (tiles filled untimed before each run).
template <class T>
std::map<std::string, Timing> ours(const Operands<T>& o, int64_t n, int64_t nb, int repeat) {
    std::map<std::string, Timing> r;
    std::vector<T> f(size_t(n * n));
    TileMatrix<T> A(n, n, nb), B(n, n, nb), C(n, n, nb);
    B.fill_from_lapack(o.b.data(), n);
    r["gemm"].seconds = tester::median_seconds(
        repeat, [&] { A.fill_from_lapack(o.a.data(), n); C.fill_from_lapack(o.c0.data(), n); Runtime::wait_all(); },
        [&] { gemm(Trans::NoTrans, Trans::NoTrans, T(1), A, B, T(-1), C); });
    C.to_lapack(f.data(), n);
    r["gemm"].error = check::gemm_residual(Trans::NoTrans, Trans::NoTrans, n, n, n, T(1), o.a.data(), n, o.b.data(), n,
                                           T(-1), o.c0.data(), f.data(), n);
    r["potrf"].seconds = tester::median_seconds(repeat, [&] { A.fill_from_lapack(o.spd.data(), n); Runtime::wait_all(); },
                                        [&] { potrf(Uplo::Lower, A); });
    A.to_lapack(f.data(), n);
    r["potrf"].error = check::potrf_residual(Uplo::Lower, n, o.spd.data(), n, f.data(), n);
    std::vector<int64_t> ipiv;
    r["getrf"].seconds = tester::median_seconds(repeat, [&] { A.fill_from_lapack(o.a.data(), n); Runtime::wait_all(); },
                                        [&] { getrf(A, ipiv); });
    A.to_lapack(f.data(), n);
    r["getrf"].error = check::getrf_residual(n, n, o.a.data(), n, f.data(), n, ipiv.data());
    return r;
}

double real_flops(const std::string& op, double n) {
    return op == "gemm" ? 2 * n * n * n : op == "potrf" ? n * n * n / 3 : 2 * n * n * n / 3;
}

template <class R>
int run(int64_t n, int64_t nb, int repeat, int threads) {
    using C = std::complex<R>;
    // Two precisions' operands (5 arrays each) and their tile copies (3 each).
    detail::require_host_arrays("--n " + std::to_string(n), n, n, sizeof(R) + sizeof(C), 8);
    const Operands<R> real(n);
    const Operands<C> cplx(n);
    detail::set_blas_num_threads(threads);
    const auto ref_r = reference(real, n, repeat), ref_c = reference(cplx, n, repeat);
    Runtime rt;
    std::printf("n = %lld, nb = %lld, OpenBLAS threads = %d; Tessera: %d CPU workers, scheduler %s\n", (long long)n,
                (long long)nb, threads, rt.cpu_workers(), rt.scheduler().c_str());
    const auto ours_r = ours(real, n, nb, repeat), ours_c = ours(cplx, n, nb, repeat);
    const char pr = prec_letter<R>(), pc = prec_letter<C>();
    std::printf("%-7s %12s %12s %7s %10s %10s  %s\n", "op", "OpenBLAS", "Tessera", "ratio", "err_ref", "err_ours",
                "GFLOP/s; ratio = Tessera / OpenBLAS");
    bool ok = true;
    std::map<std::string, double> ratio;
    for (const char* op : {"gemm", "potrf", "getrf"})
        for (const bool complex : {false, true}) {
            const Timing& ref = (complex ? ref_c : ref_r).at(op);
            const Timing& us = (complex ? ours_c : ours_r).at(op);
            const double fl = real_flops(op, double(n)) * (complex ? 4 : 1);
            const double rat = ref.seconds / us.seconds;
            ratio[std::string(1, complex ? pc : pr) + op] = rat;
            const bool pass = check::passes(ref.error) && check::passes(us.error);
            ok = ok && pass;
            std::printf("%c%-6s %12.2f %12.2f %7.2f %10.3g %10.3g  %s\n", complex ? pc : pr, op, fl / ref.seconds * 1e-9,
                        fl / us.seconds * 1e-9, rat, ref.error, us.error, pass ? "pass" : "FAILED");
        }
    for (const char* op : {"gemm", "potrf", "getrf"})
        std::printf("%s: ratio %c %.2f, %c %.2f (complex / real %.2f)\n", op, pc, ratio[pc + std::string(op)], pr,
                    ratio[pr + std::string(op)], ratio[pc + std::string(op)] / ratio[pr + std::string(op)]);
    return ok ? tool::kOk : tool::kFailed;
}

int bench_main(int argc, char** argv) {
    CLI::App app{"Tessera vs OpenBLAS on the CPU, complex next to real: gemm, potrf, getrf"};
    int64_t n = 4096, nb = 320;
    int repeat = 3, threads = 2;
    std::string real = "d";
    app.add_option("--n", n, "matrix order")->check(CLI::Range(int64_t(1), int64_t(INT32_MAX)));
    app.add_option("--nb", nb, "tile size")->check(CLI::Range(int64_t(1), int64_t(INT32_MAX)));
    app.add_option("--repeat", repeat, "runs per measurement (median reported)")->check(CLI::PositiveNumber);
    app.add_option("--threads", threads, "OpenBLAS threads for the reference")->check(CLI::PositiveNumber);
    app.add_option("--real", real, "d (d and z) or s (s and c)")->check(CLI::IsMember({"s", "d"}));
    if (auto rc = tool::parse_cli(app, argc, argv, "complex_vs_lapack")) return *rc;
    return real == "s" ? run<float>(n, nb, repeat, threads) : run<double>(n, nb, repeat, threads);
}

}  // namespace

int main(int argc, char** argv) {
    return tool::guarded_main("complex_vs_lapack", [&] { return bench_main(argc, argv); });
}
