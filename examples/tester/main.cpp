// tessera-tester: runs one Tessera operation, times it and checks it against the scaled residuals of
// docs/architecture.md#numerical-checks.
//   tessera-tester potrf --prec d --n 2000 --nb 256 --check
// Prints one row per run (op prec m n k nb time_s gflops error status).
// Exit status (examples/common/tool_main.hpp): 0 every run passed; 1 a run failed (a check, LAPACK
// info > 0, a task or device failure); 2 refused before any run: an invalid argument, an option the
// operation does not read, sizes too large to address, or more host memory than is available;
// under mpirun also ranks given different command lines, or an operation not distributed yet
// (examples/common/rank_agreement.hpp: every rank exits 2). Distributed, rank 0 alone prints the rows
// (and --profile's blocks of every rank), and every rank exits with the same status.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <string>
#include <string_view>

#include <unistd.h>

#include "examples/common/checks.hpp"
#include "examples/common/cli_parse.hpp"
#include "examples/common/rank_agreement.hpp"
#include "examples/common/tool_main.hpp"
#include "examples/tester/comm_model.hpp"
#include "examples/tester/tester.hpp"
#include "runtime/host_memory.hpp"
#include "runtime/mpi_internal.hpp"
#include "tessera/tessera.hpp"

namespace tessera::tester {

std::vector<Op>& registry() {
    static std::vector<Op> ops;
    return ops;
}

bool Result::ok() const { return info == 0 && (!checked || check::passes(error)); }

}  // namespace tessera::tester

using namespace tessera;
using namespace tessera::tester;

