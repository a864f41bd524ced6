// Task flops, progress counters and observer, execution traces (records and their trace-event JSON)
// of a tile Cholesky, and the tools' progress line on a non-terminal and a terminal.
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/progress_display.hpp"
#include "runtime/task_flops.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

using detail::BufferShape;
using nlohmann::json;

uint32_t flags(char a, char b = 0) { return uint32_t(uint8_t(a)) | uint32_t(uint8_t(b)) << 8; }
BufferShape tile(int64_t m, int64_t n) { return {m, n, true}; }

TEST(TaskFlops, Blas3AndCholeskyKernelsFollowLawn41) {
    using detail::codelet_flops;
    EXPECT_EQ(codelet_flops("dgemm", flags('N', 'N'), {tile(5, 7), tile(7, 3), tile(5, 3)}), 2. * 5 * 3 * 7);
    EXPECT_EQ(codelet_flops("sgemm", flags('T', 'N'), {tile(7, 5), tile(7, 3), tile(5, 3)}), 2. * 5 * 3 * 7);
    EXPECT_EQ(codelet_flops("zgemm", flags('N', 'C'), {tile(5, 7), tile(3, 7), tile(5, 3)}), 4 * 2. * 5 * 3 * 7);
    EXPECT_EQ(codelet_flops("zgemm_pair", flags('C'), {tile(5, 7), tile(7, 1), tile(5, 1), tile(5, 1), tile(7, 1)}),
              4 * 2 * 2. * 5 * 7);  // A·B1 and Aᴴ·B2
    EXPECT_EQ(codelet_flops("dtrsm", flags('L', 'L'), {tile(4, 4), tile(4, 6)}), 6. * 4 * 4);  // n m²
    EXPECT_EQ(codelet_flops("dtrmm", flags('R', 'L'), {tile(6, 6), tile(4, 6)}), 4. * 6 * 6);  // m n²
    EXPECT_EQ(codelet_flops("dsyrk", flags('L', 'N'), {tile(6, 3), tile(6, 6)}), 3. * 6 * 7);  // k n (n + 1)
    EXPECT_EQ(codelet_flops("zherk", flags('U', 'C'), {tile(3, 6), tile(6, 6)}), 4 * 3. * 6 * 7);
    // symm / syr2k (flags 'S' or 'H', then side / uplo ...).
    const uint32_t hr = flags('H', 'R'), su = flags('S', 'U') | uint32_t('T') << 16;
    EXPECT_EQ(codelet_flops("dsymm", hr, {tile(3, 3), tile(4, 3), tile(4, 3)}), 2. * 4 * 3 * 3);  // 2 m n²
    EXPECT_EQ(codelet_flops("zsymm", flags('H', 'L') | uint32_t('U') << 16, {tile(4, 4), tile(4, 3), tile(4, 3)}), 4 * 2. * 4 * 4 * 3);
    EXPECT_EQ(codelet_flops("dsyr2k", su, {tile(3, 6), tile(3, 6), tile(6, 6)}), 2. * 3 * 6 * 7);  // 2 k n (n + 1)
    EXPECT_EQ(codelet_flops("dpotrf", flags('L'), {tile(9, 9)}), detail::potrf_flops(9));
    EXPECT_DOUBLE_EQ(detail::potrf_flops(300), 300. * 300 * 300 / 3 + 300. * 300 / 2 + 300. / 6);
    // A tile Cholesky's kernels add up to LAPACK's count exactly when nb divides n (LAWN 41's
    // lower-order terms included): nt potrf, nt(nt-1)/2 trsm and syrk, nt(nt-1)(nt-2)/6 gemm.
    const int64_t nb = 32, nt = 5;
    const double total = nt * codelet_flops("dpotrf", flags('L'), {tile(nb, nb)}) +
                         nt * (nt - 1) / 2 * codelet_flops("dtrsm", flags('R'), {tile(nb, nb), tile(nb, nb)}) +
                         nt * (nt - 1) / 2 * codelet_flops("dsyrk", flags('L', 'N'), {tile(nb, nb), tile(nb, nb)}) +
                         nt * (nt - 1) * (nt - 2) / 6 *
                             codelet_flops("dgemm", flags('N', 'T'), {tile(nb, nb), tile(nb, nb), tile(nb, nb)});
    EXPECT_NEAR(total, detail::potrf_flops(double(nb * nt)), 1e-9 * total);
}

