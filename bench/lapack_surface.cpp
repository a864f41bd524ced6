// The LAPACKE / CBLAS peer of bench/lapack_surface_vs_lapack.sh (OpenBLAS, --threads threads): one
// double-precision routine of issue 46's surface on tessera-tester's seeded matrices (the same seeds
// as the tester's op: A seed, B seed + 1, C seed + 2), --repeat timed calls, each on a fresh copy of
// its output operand (the copy untimed). Prints one row per call in tessera-tester's --csv columns
// (op,prec,m,n,k,nb,time_s,gflops,error,status; op "lapacke_<op>" or "cblas_<op>", nb 0) so that
// the script reads both alike; flops as the tester counts them.
//   gemm   cblas_dgemm   C = A·B + C, n×n (2n³)
//   symm   cblas_dsymm   Left, Lower, C = A·B + C (2n³)
//   syr2k  cblas_dsyr2k  Lower, NoTrans, C = A·Bᵀ + B·Aᵀ + C, k = n (2n³)
//   gelqf  LAPACKE_dgelqf  A = L·Q of the n×n A (4n³/3, the tester's count); checked by xLQT01's
//          ratios with Q formed by LAPACKE_dorglq after the timed calls
//   potri  LAPACKE_dpotri  Lower, from xPOTRF's factor of the SPD matrix (computed untimed; 2n³/3);
//          checked by xPOT03's ratio
//   getri  LAPACKE_dgetri  from xGETRF's factors (computed untimed; 4n³/3); xGET03's ratio
//   trtri  LAPACKE_dtrtri  Lower, NonUnit, the tester's well-conditioned triangular matrix (n³/3);
//          xTRT01's ratio
//   gecon  LAPACKE_dgecon  norm '1' from xGETRF's factors (computed untimed; 0 flops counted);
//          checked against the exact rcond (xGETRI on a copy) by check::rcond_error
// The last call is checked with the scaled residual the tester uses (examples/common/checks*.hpp);
// for the BLAS-3 routines that is a recomputation by the same CBLAS routine after the timed calls: a
// check of the peer's own run, not of CBLAS.
// Runs no StarPU. Exit status (examples/common/tool_main.hpp): 0 checked and passed, 1 a check failed
// or LAPACK's info ≠ 0, 2 bad arguments or more memory than is available.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_condition.hpp"
#include "examples/common/checks_inverse.hpp"
#include "examples/common/checks_lq.hpp"
#include "examples/common/cli_parse.hpp"
#include "examples/common/tool_main.hpp"
#include "kernels/cpu/blas.hpp"
#include "runtime/blas_threads.hpp"
#include "runtime/host_memory.hpp"

using namespace tessera;