namespace {

// Integer options are validated on their text with std::from_chars, which reports "abc" and values
// beyond int64_t as errors (std::stoll threw them, out of CLI11's reach), so that every malformed
// value becomes one CLI11 error line naming the option.
CLI::Validator integer_at_least(int64_t lo) {
    const std::string lo_text = std::to_string(lo);
    return CLI::Validator(
        [lo, lo_text](std::string& text) -> std::string {
            int64_t value = 0;
            const char* end = text.data() + text.size();
            const auto [stop, ec] = std::from_chars(text.data(), end, value);
            if (ec == std::errc::result_out_of_range)
                return "must be an integer from " + lo_text + " to " + std::to_string(INT64_MAX) + ", got " + text;
            if (ec != std::errc() || stop != end) return "must be an integer, got '" + text + "'";
            return value >= lo ? std::string() : "must be >= " + lo_text + ", got " + text;
        },
        "INT>=" + lo_text);
}

template <class E>
CLI::Option* add_flag_char(CLI::App& app, const char* name, E& target, std::map<std::string, E> values,
                           const char* help) {
    return app.add_option(name, target, help)->transform(CLI::CheckedTransformer(values, CLI::ignore_case));
}

/// The options that only some operations read, with the bit an operation declares them by.
constexpr std::pair<OpOption, const char*> kOpOptions[] = {
    {kM, "--m"},         {kK, "--k"},         {kNrhs, "--nrhs"},     {kIb, "--ib"},
    {kUplo, "--uplo"},   {kSide, "--side"},   {kDiag, "--diag"},     {kTrans, "--trans"},
    {kTransA, "--transA"}, {kTransB, "--transB"}, {kAlpha, "--alpha"}, {kBeta, "--beta"},
    {kResident, "--resident"}, {kCond, "--cond"}, {kNorm, "--norm"}, {kJobz, "--jobz"},
    {kJobuvt, "--jobu"}, {kJobuvt, "--jobvt"}, {kFactor, "--factor"}, {kKd, "--kd"},
};

/// "--n, --uplo, --resident": the options of kOpOptions that `op` reads, after --n.
std::string options_read(const Op& op) {
    std::string list = "--n";
    for (const auto& [bit, name] : kOpOptions)
        if (op.options & bit) list += std::string(", ") + name;
    return list;
}

/// Refuse every option given on the command line that `op` does not read (it would be ignored).
void refuse_options_not_read(const CLI::App& app, const Op& op) {
    for (const auto& [bit, name] : kOpOptions)
        if (!(op.options & bit) && app.count(name) > 0)
            throw Error(std::string(name) + " does not apply to " + op.name + " (it reads " + options_read(op) +
                        ", --nb and the run options)");
}

/// a·b into `out`; false when the product does not fit in 64 bits.
bool multiply(uint64_t a, uint64_t b, uint64_t& out) { return !__builtin_mul_overflow(a, b, &out); }

/// Whether an option was given on the command line (else it has its default; --m and --k default to --n).
using GivenFn = std::function<bool(const std::string&)>;

/// "--m 5", or "--k 7 (from --n)" for a size that defaulted to --n.
std::string size_option(const std::string& name, int64_t value, const GivenFn& given) {
    const bool from_n = !given(name) && (name == "--m" || name == "--k");
    return name + " " + std::to_string(value) + (from_n ? " (from --n)" : given(name) ? "" : " (default)");
}

/// "--m 5 and --n 7", or "--n 7" when both sizes come from the same option.
std::string size_options(const Operand& o, const GivenFn& given) {
    std::string text = size_option(o.rows_from, o.rows, given);
    if (std::string(o.rows_from) != o.cols_from) text += " and " + size_option(o.cols_from, o.cols, given);
    return text;
}

/// Bytes of `o` as a column-major array of `elem`-byte scalars (the full check's copies); refused,
/// naming the options, when the count does not fit in 64 bits.
uint64_t column_major_bytes(const Operand& o, uint64_t elem, const GivenFn& given) {
    uint64_t bytes = 0;
    if (!multiply(uint64_t(o.rows), uint64_t(o.cols), bytes) || !multiply(bytes, elem, bytes))
        throw Error(size_options(o, given) + ": a " + std::to_string(o.rows) + " x " + std::to_string(o.cols) +
                    " matrix has more bytes than a 64-bit count can hold");
    return bytes;
}

/// Bytes of `o` in tile storage: ceil(rows/nb)·ceil(cols/nb) tiles of tile_rows×nb scalars (TileMatrix
/// pads the last tile row and column to full tiles) plus StarPU's and Tessera's bookkeeping of each
/// tile, as the library counts it (detail::tile_storage_bytes). Refused, naming the option, when it
/// cannot be counted.
uint64_t tile_storage_bytes(const Operand& o, int64_t nb, uint64_t elem, const GivenFn& given) {
    column_major_bytes(o, elem, given);  // the sizes themselves first: they name --m, --n, ...
    const uint64_t tiles_down = uint64_t(o.rows / nb + (o.rows % nb != 0));
    const uint64_t tiles_across = uint64_t(o.cols / nb + (o.cols % nb != 0));
    const uint64_t tile_rows = uint64_t(o.tile_rows > 0 ? o.tile_rows : nb);
    uint64_t tiles = 0, tile_elems = 0, bytes = 0;
    if (!multiply(tiles_down, tiles_across, tiles) || !multiply(tile_rows, uint64_t(nb), tile_elems) ||
        !detail::tile_storage_bytes(tiles, tiles, tile_elems, elem, bytes))
        throw Error((o.tile_rows > 0 ? "--nb " + std::to_string(nb) + " and --ib " + std::to_string(o.tile_rows)
                                     : "--nb " + std::to_string(nb)) +
                    ": the tiles of a " + std::to_string(o.rows) + " x " + std::to_string(o.cols) +
                    " matrix have more bytes than a 64-bit count can hold");
    return bytes;
}

/// "potrf --n 200000": the operation and the sizes given to it.
std::string describe_run(const Op& op, const Params& p) {
    std::string text = std::string(op.name) + " --n " + std::to_string(p.n);
    if (op.options & kM) text += " --m " + std::to_string(p.m);
    if (op.options & kK) text += " --k " + std::to_string(p.k);
    if (op.options & kNrhs) text += " --nrhs " + std::to_string(p.nrhs);
    return text + " --nb " + std::to_string(p.nb);
}

/// Refuse, before anything is allocated, a run whose matrices (in tile storage, and their column-major
/// copies for the full check) need more host memory than the machine has available, or whose sizes
/// cannot even be counted. The count leaves out the check's scratch arrays: it errs towards running.
void require_memory_for(const Op& op, const Params& p, const GivenFn& given) {
    const uint64_t elem = element_bytes(p.prec);
    const bool copies = p.check && !p.check_random;
    uint64_t total = 0;
    for (const Operand& o : op.operands(p)) {
        uint64_t bytes = tile_storage_bytes(o, p.nb, elem, given);
        if (copies && !o.workspace) bytes += column_major_bytes(o, elem, given);  // each < 2^64 / 2: no overflow
        if (__builtin_add_overflow(total, bytes, &total))
            throw Error(describe_run(op, p) + ": the matrices have more bytes than a 64-bit count can hold");
    }
    detail::require_host_memory(describe_run(op, p) + (copies ? " --check" : ""), total);
    // More tiles than a matrix may have, on a machine with the memory for them (TileMatrix refuses them too).
    for (const Operand& o : op.operands(p))
        if (detail::tile_count(o.rows, o.cols, p.nb) < 0)
            throw Error("--nb " + std::to_string(p.nb) + ": a " + std::to_string(o.rows) + " x " + std::to_string(o.cols) +
                        " matrix has more than " + std::to_string(detail::kMaxTiles) + " tiles (use a larger --nb)");
}

/// The parsed command line.
struct Command {
    std::string op_name, prec = "d";
    std::string jobz, jobu, jobvt;  ///< --jobz (read per operation: set_jobs), --jobu, --jobvt
    Params p;
    int64_t m = -1, k = -1, repeat = 1, warmup = 0;
    bool csv = false, describe = false, profile = false, comm = false;
    RuntimeConfig config;
};

void add_options(CLI::App& app, Command& c) {
    Params& p = c.p;
    std::vector<std::string> names;
    for (const Op& op : registry()) names.push_back(op.name);
    std::sort(names.begin(), names.end());
    const CLI::Validator non_negative = integer_at_least(0), positive = integer_at_least(1);
    app.add_option("op", c.op_name, "operation")->required()->check(CLI::IsMember(names));
    app.add_option("--prec", c.prec, "precision: s, d, c (complex float) or z (complex double)")
        ->check(CLI::IsMember({"s", "d", "c", "z"}));
    app.add_option("--n", p.n, "columns (order of square matrices)")->check(non_negative);
    app.add_option("--m", c.m, "rows (default n)")->check(non_negative);
    app.add_option("--k", c.k, "inner dimension of gemm/syrk/herk/syr2k/her2k (default n)")->check(non_negative);
    app.add_option("--nrhs", p.nrhs, "right-hand sides")->check(non_negative);
    app.add_option("--nb", p.nb, "tile size (default: the tuned one for the operation on this machine and its devices, docs/tuning.md)")->check(positive);
    app.add_option("--ib", p.ib, "inner block size (default: the tuned one)")->check(positive);
    add_flag_char(app, "--uplo", p.uplo, {{"L", Uplo::Lower}, {"U", Uplo::Upper}}, "L or U");
    add_flag_char(app, "--side", p.side, {{"L", Side::Left}, {"R", Side::Right}}, "L or R");
    add_flag_char(app, "--diag", p.diag, {{"N", Diag::NonUnit}, {"U", Diag::Unit}}, "N or U");
    add_flag_char(app, "--factor", p.factor, {{"low", LowFactorization::Low}, {"tf32", LowFactorization::Tf32}, {"fp16", LowFactorization::Fp16}},
                  "the mixed solvers' low-precision factorization: low (its own arithmetic, default), tf32 "
                  "(--prec d: its float GEMMs on NVIDIA tensor cores in TF32) or fp16 (the same with FP16 "
                  "operands, A scaled; posv_mixed only; tessera/mixed.hpp)");
    add_flag_char(app, "--norm", p.norm,
                  {{"M", Norm::Max}, {"O", Norm::One}, {"1", Norm::One}, {"I", Norm::Inf}, {"F", Norm::Fro},
                   {"E", Norm::Fro}},
                  "norm of lange, lansy, lanhe, lantr: M (max |a_ij|), O or 1 (one), I (infinity), F or E "
                  "(Frobenius); gecon, trcon: O or I; default O");
    app.add_option("--jobz", c.jobz,
                   "syevd, heevd: N (eigenvalues only) or V (eigenvalues and eigenvectors); default V. gesdd: N "
                   "(singular values only), S (and the min(m, n) leading singular vectors), A (all of U and V^H) "
                   "or O (U's, or V^H's for m < n, leading vectors overwrite A: the lapack:: form); default S")
        ->check(CLI::IsMember({"N", "V", "S", "A", "O"}, CLI::ignore_case));
    for (auto [name, target] : {std::pair{"--jobu", &c.jobu}, std::pair{"--jobvt", &c.jobvt}})
        app.add_option(name, *target,
                       "gesvd: U's (--jobu) or V^H's (--jobvt) vectors, N (none), S (min(m, n) leading), A (all) "
                       "or O (leading vectors overwrite A; the lapack:: form; not both); default S")
            ->check(CLI::IsMember({"N", "S", "A", "O"}, CLI::ignore_case));
    const std::map<std::string, Trans> trans{{"N", Trans::NoTrans}, {"T", Trans::Trans}, {"C", Trans::ConjTrans}};
    add_flag_char(app, "--trans", p.trans, trans, "N, T or C");
    add_flag_char(app, "--transA", p.transA, trans, "N, T or C");
    add_flag_char(app, "--transB", p.transB, trans, "N, T or C");
    app.add_option("--alpha", p.alpha, "alpha of gemm/trsm/syrk");
    app.add_option("--beta", p.beta, "beta of gemm/syrk");
    app.add_option("--seed", p.seed, "seed of the random matrices");
    app.add_option("--cond", p.cond,
                   "2-norm condition number of the generated matrix (posv_mixed: Q·diag(σ)·Qᴴ, gesv_mixed and gesv: "
                   "U·diag(σ)·Vᴴ, σ geometric from 1 to 1/cond, Q, U, V Householder reflectors; syevd, heevd: "
                   "Q·diag(λ)·Qᴴ, λ geometric from 1 to 1/cond with alternating signs, Q from the QR of a random "
                   "matrix; gesdd, gesvd: U·diag(σ)·Vᴴ, σ geometric from 1 to 1/cond, U, V from the QR of random "
                   "matrices; gecon, pocon: U·diag(σ)·Vᴴ, Q·diag(σ)·Qᴴ as gesv_mixed, posv_mixed; trcon: a triangle of "
                   "getrf's factors of gesv_mixed's matrix; built on the host)")
        ->check(CLI::Range(1.0, 1e300));
    app.add_option("--kd", p.kd, "syevd, heevd, gesdd, gesvd: the width of stage 1's band, a divisor of nb (0: the "
                                 "largest divisor of nb not above 128, or 64 for syevd and heevd values only)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--repeat", c.repeat, "number of runs")->check(positive);
    app.add_option("--warmup", c.warmup,
                   "untimed runs first, neither printed nor checked (calibrate StarPU's perfmodels, build kernels)")
        ->check(non_negative);
    app.add_flag("--check", p.check, "check each result against the scaled residuals of docs/architecture.md");
    app.add_flag("--check-random", p.check_random,
                 "check gemm, potrf, getrf (square), geqrf, syevd, heevd, gesdd and gesvd with O(n^2) randomized "
                 "residuals (Freivalds; the eigensolvers' eigenvalues by their sum against the trace, the singular "
                 "values' squares against the Frobenius norm, sampled orthogonality) instead of the full "
                 "O(n^3) ones, for large n; other operations get the full check. Distributed: every "
                 "rank multiplies its own tiles and the O(n) products are summed over the ranks");
    app.add_flag("--csv", c.csv, "print comma-separated rows");
    app.add_option("--host-memory", c.config.host_memory,
                   "tile storage: auto (pinned when an OpenCL GPU is used), pinned or pageable")
        ->transform(CLI::CheckedTransformer(std::map<std::string, HostMemory>{{"auto", HostMemory::Auto},
                                                                           {"pinned", HostMemory::Pinned},
                                                                           {"pageable", HostMemory::Pageable}},
                                            CLI::ignore_case));
    app.add_flag("--describe", c.describe, "print the runtime's MPI rank and grid, workers and devices first");
    app.add_flag("--comm", c.comm,
                 "distributed: after each run, print to stderr the bytes each rank sent (StarPU-MPI's statistics) "
                 "next to the model volume on the grid (potrf lower, gemm NN, getrf_incpiv: comm_model.cpp); with "
                 "--check the check's gathers to rank 0 are counted too");
    app.add_option_function<std::string>(
        "--grid",
        [&c](const std::string& g) {
            // std::from_chars on each side of the 'x': "99999999999x1" is out of range, not wrapped
            // (sscanf's %d wrapped it), and nothing may follow Q.
            const std::string_view text(g);
            const size_t x = text.find('x');
            Distribution& d = c.config.grid;
            auto side = [&](std::string_view t, int& out) {
                const auto [stop, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
                return !t.empty() && ec == std::errc() && stop == t.data() + t.size() && out >= 1;
            };
            if (x == std::string_view::npos || !side(text.substr(0, x), d.p) || !side(text.substr(x + 1), d.q))
                throw CLI::ValidationError("--grid", "must be PxQ with P, Q from 1 to " + std::to_string(INT_MAX) +
                                                         ", e.g. 2x2, got '" + g.substr(0, 40) + (g.size() > 40 ? "...'" : "'"));
            if (int64_t(d.p) * int64_t(d.q) > INT_MAX)  // Distribution::ranks() is an int
                throw CLI::ValidationError("--grid", "P*Q = " + std::to_string(int64_t(d.p) * int64_t(d.q)) +
                                                         " ranks is more than " + std::to_string(INT_MAX));
        },
        "process grid PxQ of a distributed run under mpirun (P*Q = ranks; default: the most square)");
    app.add_flag("--profile", c.profile,
                 "after each run, print to stderr where the time went: per worker tasks, execution, OpenCL kernel "
                 "and data-wait time; per codelet; bytes moved over each bus; host-device copy rate. Distributed: "
                 "each rank profiles its own workers and rank 0 prints every rank's table, headed 'rank R of N'");
    app.add_flag("--resident", p.resident,
                 "time with the operands already on OpenCL device 0 and results left there (default: from host "
                 "memory to host memory; not distributed yet)");
}

/// Print (stderr) the phases and the profile of the run that started at `start` and ended at `stop`
/// (--profile). Distributed: collective; each rank profiled its own workers, and rank 0 gathers
/// every rank's block and prints them in rank order, each headed "rank R of N on HOST".
void print_profile(const Result& r, std::chrono::steady_clock::time_point start,
                   std::chrono::steady_clock::time_point stop, const Runtime& rt) {
    const Phases& ph = last_phases();
    auto sec = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
    const auto staging = ph.staging < start ? ph.begin : ph.staging;  // operations without time_op
    char line[160];
    std::snprintf(line, sizeof line, "run       setup %.2f s, staging %.2f s, operation %.3f s, check %.2f s\n",
                  sec(start, staging), sec(staging, ph.begin), r.seconds, sec(ph.done, stop));
    const std::string block = line + last_profile().table();
    if (!rt.distributed()) {
        std::fprintf(stderr, "%s", block.c_str());
        return;
    }
    char host[256] = "?";
    gethostname(host, sizeof host - 1);
    const std::string header = "rank " + std::to_string(rt.rank()) + " of " + std::to_string(rt.ranks()) +
                               " on " + host + "\n";
    const std::vector<std::string> blocks = detail::gather_to_rank0(header + block);
    for (const std::string& b : blocks) std::fprintf(stderr, "%s", b.c_str());
}

/// Print (rank 0, stderr) the bytes each rank sent during the run that started with `before`, their
/// total and the model's (--comm). Collective.
void print_comm(const Op& op, const Params& p, const Runtime& rt, const std::vector<size_t>& before) {
    const std::vector<size_t> after = rt.bytes_sent();
    if (rt.rank() != 0) return;
    double total = 0;
    for (size_t r = 0; r < after.size(); ++r) {
        const double mb = double(after[r] - before[r]) * 1e-6;
        total += mb;
        std::fprintf(stderr, "comm      rank %zu sent %.2f MB\n", r, mb);
    }
    const auto model = model_bytes_sent(op.name, p, rt.grid(), element_bytes(p.prec));
    if (model)
        std::fprintf(stderr, "comm      total %.2f MB, model %.2f MB (%.2fx) on grid %dx%d\n", total, *model * 1e-6,
                     *model > 0 ? total / (*model * 1e-6) : 0.0, rt.grid().p, rt.grid().q);
    else
        std::fprintf(stderr, "comm      total %.2f MB (no model for %s)\n", total, op.name);
}

/// The warm-up runs and the timed runs, one row each (printed by rank 0); kOk when every timed run passed.
int run_rows(const Op& op, const Command& c, Runtime& rt) {
    const Params& p = c.p;
    // Distributed, every rank runs the operation and rank 0 alone prints the rows and the check.
    const bool root = rt.rank() == 0;
    if (c.describe) std::fprintf(stderr, "%s", rt.describe().c_str());
    const RunFn run = p.prec == 's' ? op.run_s : p.prec == 'd' ? op.run_d : p.prec == 'c' ? op.run_c : op.run_z;
    const char* fmt = c.csv ? "%s,%c,%lld,%lld,%lld,%lld,%.6f,%.2f,%.3g,%s\n"
                            : "%-8s %-4c %7lld %7lld %7lld %5lld %10.4f %9.2f %10.3g  %s\n";
    if (root && c.csv) std::printf("op,prec,m,n,k,nb,time_s,gflops,error,status\n");
    if (root && !c.csv)
        std::printf("%-8s %-4s %7s %7s %7s %5s %10s %9s %10s  %s\n", "op", "prec", "m", "n", "k", "nb", "time_s",
                    "gflops", "error", "status");
    for (int64_t i = 0; i < c.warmup; ++i) {
        Params quiet = p;
        quiet.check = false;
        profiled_runtime() = nullptr;
        run(quiet);
    }
    if (c.profile) profiled_runtime() = &rt;
    bool all_ok = true;
    for (int64_t i = 0; i < c.repeat; ++i) {
        const std::vector<size_t> sent_before = c.comm ? rt.bytes_sent() : std::vector<size_t>{};
        const auto start = std::chrono::steady_clock::now();
        const Result r = run(p);
        const auto stop = std::chrono::steady_clock::now();
        const double flops = r.flops * (is_complex_prec(p.prec) ? 4 : 1);  // a complex multiply-add is 4 real
        const double gflops = r.seconds > 0 ? flops / r.seconds * 1e-9 : 0.0;
        // "pass" only for work done and checked: a run without --check is "unchecked" (exit 0).
        std::string status = !r.ok() ? "FAILED" : r.checked ? "pass" : "unchecked";
        if (r.info != 0) status += " (info=" + std::to_string(r.info) + ")";
        if (r.has_iter) status += " (iter=" + std::to_string(r.iter) + ")";
        auto size = [](int64_t shown, int64_t given) { return (long long)(shown >= 0 ? shown : given); };
        if (root)
            std::printf(fmt, op.name, p.prec, size(r.m, p.m), size(r.n, p.n), size(r.k, p.k), (long long)p.nb,
                        r.seconds, gflops, r.checked ? r.error : NAN, status.c_str());
        std::fflush(stdout);
        if (c.profile) print_profile(r, start, stop, rt);
        if (c.comm) print_comm(op, p, rt, sent_before);
        all_ok = all_ok && r.ok();
    }
    // Distributed: the ranks agree on the exit code (the full check's residuals are rank 0's alone;
    // the randomized ones are the same on every rank).
    return detail::max_over_ranks(all_ok ? tool::kOk : tool::kFailed);
}

/// Refuse what a run cannot do on this Runtime: an operation not distributed yet, --resident when
/// distributed or without an OpenCL device.
void refuse_unavailable(const Op& op, const Command& c, const Runtime& rt) {
    if (std::string(op.precisions).find(c.p.prec) == std::string::npos) {
        std::string taken;  // "d or z"
        for (const char* l = op.precisions; *l; ++l) taken += std::string(taken.empty() ? "" : l[1] ? ", " : " or ") + *l;
        const std::string name = op.name;
        const bool mixed = name.size() > 6 && name.compare(name.size() - 6, 6, "_mixed") == 0;
        throw Error(name + " takes --prec " + taken + " only, not " + c.p.prec +
                    (mixed ? " (the mixed-precision solvers refine a d or z solution from s or c factors)"
                           : name == "syevd" ? " (heevd takes the complex precisions)" : ""));
    }
    const std::string name = op.name;
    if (rt.distributed() && !op.distributed && name.size() > 6 && name.compare(name.size() - 6, 6, "_mixed") == 0)
        throw Error(name + " is not distributed yet (" + std::to_string(rt.ranks()) +
                    " MPI ranks): the mixed-precision solvers test convergence on the residual's tiles in one "
                    "process's memory; run one process");
    if (rt.distributed() && !op.distributed)
        throw Error(std::string(op.name) + " is not distributed yet (" + std::to_string(rt.ranks()) +
                    " MPI ranks): the solves with LU's partial pivots (getrs, gesv) are not; under mpirun use "
                    "gesv_incpiv or gesv_nopiv (docs/distributed.md), or run one process");
    if (rt.distributed() && c.p.resident)
        throw Error("--resident is not available in a distributed run yet (" + std::to_string(rt.ranks()) +
                    " MPI ranks): run without it, or run one process");
    if (c.p.resident && rt.opencl_workers() == 0) throw Error("--resident needs an OpenCL device");
}

/// Start the Runtime (--grid, and --comm's statistics), resolve the tuned nb and ib where they were
/// not given, refuse a run larger than the available memory, and run the rows. Distributed, the
/// ranks refuse together (exit 2 on every rank) when any of them refuses, or when they resolved
/// different tile sizes (each rank reads its own node's tuning), before any task.
int run_op(const Op& op, Command c, const GivenFn& given) {
    if (c.comm) setenv("STARPU_COMM_STATS", "1", 1);  // read by StarPU-MPI when it starts
    Runtime rt(c.config);
    const auto refused = tool::prepare_together("tessera-tester", [&] {
        refuse_unavailable(op, c, rt);
        const TileChoice tuned = tuned_tile(c.p.prec + std::string(op.family), std::max({c.p.m, c.p.n, c.p.k}));
        const std::string name = op.name;
        if (c.p.nb == 0) c.p.nb = tuned.nb;  // heevd_nb, gesvd_nb for the eigensolvers and SVDs
        if (c.p.ib == 0) c.p.ib = std::min(tuned.ib, c.p.nb);
        require_memory_for(op, c.p, given);
    });
    if (refused) return *refused;
    const std::string tiles = "--nb " + std::to_string(c.p.nb) + " --ib " + std::to_string(c.p.ib);
    if (auto rc = tool::refuse_unless_ranks_agree("tessera-tester", tiles, "resolved different tile sizes",
                                                  "resolved", "give --nb and --ib"))
        return *rc;
    return tool::run_in_runtime("tessera-tester", [&] { return run_rows(op, c, rt); });
}

/// --jobz, --jobu and --jobvt into Params: --jobz is N or V for the eigensolvers, N, S, A or O for gesdd.
void set_jobs(Command& c, const Op& op) {
    auto letter = [](const std::string& t) { return char(std::toupper(static_cast<unsigned char>(t[0]))); };
    if (!c.jobz.empty()) {
        const char j = letter(c.jobz);
        if (std::string(op.name) == "gesdd") {
            if (j == 'V') throw Error("--jobz V does not apply to gesdd (it takes N, S, A or O)");
            c.p.svd_jobz = j;
        } else {
            if (j != 'N' && j != 'V') throw Error(std::string("--jobz ") + j + " does not apply to " + op.name + " (it takes N or V)");
            c.p.jobz = static_cast<Job>(j);
        }
    }
    if (!c.jobu.empty()) c.p.jobu = letter(c.jobu);
    if (!c.jobvt.empty()) c.p.jobvt = letter(c.jobvt);
    if (c.p.jobu == 'O' && c.p.jobvt == 'O') throw Error("--jobu O and --jobvt O: at most one side overwrites A");
}

int tester_main(int argc, char** argv) {
    // Under mpirun: every rank must run rank 0's command line (checked before it is even parsed).
    if (auto rc = tool::agree_on_command("tessera-tester", argc, argv)) return *rc;
    CLI::App app{"tessera-tester: run, time and check one Tessera operation"};
    Command c;
    c.p.n = 1000;
    add_options(app, c);
    if (auto rc = tool::parse_cli(app, argc, argv, "tessera-tester")) return *rc;
    Params& p = c.p;
    p.prec = c.prec[0];
    p.check = p.check || p.check_random;
    p.m = c.m < 0 ? p.n : c.m;
    p.k = c.k < 0 ? p.n : c.k;
    const Op& op = *std::find_if(registry().begin(), registry().end(), [&](const Op& o) { return c.op_name == o.name; });
    refuse_options_not_read(app, op);
    set_jobs(c, op);
    return run_op(op, c, [&app](const std::string& name) { return app.count(name) > 0; });
}

}  // namespace

int main(int argc, char** argv) {
    return tool::guarded_main("tessera-tester", [&] { return tester_main(argc, argv); });
}