TEST(TaskFlops, EveryComputeCodeletCountsAndDataMovementIsFree) {
    using detail::codelet_flops;
    const BufferShape pivots{8, 1, false};
    const std::vector<BufferShape> four = {tile(8, 8), tile(8, 8), tile(8, 8), tile(8, 8)};
    for (const char* op : {"gemm", "syrk", "herk", "trsm", "trmm", "potrf", "potrf_inverse", "potrf_inverse_panel", "trtri", "getrf_nopiv", "getrf_incpiv",
                           "getrf_panel", "geqrf_panel", "tstrf", "ssssm", "geqrt", "gemqrt", "tpqrt", "tpmqrt",
                           "trtri_inplace", "lauum"})
        EXPECT_GT(codelet_flops(std::string("d") + op, flags('L', 'N'), four), 0) << op;
    EXPECT_GT(codelet_flops("dgessm", 0, {pivots, tile(8, 8), tile(8, 8)}), 0);
    EXPECT_EQ(codelet_flops("dgetrf_nopiv", 0, {tile(8, 8)}), detail::getrf_flops(8, 8));
    // The panel: its tiles stacked; the pivots handle last (a kb×1 matrix) is no rows of it.
    EXPECT_EQ(codelet_flops("dgetrf_panel", 0, {tile(8, 4), tile(6, 4), tile(4, 1)}), detail::getrf_flops(14, 4));
    EXPECT_EQ(codelet_flops("dgeqrf_panel", 0, {tile(8, 4), tile(6, 4), tile(4, 4)}), detail::geqrf_flops(14, 4));
    EXPECT_EQ(codelet_flops("cgeqrt", 0, {tile(10, 8), tile(4, 8)}), 4 * detail::geqrf_flops(10, 8));
    // The tridiagonal's eigenvalues (d, e, w; real): xSTERF's 30·n², whatever runs them.
    EXPECT_EQ(codelet_flops("dtridiag_values", 0, {tile(100, 1), tile(99, 1), tile(100, 1)}), 30. * 100 * 100);
    EXPECT_NEAR(detail::getrf_flops(400, 400), 2. / 3 * 400 * 400 * 400, 0.01 * 400 * 400 * 400);
    EXPECT_NEAR(detail::geqrf_flops(400, 400), 4. / 3 * 400 * 400 * 400, 0.01 * 400 * 400 * 400);
    for (const char* op : {"dlacpy", "zlacpy_region", "slaswp", "dlaswp_columns", "dconj_transpose", "dzero_diagonal", "dgenerate",
                           "cscale", "dunknown", "qgemm", "d", ""})
        EXPECT_EQ(codelet_flops(op, 0, four), 0) << op;
}

// The test environment's Runtime stopped and a traced one in its place, until destruction restores
// the environment's (stop() destroys the traced one first: it writes its file then).
class TracedRuntime {
public:
    explicit TracedRuntime(const std::string& path) {
        test::RuntimeEnvironment::instance()->TearDown();
        RuntimeConfig config;
        if (test::mode() == "opencl") config.placement = Placement::OpenCLOnly, config.host_memory = HostMemory::Pinned;
        config.trace_path = path;
        try {
            runtime_.emplace(config);
        } catch (...) {
            test::RuntimeEnvironment::instance()->SetUp();
            throw;
        }
    }
    ~TracedRuntime() {
        runtime_.reset();
        test::RuntimeEnvironment::instance()->SetUp();
    }
    Runtime& runtime() { return *runtime_; }
    void stop() { runtime_.reset(); }

private:
    std::optional<Runtime> runtime_;
};

json read_json(const std::string& path) {
    std::ifstream in(path);
    EXPECT_TRUE(in.good()) << path;
    return json::parse(in);  // throws (fails the test) on malformed JSON
}

std::string temp_path(const std::string& name) {
    return ::testing::TempDir() + "tessera_" + name + "_" + test::mode() + "_" + std::to_string(getpid()) + ".json";
}