namespace {

struct Case {
    const char* peer;                                  ///< the csv op name, "cblas_dsymm"
    double flops;                                      ///< per call
    std::function<int(std::vector<double>& out)> run;  ///< one call on `out` (a fresh copy), returns info
    std::function<double(const std::vector<double>& out)> error;  ///< the scaled residual of a result
    std::vector<double> initial;                       ///< the output operand before the call
};

Case make_case(const std::string& op, int64_t n, uint64_t seed) {
    const int N = int(n);
    const double n3 = double(n) * double(n) * double(n);
    auto a = std::make_shared<std::vector<double>>(check::random_matrix<double>(n, n, n, seed));
    auto b = std::make_shared<std::vector<double>>(check::random_matrix<double>(n, n, n, seed + 1));
    std::vector<double> c0 = check::random_matrix<double>(n, n, n, seed + 2);
    auto c0p = std::make_shared<std::vector<double>>(c0);
    if (op == "gemm")
        return {"cblas_dgemm", 2 * n3,
                [=](std::vector<double>& c) {
                    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0, a->data(), N, b->data(), N,
                                1.0, c.data(), N);
                    return 0;
                },
                [=](const std::vector<double>& c) {
                    return check::gemm_residual<double>(Trans::NoTrans, Trans::NoTrans, n, n, n, 1.0, a->data(), n,
                                                        b->data(), n, 1.0, c0p->data(), c.data(), n);
                },
                c0};
    if (op == "symm")
        return {"cblas_dsymm", 2 * n3,
                [=](std::vector<double>& c) {
                    cblas_dsymm(CblasColMajor, CblasLeft, CblasLower, N, N, 1.0, a->data(), N, b->data(), N, 1.0,
                                c.data(), N);
                    return 0;
                },
                [=](const std::vector<double>& c) {
                    return check::symm_residual<double>(false, Side::Left, Uplo::Lower, n, n, 1.0, a->data(), n,
                                                        b->data(), n, 1.0, c0p->data(), c.data(), n);
                },
                c0};
    if (op == "gelqf") {
        auto tau = std::make_shared<std::vector<double>>(size_t(n));
        return {"lapacke_dgelqf", 4 * n3 / 3,
                [=](std::vector<double>& f) { return int(LAPACKE_dgelqf(LAPACK_COL_MAJOR, N, N, f.data(), N, tau->data())); },
                [=](const std::vector<double>& f) {
                    std::vector<double> q = f;
                    if (LAPACKE_dorglq(LAPACK_COL_MAJOR, N, N, N, q.data(), N, tau->data()) != 0) return double(NAN);
                    return std::max(check::lq_residual<double>(n, n, a->data(), n, q.data(), n, f.data(), n),
                                    check::lq_orthogonality_residual<double>(n, n, q.data(), n));
                },
                *a};
    }
    if (op == "potri") {
        auto spd = std::make_shared<std::vector<double>>(check::random_spd<double>(n, n, seed));
        std::vector<double> f = *spd;
        if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', N, f.data(), N) != 0)
            throw Error("lapack_surface: the potri matrix is not positive definite");
        return {"lapacke_dpotri", 2 * n3 / 3,
                [=](std::vector<double>& x) { return int(LAPACKE_dpotri(LAPACK_COL_MAJOR, 'L', N, x.data(), N)); },
                [=](const std::vector<double>& x) {
                    const std::vector<double> full = check::hermitian_full<double>(Uplo::Lower, n, x.data(), n);
                    return check::inverse_residual<double>(n, spd->data(), n, full.data(), n);
                },
                f};
    }
    if (op == "getri") {
        std::vector<double> lu = *a;
        auto ipiv = std::make_shared<std::vector<lapack_int>>(size_t(n));
        if (LAPACKE_dgetrf(LAPACK_COL_MAJOR, N, N, lu.data(), N, ipiv->data()) != 0)
            throw Error("lapack_surface: the getri matrix is singular");
        return {"lapacke_dgetri", 4 * n3 / 3,
                [=](std::vector<double>& x) { return int(LAPACKE_dgetri(LAPACK_COL_MAJOR, N, x.data(), N, ipiv->data())); },
                [=](const std::vector<double>& x) { return check::inverse_residual<double>(n, a->data(), n, x.data(), n); },
                lu};
    }
    if (op == "trtri") {
        auto t = std::make_shared<std::vector<double>>(check::random_triangular<double>(n, n, seed));
        return {"lapacke_dtrtri", n3 / 3,
                [=](std::vector<double>& x) { return int(LAPACKE_dtrtri(LAPACK_COL_MAJOR, 'L', 'N', N, x.data(), N)); },
                [=](const std::vector<double>& x) {
                    return check::trtri_residual<double>(Uplo::Lower, Diag::NonUnit, n, t->data(), n, x.data(), n);
                },
                *t};
    }
    if (op == "gecon") {
        auto lu = std::make_shared<std::vector<double>>(*a);
        auto ipiv = std::make_shared<std::vector<lapack_int>>(size_t(n));
        const double anorm = LAPACKE_dlange(LAPACK_COL_MAJOR, '1', N, N, a->data(), N);
        if (LAPACKE_dgetrf(LAPACK_COL_MAJOR, N, N, lu->data(), N, ipiv->data()) != 0)
            throw Error("lapack_surface: the gecon matrix is singular");
        auto rcond = std::make_shared<double>(0);
        return {"lapacke_dgecon", 0,
                [=](std::vector<double>&) { return int(LAPACKE_dgecon(LAPACK_COL_MAJOR, '1', N, lu->data(), N, anorm, rcond.get())); },
                [=](const std::vector<double>&) {
                    const std::vector<int64_t> piv(ipiv->begin(), ipiv->end());
                    const double exact = check::exact_gecon<double>('1', n, lu->data(), n, piv.data(), anorm);
                    return check::rcond_error<double>(n, *rcond, *rcond, exact);
                },
                {}};
    }
    // syr2k
    return {"cblas_dsyr2k", 2 * n3,
            [=](std::vector<double>& c) {
                cblas_dsyr2k(CblasColMajor, CblasLower, CblasNoTrans, N, N, 1.0, a->data(), N, b->data(), N, 1.0,
                             c.data(), N);
                return 0;
            },
            [=](const std::vector<double>& c) {
                return check::syr2k_residual<double>(false, Uplo::Lower, Trans::NoTrans, n, n, 1.0, a->data(), n,
                                                     b->data(), n, 1.0, c0p->data(), c.data(), n);
            },
            c0};
}

