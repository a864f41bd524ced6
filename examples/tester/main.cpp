// tessera-tester: runs one Tessera operation, times it and checks it against DESIGN.md's residuals.
//   tessera-tester potrf --prec d --n 2000 --nb 256 --check
// Prints one row per run (op prec m n k nb time_s gflops error status); exits 1 if a run failed,
// 2 on an invalid argument.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>

#include "examples/common/checks.hpp"
#include "examples/tester/tester.hpp"
#include "tessera/tessera.hpp"

namespace tessera::tester {

std::vector<Op>& registry() {
    static std::vector<Op> ops;
    return ops;
}

bool Result::ok() const { return info == 0 && (!checked || (std::isfinite(error) && error <= check::kThreshold)); }

}  // namespace tessera::tester

using namespace tessera;
using namespace tessera::tester;

// Validators with one-line messages naming the value.
static const CLI::Validator non_negative(
    [](std::string& s) { return std::stoll(s) >= 0 ? std::string() : "must be >= 0, got " + s; }, "INT>=0");
static const CLI::Validator positive(
    [](std::string& s) { return std::stoll(s) >= 1 ? std::string() : "must be >= 1, got " + s; }, "INT>=1");

template <class E>
static CLI::Option* add_flag_char(CLI::App& app, const char* name, E& target, std::map<std::string, E> values,
                                  const char* help) {
    return app.add_option(name, target, help)->transform(CLI::CheckedTransformer(values, CLI::ignore_case));
}