// Checks of one trace-event document against the records of the same tasks.
void check_trace_json(const json& doc, const std::vector<TaskRecord>& records, int64_t nt, int64_t nb) {
    ASSERT_TRUE(doc.contains("traceEvents"));
    EXPECT_EQ(doc.at("displayTimeUnit"), "ms");
    std::map<int, std::string> thread_names;
    std::vector<json> tasks;
    for (const json& e : doc.at("traceEvents")) {
        if (e.at("ph") == "M" && e.at("name") == "thread_name") thread_names[e.at("tid").get<int>()] = e.at("args").at("name");
        if (e.at("ph") == "X") tasks.push_back(e);
    }
    ASSERT_EQ(tasks.size(), records.size());
    std::multiset<std::string> json_names, record_names;
    double json_flops = 0, record_flops = 0;
    for (const json& e : tasks) {
        const std::string name = e.at("name");
        json_names.insert(name);
        EXPECT_EQ(e.at("pid").get<int>(), 0);
        const int tid = e.at("tid").get<int>();
        EXPECT_TRUE(thread_names.count(tid)) << "worker " << tid << " has no thread_name";
        EXPECT_GE(e.at("ts").get<double>(), 0) << name;
        EXPECT_GE(e.at("dur").get<double>(), 0) << name;
        const json& args = e.at("args");
        json_flops += args.at("flops").get<double>();
        EXPECT_GE(args.at("gflops").get<double>(), 0);
        const int64_t bytes = args.at("bytes_in").get<int64_t>();
        EXPECT_GE(bytes, 0);
        EXPECT_LE(bytes, int64_t(args.at("tiles").size()) * nb * nb * int64_t(sizeof(double)));
        if (test::mode() == "cpu") EXPECT_EQ(bytes, 0) << "CPU workers read main memory";
        for (const json& t : args.at("tiles")) {
            const int64_t i = t.at(0), j = t.at(1);
            const std::string mode = t.at(2);
            EXPECT_TRUE(mode == "R" || mode == "W" || mode == "RW") << mode;
            // The inverse of a diagonal tile (opencl, mixed) is a temporary tile, no TileMatrix's.
            const bool temporary =
                i == -1 && j == -1 &&
                (name == "dtrtri" || name == "dtrmm" || name == "dpotrf_inverse" || name == "dpotrf_inverse_panel");
            EXPECT_TRUE(temporary || (i >= 0 && i < nt && j >= 0 && j < nt)) << name << " tile " << i << "," << j;
        }
    }
    for (const TaskRecord& r : records) {
        record_names.insert(r.codelet);
        record_flops += r.flops;
        EXPECT_LE(r.start_s, r.end_s);
        ASSERT_TRUE(thread_names.count(r.worker));
        EXPECT_EQ(r.worker_name, thread_names[r.worker]);
    }
    EXPECT_EQ(json_names, record_names);
    EXPECT_NEAR(json_flops, record_flops, 1e-9 * record_flops);
}