int peer_main(int argc, char** argv) {
    CLI::App app{"The LAPACKE / CBLAS peer of bench/lapack_surface_vs_lapack.sh"};
    int64_t n = 4096, repeat = 3;
    uint64_t seed = 42;
    int threads = 0;
    std::string op;
    app.add_option("--op", op, "gemm, symm, syr2k, gelqf, potri, getri, trtri or gecon")
        ->required()
        ->check(CLI::IsMember({"gemm", "symm", "syr2k", "gelqf", "potri", "getri", "trtri", "gecon"}));
    app.add_option("--n", n, "order")->check(CLI::Range(int64_t(1), int64_t(46340)));  // n² within LAPACKE's int
    app.add_option("--repeat", repeat, "timed calls")->check(CLI::PositiveNumber);
    app.add_option("--seed", seed, "seed of the matrices (tessera-tester's --seed)");
    app.add_option("--threads", threads, "OpenBLAS threads (default: the BLAS library's own)")->check(CLI::NonNegativeNumber);
    if (auto rc = tool::parse_cli(app, argc, argv, "lapack_surface")) return *rc;
    if (threads > 0) detail::set_blas_num_threads(threads);
    detail::require_host_arrays("--n " + std::to_string(n), n, n, sizeof(double), 6);
    Case c = make_case(op, n, seed);
    std::printf("op,prec,m,n,k,nb,time_s,gflops,error,status\n");
    bool ok = true;
    std::vector<double> out;
    for (int64_t r = 0; r < repeat; ++r) {
        out = c.initial;
        const auto t0 = std::chrono::steady_clock::now();
        const int info = c.run(out);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        double error = NAN;
        std::string status = "unchecked";
        if (r + 1 == repeat || info != 0) {
            if (info == 0) error = c.error(out);
            const bool pass = info == 0 && check::passes(error);
            status = pass ? "pass" : "FAILED";
            if (info != 0) status += " (info=" + std::to_string(info) + ")";
            ok = ok && pass;
        }
        std::printf("%s,d,%lld,%lld,0,0,%.6f,%.2f,%.3g,%s\n", c.peer, (long long)n, (long long)n, s,
                    c.flops / s * 1e-9, error, status.c_str());
        std::fflush(stdout);
    }
    return ok ? tool::kOk : tool::kFailed;
}

}  // namespace

int main(int argc, char** argv) {
    return tool::guarded_main("lapack_surface", [&] { return peer_main(argc, argv); });
}