int main(int argc, char** argv) {
    CLI::App app{"tessera-tester: run, time and check one Tessera operation"};
    std::string op_name;
    Params p;
    p.n = 1000;
    int64_t m = -1, k = -1, repeat = 1, warmup = 0;
    bool csv = false;
    std::string prec = "d";
    std::vector<std::string> names;
    for (const Op& op : registry()) names.push_back(op.name);
    std::sort(names.begin(), names.end());
    app.add_option("op", op_name, "operation")->required()->check(CLI::IsMember(names));
    app.add_option("--prec", prec, "precision: s or d")->check(CLI::IsMember({"s", "d"}));
    app.add_option("--n", p.n, "columns (order of square matrices)")->check(non_negative);
    app.add_option("--m", m, "rows (default n)")->check(non_negative);
    app.add_option("--k", k, "inner dimension of gemm/syrk (default n)")->check(non_negative);
    app.add_option("--nrhs", p.nrhs, "right-hand sides")->check(non_negative);
    app.add_option("--nb", p.nb, "tile size")->check(positive);
    app.add_option("--ib", p.ib, "inner block size")->check(positive);
    add_flag_char(app, "--uplo", p.uplo, {{"L", Uplo::Lower}, {"U", Uplo::Upper}}, "L or U");
    add_flag_char(app, "--side", p.side, {{"L", Side::Left}, {"R", Side::Right}}, "L or R");
    add_flag_char(app, "--diag", p.diag, {{"N", Diag::NonUnit}, {"U", Diag::Unit}}, "N or U");
    const std::map<std::string, Trans> trans{{"N", Trans::NoTrans}, {"T", Trans::Trans}, {"C", Trans::ConjTrans}};
    add_flag_char(app, "--trans", p.trans, trans, "N, T or C");
    add_flag_char(app, "--transA", p.transA, trans, "N, T or C");
    add_flag_char(app, "--transB", p.transB, trans, "N, T or C");
    app.add_option("--alpha", p.alpha, "alpha of gemm/trsm/syrk");
    app.add_option("--beta", p.beta, "beta of gemm/syrk");
    app.add_option("--seed", p.seed, "seed of the random matrices");
    app.add_option("--repeat", repeat, "number of runs")->check(positive);
    app.add_option("--warmup", warmup,
                   "untimed runs first, neither printed nor checked (calibrate StarPU's perfmodels, build kernels)")
        ->check(non_negative);
    app.add_flag("--check", p.check, "check each result against DESIGN.md's scaled residuals");
    app.add_flag("--check-random", p.check_random,
                 "check gemm, potrf, getrf (square) and geqrf with O(n^2) randomized residuals (Freivalds) instead "
                 "of the full O(n^3) ones, for large n; other operations get the full check");
    app.add_flag("--csv", csv, "print comma-separated rows");
    bool describe = false, profile = false;
    RuntimeConfig config;
    app.add_option("--host-memory", config.host_memory,
                   "tile storage: auto (pinned when an OpenCL GPU is used), pinned or pageable")
        ->transform(CLI::CheckedTransformer(std::map<std::string, HostMemory>{{"auto", HostMemory::Auto},
                                                                           {"pinned", HostMemory::Pinned},
                                                                           {"pageable", HostMemory::Pageable}},
                                            CLI::ignore_case));
    app.add_flag("--describe", describe, "print the runtime's workers and devices first");
    app.add_flag("--profile", profile,
                 "after each run, print to stderr where the time went: per worker tasks, execution, OpenCL kernel "
                 "and data-wait time; per codelet; bytes moved over each bus; host-device copy rate");
    app.add_flag("--resident", p.resident,
                 "time with the operands already on OpenCL device 0 and results left there (default: from host "
                 "memory to host memory)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "tessera-tester: %s\n", e.what());
        return 2;
    }
    p.prec = prec[0];
    p.check = p.check || p.check_random;
    p.m = m < 0 ? p.n : m;
    p.k = k < 0 ? p.n : k;
    const Op& op = *std::find_if(registry().begin(), registry().end(), [&](const Op& o) { return op_name == o.name; });

    bool all_ok = true;
    try {
        Runtime rt(config);
        if (describe) std::fprintf(stderr, "%s", rt.describe().c_str());
        if (p.resident && rt.opencl_workers() == 0) throw Error("tessera-tester: --resident needs an OpenCL device");
        const char* fmt = csv ? "%s,%c,%lld,%lld,%lld,%lld,%.6f,%.2f,%.3g,%s\n"
                              : "%-8s %-4c %7lld %7lld %7lld %5lld %10.4f %9.2f %10.3g  %s\n";
        if (csv) std::printf("op,prec,m,n,k,nb,time_s,gflops,error,status\n");
        else std::printf("%-8s %-4s %7s %7s %7s %5s %10s %9s %10s  %s\n", "op", "prec", "m", "n", "k", "nb", "time_s",
                         "gflops", "error", "status");
        for (int64_t run = 0; run < warmup; ++run) {
            Params quiet = p;
            quiet.check = false;
            profiled_runtime() = nullptr;
            (p.prec == 's' ? op.run_s : op.run_d)(quiet);
        }
        if (profile) profiled_runtime() = &rt;
        for (int64_t run = 0; run < repeat; ++run) {
            const auto start = std::chrono::steady_clock::now();
            Result r = (p.prec == 's' ? op.run_s : op.run_d)(p);
            const auto stop = std::chrono::steady_clock::now();
            const double gflops = r.seconds > 0 ? r.flops / r.seconds * 1e-9 : 0.0;
            std::string status = r.ok() ? "pass" : "FAILED";
            if (r.info != 0) status += " (info=" + std::to_string(r.info) + ")";
            auto size = [](int64_t shown, int64_t given) { return (long long)(shown >= 0 ? shown : given); };
            std::printf(fmt, op.name, p.prec, size(r.m, p.m), size(r.n, p.n), size(r.k, p.k), (long long)p.nb,
                        r.seconds, gflops, r.checked ? r.error : NAN, status.c_str());
            std::fflush(stdout);
            if (profile) {
                const Phases& ph = last_phases();
                auto sec = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
                const auto staging = ph.staging < start ? ph.begin : ph.staging;  // operations without time_op
                std::fprintf(stderr, "run       setup %.2f s, staging %.2f s, operation %.3f s, check %.2f s\n",
                             sec(start, staging), sec(staging, ph.begin), r.seconds, sec(ph.done, stop));
                std::fprintf(stderr, "%s", last_profile().table().c_str());
            }
            all_ok = all_ok && r.ok();
        }
    } catch (const tessera::Error& e) {
        std::fprintf(stderr, "tessera-tester: %s\n", e.what());
        return 2;
    }
    return all_ok ? 0 : 1;
}