TEST(Trace, TilePotrfIsTracedTaskByTask) {
    const std::string path = temp_path("trace"), explicit_path = temp_path("trace_explicit");
    const int64_t nb = 32, nt = 4, n = nb * nt;
    std::vector<TaskRecord> records;
    ProgressSnapshot before, after, last_seen;
    std::atomic<int> calls{0};
    {
        TracedRuntime traced(path);
        Runtime& rt = traced.runtime();
        ASSERT_TRUE(rt.tracing());
        EXPECT_EQ(rt.trace_file(), path);
        auto a = check::random_spd<double>(n, n, 5);
        TileMatrix<double> A(n, n, nb);
        A.fill_from_lapack(a.data(), n);
        Runtime::wait_all();
        EXPECT_EQ(rt.trace_records().size(), size_t(nt * nt)) << "one lacpy task per tile";
        rt.clear_trace();
        before = rt.progress();
        std::mutex lock;
        rt.set_progress_observer(
            [&](const ProgressSnapshot& s) {
                ++calls;
                std::lock_guard<std::mutex> guard(lock);
                last_seen = s;
            },
            0);
        ASSERT_EQ(potrf(Uplo::Lower, A), 0);
        rt.set_progress_observer({});
        after = rt.progress();
        records = rt.trace_records();
        rt.write_trace(explicit_path);
        EXPECT_THROW(rt.write_trace("/nonexistent-dir/trace.json"), Error);
        EXPECT_THROW(rt.set_progress_observer({}, -1), Error);
    }  // A, then the traced Runtime (writing `path`), go; the environment's Runtime is back

    const int64_t tasks = after.tasks_submitted - before.tasks_submitted;
    EXPECT_EQ(after.tasks_done, after.tasks_submitted);
    if (test::mode() == "cpu") EXPECT_EQ(tasks, 20) << "4 potrf, 6 trsm, 6 syrk, 4 gemm";
    EXPECT_EQ(int64_t(records.size()), tasks);
    EXPECT_GT(calls.load(), 0);
    EXPECT_LE(last_seen.tasks_done, after.tasks_done);
    EXPECT_GT(after.seconds, before.seconds);
    // With an OpenCL device the panel inverts each diagonal tile (with its factor, potrf_inverse,
    // or apart, trtri) and multiplies (trmm, counted as trsm): its trtri flops come on top of
    // LAPACK's count.
    double expected = detail::potrf_flops(double(n));
    for (const TaskRecord& r : records)
        if (r.codelet == "dtrtri" || r.codelet == "dpotrf_inverse" || r.codelet == "dpotrf_inverse_panel")
            expected += detail::codelet_flops("dtrtri", 0, {tile(nb, nb), tile(nb, nb)});
    EXPECT_NEAR(after.flops_done - before.flops_done, expected, 1e-9 * expected);
    EXPECT_NEAR(after.flops_submitted - before.flops_submitted, expected, 1e-9 * expected);
    double traced_flops = 0;
    for (const TaskRecord& r : records) traced_flops += r.flops;
    EXPECT_NEAR(traced_flops, expected, 1e-9 * expected);

    check_trace_json(read_json(path), records, nt, nb);
    check_trace_json(read_json(explicit_path), records, nt, nb);
    std::remove(path.c_str());
    std::remove(explicit_path.c_str());
}

// TESSERA_TRACE set to `value` while it lives, then as it was.
class TraceVariable {
public:
    explicit TraceVariable(const char* value) {
        if (const char* v = std::getenv("TESSERA_TRACE")) saved_ = v;
        setenv("TESSERA_TRACE", value, 1);
    }
    ~TraceVariable() {
        if (saved_) setenv("TESSERA_TRACE", saved_->c_str(), 1);
        else unsetenv("TESSERA_TRACE");
    }

private:
    std::optional<std::string> saved_;
};

TEST(Trace, EnvironmentVariableAndUnwritableFileWarnOnce) {
    std::string err;
    {
        auto variable = std::make_unique<TraceVariable>("/nonexistent-dir/trace.json");
        TracedRuntime traced("");  // no trace_path: the environment decides
        EXPECT_TRUE(traced.runtime().tracing());
        EXPECT_EQ(traced.runtime().trace_file(), "/nonexistent-dir/trace.json");
        variable.reset();  // before the environment's Runtime comes back
        ::testing::internal::CaptureStderr();
        traced.stop();  // must not throw
        err = ::testing::internal::GetCapturedStderr();
    }
    EXPECT_NE(err.find("tessera::~Runtime: warning: cannot write the trace file /nonexistent-dir/trace.json"),
              std::string::npos)
        << err;
}

class Progress : public test::RuntimeTest {};

TEST_F(Progress, CountersRunAndNothingIsRecordedWithoutTracing) {
    Runtime& rt = test::RuntimeEnvironment::runtime();
    if (std::getenv("TESSERA_TRACE")) {
        expect_no_tasks();
        GTEST_SKIP() << "TESSERA_TRACE is set: the Runtime traces";
    }
    EXPECT_FALSE(rt.tracing());
    EXPECT_EQ(rt.trace_file(), "");
    const ProgressSnapshot before = rt.progress();
    auto a = check::random_spd<double>(64, 64, 3);
    TileMatrix<double> A(64, 64, 32);
    A.fill_from_lapack(a.data(), 64);
    ASSERT_EQ(potrf(Uplo::Lower, A), 0);
    const ProgressSnapshot after = rt.progress();
    EXPECT_GE(after.tasks_submitted - before.tasks_submitted, 4 + 3);  // 4 copies, potrf, trsm, syrk, potrf
    EXPECT_EQ(after.tasks_done, after.tasks_submitted);
    EXPECT_GE(after.flops_done - before.flops_done, detail::potrf_flops(64) * (1 - 1e-9));
    EXPECT_TRUE(rt.trace_records().empty());
    EXPECT_THROW(rt.write_trace(temp_path("never")), Error);
}

std::string contents(std::FILE* f) {
    std::fflush(f);
    std::rewind(f);
    std::string s;
    for (int c; (c = std::fgetc(f)) != EOF;) s += char(c);
    std::fclose(f);
    return s;
}
size_t lines(const std::string& s) { return size_t(std::count(s.begin(), s.end(), '\n')); }

TEST_F(Progress, DisplayWritesOneLinePerStageOffATerminal) {
    Runtime& rt = test::RuntimeEnvironment::runtime();
    auto a = check::random_spd<double>(96, 96, 4);
    TileMatrix<double> A(96, 96, 32);
    std::FILE* f = std::tmpfile();
    ASSERT_NE(f, nullptr);
    {
        tool::ProgressDisplay copy(rt, "copy", false, f, false);
        A.fill_from_lapack(a.data(), 96);
        Runtime::wait_all();
    }
    {
        tool::ProgressDisplay factor(rt, "potrf", false, f, false);
        ASSERT_EQ(potrf(Uplo::Lower, A), 0);
    }
    {
        tool::ProgressDisplay read("read", false, f, false);
        for (int i = 0; i <= 10; ++i) read.update(i, 10);
    }
    const std::string out = contents(f);
    EXPECT_EQ(out.find('\r'), std::string::npos) << out;
    EXPECT_EQ(lines(out), 3u) << out;
    EXPECT_EQ(out.rfind("copy: 9 tasks in ", 0), 0u) << out;
    EXPECT_NE(out.find("\npotrf: "), std::string::npos) << out;
    EXPECT_NE(out.find(" GFLOP/s\n"), std::string::npos) << out;
    EXPECT_NE(out.find("\nread: done in "), std::string::npos) << out;

    std::FILE* q = std::tmpfile();
    ASSERT_NE(q, nullptr);
    {
        tool::ProgressDisplay quiet(rt, "potrf", true, q, true);
        tool::ProgressDisplay quiet_read("read", true, q, false);
        quiet_read.update(1, 2);
        A.fill_from_lapack(a.data(), 96);
        ASSERT_EQ(potrf(Uplo::Lower, A), 0);
    }
    EXPECT_EQ(contents(q), "");
}

TEST_F(Progress, DisplayOverwritesItsLineOnATerminal) {
    Runtime& rt = test::RuntimeEnvironment::runtime();
    auto a = check::random_spd<double>(128, 128, 6);
    TileMatrix<double> A(128, 128, 32);
    A.fill_from_lapack(a.data(), 128);
    Runtime::wait_all();  // the display counts from its construction
    std::FILE* f = std::tmpfile();
    ASSERT_NE(f, nullptr);
    {
        tool::ProgressDisplay factor(rt, "potrf", false, f, true);
        ASSERT_EQ(potrf(Uplo::Lower, A), 0);
    }
    {
        tool::ProgressDisplay read("read", false, f, true);
        read.update(1, 4);  // the first update is shown at once
        read.update(2, 4);
    }
    const std::string out = contents(f);
    EXPECT_EQ(lines(out), 2u) << out;
    const std::string potrf_part = out.substr(0, out.find('\n') + 1), final_potrf = potrf_part.substr(potrf_part.rfind('\r') + 1);
    EXPECT_EQ(final_potrf.rfind("potrf: ", 0), 0u) << out;  // the last state of the line is the final one
    EXPECT_NE(final_potrf.find(" tasks in "), std::string::npos) << out;
    if (test::mode() == "cpu") EXPECT_EQ(final_potrf.rfind("potrf: 20 tasks in ", 0), 0u) << out;
    EXPECT_NE(out.find("\rread: 25%"), std::string::npos) << out;
    EXPECT_NE(out.find("\rread: 50% after "), std::string::npos) << out;  // the final line replaces it
    EXPECT_EQ(out.back(), '\n');
}

}  // namespace
}  // namespace tessera
