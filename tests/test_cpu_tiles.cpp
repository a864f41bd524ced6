// Per-machine CPU tile sizes (runtime/cpu_tiles.hpp, tessera::tuned_tile): the table parser (every
// rule, with its FILE:LINE message), formatting round trip, specificity of the match, the cache rule
// on known L2 sizes, the lookup order, the user table's path, and tuned_tile under the Runtime
// through a $TESSERA_CPU_TILES file (tessera-tune --cpu itself: tests/tools/cpu_tune.cmake); the
// GPU rule of tuned_tile(routine, n) (runtime/gpu_tiles.hpp).
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

#include "runtime/cpu_tiles.hpp"
#include "runtime/gpu_tiles.hpp"
#include "runtime/runtime_internal.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

using detail::CpuTileEntry;
using detail::CpuTileTable;
using detail::parse_cpu_tiles;

constexpr const char* kExample = R"(tessera-cpu-tiles 1
# routine  cores  nb   ib   cpu model (glob, rest of line, case-insensitive)

# measured on the AMD machine
dpotrf     2      384  0    AMD EPYC
dgeqrf     *      256  64   Intel(R) Xeon(R)   Platinum 8481C*   # a comment after the entry
end
)";

CpuTileTable parse_ok(const std::string& text) {
    std::string err;
    auto t = parse_cpu_tiles(text, "t.txt", &err);
    EXPECT_TRUE(t.has_value()) << err;
    return t ? *t : CpuTileTable{};
}

/// The parser's message for `text`, which must be rejected.
std::string rejection(const std::string& text) {
    std::string err;
    EXPECT_FALSE(parse_cpu_tiles(text, "t.txt", &err).has_value()) << text;
    return err;
}

TEST(CpuTileTable, ParsesTheDocumentedExample) {
    const CpuTileTable t = parse_ok(kExample);
    ASSERT_EQ(t.entries.size(), 2u);
    const CpuTileEntry& a = t.entries[0];
    EXPECT_EQ(a.routine, "dpotrf");
    EXPECT_EQ(a.cores, 2);
    EXPECT_EQ(a.nb, 384);
    EXPECT_EQ(a.ib, 0);
    EXPECT_EQ(a.model, "AMD EPYC");
    EXPECT_EQ(a.line, 5);
    EXPECT_EQ(a.comment, "measured on the AMD machine");  // the legend is detached by the blank line
    const CpuTileEntry& b = t.entries[1];
    EXPECT_EQ(b.cores, 0);  // '*'
    EXPECT_EQ(b.ib, 64);
    EXPECT_EQ(b.model, "Intel(R) Xeon(R) Platinum 8481C*");  // blanks collapsed, comment stripped
    EXPECT_EQ(b.comment, "");
    // No trailing newline, CRLF line ends, upper-case routine names.
    const CpuTileTable c = parse_ok("tessera-cpu-tiles 1\r\nDGEMM 4 320 48 Some CPU\r\nend");
    ASSERT_EQ(c.entries.size(), 1u);
    EXPECT_EQ(c.entries[0].routine, "dgemm");
    EXPECT_EQ(c.entries[0].model, "Some CPU");
    EXPECT_TRUE(parse_ok("tessera-cpu-tiles 1\nend\n").entries.empty());
}

TEST(CpuTileTable, RejectsEachBrokenRuleWithFileAndLine) {
    const std::string h = "tessera-cpu-tiles 1\n";
    EXPECT_EQ(rejection(""), "t.txt:1: empty table");
    EXPECT_EQ(rejection("# only a comment\n"), "t.txt:1: empty table");
    EXPECT_EQ(rejection("tessera-kernel-params 1\nend\n"),
              "t.txt:1: not a CPU tile table (first line must be 'tessera-cpu-tiles 1')");
    EXPECT_EQ(rejection("tessera-cpu-tiles 2\nend\n"), "t.txt:1: table format version 2, this library reads version 1");
    EXPECT_EQ(rejection("tessera-cpu-tiles 1 x\nend\n"), "t.txt:1: malformed header line 'tessera-cpu-tiles 1 x'");
    EXPECT_EQ(rejection(h + "dpotrf 2 384 0 AMD EPYC\n"), "t.txt:2: missing final 'end' line (truncated file?)");
    EXPECT_EQ(rejection(h + "end\ndpotrf 2 384 0 AMD EPYC\n"), "t.txt:3: text after 'end'");
    EXPECT_EQ(rejection(h + "\ndpotrf 2 384 0\nend\n"), "t.txt:3: expected 'routine cores nb ib cpu-model', got 'dpotrf 2 384 0'");
    EXPECT_EQ(rejection(h + "d-potrf 2 384 0 AMD\nend\n"), "t.txt:2: routine 'd-potrf' is not a name (letters, digits, _)");
    EXPECT_EQ(rejection(h + "dpotrf 0 384 0 AMD\nend\n"), "t.txt:2: cores must be an integer from 1 to 1048576 or *, got '0'");
    EXPECT_EQ(rejection(h + "dpotrf two 384 0 AMD\nend\n"), "t.txt:2: cores must be an integer from 1 to 1048576 or *, got 'two'");
    EXPECT_EQ(rejection(h + "dpotrf 2 0 0 AMD\nend\n"), "t.txt:2: nb must be an integer from 1 to 65536, got '0'");
    EXPECT_EQ(rejection(h + "dpotrf 2 38x 0 AMD\nend\n"), "t.txt:2: nb must be an integer from 1 to 65536, got '38x'");
    EXPECT_EQ(rejection(h + "dpotrf 2 384 -1 AMD\nend\n"), "t.txt:2: ib must be an integer >= 0, got '-1'");
    EXPECT_EQ(rejection(h + "dgeqrf 2 64 96 AMD\nend\n"), "t.txt:2: ib 96 larger than nb 64");
    EXPECT_EQ(rejection(h + std::string("dpotrf 2 384 0 A\0MD\nend\n", 24)), "t.txt:2: binary data (NUL byte)");
}

TEST(CpuTileTable, FormatReadsBackEntryForEntry) {
    std::vector<CpuTileEntry> es = parse_ok(kExample).entries;
    es.push_back({"zgemm", 16, 512, 0, detail::escape_model_glob("Odd [CPU] * model?"), 0, "two\n  lines"});
    const std::string text = detail::format_cpu_tiles(es, "header comment");
    const CpuTileTable back = parse_ok(text);
    ASSERT_EQ(back.entries.size(), es.size());
    for (size_t i = 0; i < es.size(); ++i) {
        EXPECT_EQ(back.entries[i].routine, es[i].routine);
        EXPECT_EQ(back.entries[i].cores, es[i].cores);
        EXPECT_EQ(back.entries[i].nb, es[i].nb);
        EXPECT_EQ(back.entries[i].ib, es[i].ib);
        EXPECT_EQ(back.entries[i].model, es[i].model);
        EXPECT_EQ(back.entries[i].comment, es[i].comment);
    }
    EXPECT_EQ(text.rfind("\nend\n"), text.size() - 5);
    // The escaped name matches itself only, never as a glob.
    EXPECT_NE(detail::match(back, "zgemm", 16, "Odd [CPU] * model?"), nullptr);
    EXPECT_EQ(detail::match(back, "zgemm", 16, "Odd C * models"), nullptr);
}

TEST(CpuTileTable, MostSpecificEntryWins) {
    const CpuTileTable t = parse_ok(R"(tessera-cpu-tiles 1
dpotrf * 100 0 AMD*
dpotrf * 200 0 AMD EPYC 9654
dpotrf 4 300 0 AMD*
dpotrf 4 400 0 amd epyc 9654
dpotrf 8 500 0 AMD*
dpotrf 8 600 0 AMD*
dgemm * 700 0 *
end
)");
    auto nb = [&](const char* routine, int cores, const char* model) -> int64_t {
        const CpuTileEntry* e = detail::match(t, routine, cores, model);
        return e ? e->nb : -1;
    };
    EXPECT_EQ(nb("dpotrf", 4, "AMD EPYC 9654"), 400);      // exact cores and exact model (case-insensitive)
    EXPECT_EQ(nb("dpotrf", 4, "AMD EPYC 7763"), 300);      // exact cores beats an exact model
    EXPECT_EQ(nb("dpotrf", 2, "AMD EPYC 9654"), 200);      // exact model over a glob among '*' cores
    EXPECT_EQ(nb("dpotrf", 2, "AMD  EPYC   9654 "), 200);  // blanks of the machine's model collapsed
    EXPECT_EQ(nb("dpotrf", 2, "AMD Ryzen"), 100);
    EXPECT_EQ(nb("dpotrf", 8, "AMD Ryzen"), 600);          // equals: the later line
    EXPECT_EQ(nb("DPOTRF", 8, "amd ryzen"), 600);          // routine and model case-insensitive
    EXPECT_EQ(nb("dpotrf", 2, "Intel Xeon"), -1);
    EXPECT_EQ(nb("spotrf", 4, "AMD EPYC 9654"), -1);
    EXPECT_EQ(nb("dgemm", 64, "anything"), 700);
    EXPECT_EQ(detail::match_score(t.entries[3], "dpotrf", 4, "AMD EPYC 9654"), 4);
    EXPECT_EQ(detail::match_score(t.entries[0], "dpotrf", 4, "AMD EPYC 9654"), 1);
}

TEST(CpuTileTable, CacheRuleOnKnownL2Sizes) {
    auto rule = [](uint64_t l2, size_t elem) { return detail::cache_rule_tile("dpotrf", l2, elem); };
    // nb = nearest multiple of 32 to sqrt(L2 / elem) / 1.1 in [128, 512]; ib = nb / 5 to a multiple of 8, >= 16.
    EXPECT_EQ(rule(512 << 10, 8).nb, 224);  // sqrt(65536) / 1.1 = 232.7
    EXPECT_EQ(rule(512 << 10, 8).ib, 48);   // 44.8
    EXPECT_EQ(rule(1 << 20, 8).nb, 320);    // 329.1
    EXPECT_EQ(rule(1 << 20, 8).ib, 64);
    EXPECT_EQ(rule(1 << 20, 8).source, "cache rule: L2 1024 KiB/core");
    EXPECT_EQ(rule(2 << 20, 8).nb, 480);    // 465.5
    EXPECT_EQ(rule(2 << 20, 8).ib, 96);
    EXPECT_EQ(rule(1 << 20, 4).nb, 480);    // single precision: twice the elements
    EXPECT_EQ(rule(1 << 20, 16).nb, 224);   // double complex
    EXPECT_EQ(rule(64 << 10, 8).nb, 128);   // clamped below (82.3)
    EXPECT_EQ(rule(64 << 10, 8).ib, 24);
    EXPECT_EQ(rule(32 << 20, 8).nb, 512);   // clamped above
    const TileChoice unknown = rule(0, 8);
    EXPECT_EQ(unknown.nb, 320);
    EXPECT_EQ(unknown.ib, 48);
    EXPECT_EQ(unknown.source, "cache rule: L2 unknown");
    EXPECT_THROW(detail::cache_rule_tile("xfoo", 1 << 20, 0), Error);
    EXPECT_EQ(detail::routine_elem_size("sgetrf"), 4u);
    EXPECT_EQ(detail::routine_elem_size("Zgeqrf"), 16u);
    EXPECT_EQ(detail::routine_elem_size("xfoo"), 0u);
}

TEST(CpuTileTable, LookupOrderUserThenShippedThenRule) {
    const detail::MachineCpu cpu{"AMD EPYC 9654", 1 << 20};
    const CpuTileTable user = parse_ok("tessera-cpu-tiles 1\ndpotrf 2 256 0 AMD EPYC 9654\nend\n");
    CpuTileTable user_path = user;
    user_path.origin = "/home/u/.tessera/cpu_tiles.txt";
    std::vector<CpuTileTable> shipped = {parse_ok("tessera-cpu-tiles 1\ndpotrf * 448 0 AMD*\ndgeqrf * 384 32 AMD*\nend\n"),
                                         parse_ok("tessera-cpu-tiles 1\ndgeqrf * 416 40 AMD*\nend\n")};
    shipped[0].origin = "shipped cpu_tiles/a.txt", shipped[1].origin = "shipped cpu_tiles/b.txt";
    const TileChoice u = detail::resolve_tile("dpotrf", 2, cpu, &user_path, shipped);
    EXPECT_EQ(u.nb, 256);
    EXPECT_EQ(u.ib, 64);  // the entry's ib 0: the rule's
    EXPECT_EQ(u.source, "/home/u/.tessera/cpu_tiles.txt:2 (ib: cache rule)");
    const TileChoice s = detail::resolve_tile("dpotrf", 4, cpu, &user_path, shipped);  // user entry is for 2 cores
    EXPECT_EQ(s.nb, 448);
    EXPECT_EQ(s.source, "shipped cpu_tiles/a.txt:2 (ib: cache rule)");
    const TileChoice q = detail::resolve_tile("dgeqrf", 4, cpu, nullptr, shipped);  // equals across tables: the later
    EXPECT_EQ(q.nb, 416);
    EXPECT_EQ(q.ib, 40);
    EXPECT_EQ(q.source, "shipped cpu_tiles/b.txt:2");
    const TileChoice r = detail::resolve_tile("sgemm", 4, cpu, &user_path, shipped);
    EXPECT_EQ(r.nb, 480);
    EXPECT_EQ(r.source, "cache rule: L2 1024 KiB/core");
    EXPECT_THROW(detail::resolve_tile("xfoo", 4, cpu, &user_path, shipped), Error);
}

TEST(CpuTileTable, ShippedTablesParse) {
    for (const detail::EmbeddedCpuTileTable& t : detail::shipped_cpu_tile_tables()) {
        std::string err;
        EXPECT_TRUE(parse_cpu_tiles(t.text, t.name, &err).has_value()) << err;
    }
}

/// Environment variables set (or unset, for nullptr) while it lives, then as they were.
class ScopedEnv {
public:
    ScopedEnv(std::initializer_list<std::pair<const char*, const char*>> vars) {
        for (const auto& [name, value] : vars) {
            const char* old = std::getenv(name);
            saved_.push_back({name, old ? std::optional<std::string>(old) : std::nullopt});
            if (value) setenv(name, value, 1);
            else unsetenv(name);
        }
    }
    ~ScopedEnv() {
        for (const auto& [name, value] : saved_) {
            if (value) setenv(name.c_str(), value->c_str(), 1);
            else unsetenv(name.c_str());
        }
    }

private:
    std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

TEST(CpuTileTable, UserTablePath) {
    {
        ScopedEnv env({{"TESSERA_CPU_TILES", "/x/t.txt"}, {"STARPU_HOME", "/s"}, {"HOME", "/h"}});
        EXPECT_EQ(detail::user_cpu_tiles_path(), "/x/t.txt");
    }
    {
        ScopedEnv env({{"TESSERA_CPU_TILES", ""}, {"STARPU_HOME", "/s"}, {"HOME", "/h"}});
        EXPECT_EQ(detail::user_cpu_tiles_path(), "/s/.tessera/cpu_tiles.txt");
    }
    {
        ScopedEnv env({{"TESSERA_CPU_TILES", nullptr}, {"STARPU_HOME", nullptr}, {"HOME", "/h"}});
        EXPECT_EQ(detail::user_cpu_tiles_path(), "/h/.tessera/cpu_tiles.txt");
    }
    {
        ScopedEnv env({{"TESSERA_CPU_TILES", nullptr}, {"STARPU_HOME", nullptr}, {"HOME", nullptr}});
        EXPECT_EQ(detail::user_cpu_tiles_path(), "");
    }
}

class TunedTile : public test::RuntimeTest {
protected:
    void SetUp() override {
        test::RuntimeTest::SetUp();
        expect_no_tasks();
        const char* home = std::getenv("STARPU_HOME");
        dir_ = std::filesystem::path(home && *home ? home : "/tmp") / ("cpu_tiles_test." + std::to_string(getpid()));
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
        test::RuntimeTest::TearDown();
    }
    std::string write(const std::string& name, const std::string& text) {
        const std::string path = (dir_ / name).string();
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }
    std::filesystem::path dir_;
};

TEST_F(TunedTile, ReadsTheUserTableForThisMachine) {
    const int cores = test::RuntimeEnvironment::runtime().cpu_workers();
    const std::string model = detail::escape_model_glob(detail::machine_cpu().model);
    const std::string path = write("cpu_tiles.txt", "tessera-cpu-tiles 1\n# this machine, its core count\n"
                                                    "dpotrf * 96 0 *\ndpotrf " + std::to_string(cores) + " 112 0 " + model +
                                                    "\nzgeqrf * 160 24 " + model + "\nend\n");
    ScopedEnv env({{"TESSERA_CPU_TILES", path.c_str()}});
    const TileChoice p = tuned_tile("dpotrf");
    EXPECT_EQ(p.nb, 112);
    EXPECT_EQ(p.source.rfind(path + ":4", 0), 0u) << p.source;
    const TileChoice q = tuned_tile("ZGEQRF");
    EXPECT_EQ(q.nb, 160);
    EXPECT_EQ(q.ib, 24);
    EXPECT_EQ(q.source, path + ":5");
    // A routine no table names: the cache rule on this machine's L2.
    const TileChoice r = tuned_tile("zno_such_routine");
    const TileChoice rule = detail::cache_rule_tile("z", detail::machine_cpu().l2_bytes_per_core, 16);
    EXPECT_EQ(r.nb, rule.nb);
    EXPECT_EQ(r.ib, rule.ib);
    EXPECT_EQ(r.source, rule.source);
    EXPECT_THROW(tuned_tile("xno_such_routine"), Error);
    // The file is read again when it changes.
    write("cpu_tiles.txt", "tessera-cpu-tiles 1\ndpotrf * 1024 0 *\nend\n");
    EXPECT_EQ(tuned_tile("dpotrf").nb, 1024);
}

TEST_F(TunedTile, BrokenUserTableIsIgnoredWithOneWarning) {
    const std::string path = write("broken.txt", "tessera-cpu-tiles 1\ndpotrf 2 0 0 AMD\nend\n");
    ScopedEnv env({{"TESSERA_CPU_TILES", path.c_str()}});
    ::testing::internal::CaptureStderr();
    const TileChoice a = tuned_tile("zno_such_routine");
    const TileChoice b = tuned_tile("zno_such_routine");
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(a.source.rfind("cache rule", 0), 0u);
    EXPECT_EQ(b.nb, a.nb);
    EXPECT_EQ(err, "tessera: warning: rejected CPU tile table " + path +
                       ":2: nb must be an integer from 1 to 65536, got '0'; using the shipped tables and the cache rule\n");
}

// Issue 38: a table that TESSERA_CPU_TILES names must exist (it used to be ignored silently); at the
// default paths ($STARPU_HOME/.tessera, $HOME/.tessera) a missing table is no error and says nothing.
TEST_F(TunedTile, MissingTableNamedByTheVariableIsAnError) {
    const std::string absent = (dir_ / "absent.txt").string();
    {
        ScopedEnv missing({{"TESSERA_CPU_TILES", absent.c_str()}});
        try {
            (void)tuned_tile("dpotrf");
            ADD_FAILURE() << "no Error for a missing TESSERA_CPU_TILES file";
        } catch (const Error& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("TESSERA_CPU_TILES=" + absent), std::string::npos) << what;
            EXPECT_NE(what.find("no such file"), std::string::npos) << what;
        }
        ScopedEnv directory({{"TESSERA_CPU_TILES", dir_.c_str()}});
        EXPECT_THROW((void)tuned_tile("dpotrf"), Error);
    }
    ScopedEnv defaults({{"TESSERA_CPU_TILES", nullptr}, {"STARPU_HOME", dir_.c_str()}});
    ::testing::internal::CaptureStderr();
    (void)tuned_tile("dpotrf");
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

// The GPU rule: the tile grows with the order from n = 8192, per family; below, or for another
// family, 0 (the CPU table's choice stands).
TEST(GpuTileRule, GrowsWithTheOrderPerFamily) {
    using detail::gpu_tile_rule;
    for (const char* lu : {"potrf", "getrf"}) {
        EXPECT_EQ(gpu_tile_rule(lu, 8191), 0) << lu;
        EXPECT_EQ(gpu_tile_rule(lu, 8192), 1024) << lu;
        EXPECT_EQ(gpu_tile_rule(lu, 16383), 1024) << lu;
        EXPECT_EQ(gpu_tile_rule(lu, 16384), 2048) << lu;
        EXPECT_EQ(gpu_tile_rule(lu, 32767), 2048) << lu;
        EXPECT_EQ(gpu_tile_rule(lu, 32768), 4096) << lu;
        EXPECT_EQ(gpu_tile_rule(lu, 115000), 4096) << lu;
    }
    EXPECT_EQ(gpu_tile_rule("gemm", 8191), 0);
    EXPECT_EQ(gpu_tile_rule("gemm", 8192), 2048);
    EXPECT_EQ(gpu_tile_rule("gemm", 16384), 4096);
    EXPECT_EQ(gpu_tile_rule("geqrf", 4096), 0);
    EXPECT_EQ(gpu_tile_rule("geqrf", 16384), 2048);
    EXPECT_EQ(gpu_tile_rule("syevd", 32768), 0);
    EXPECT_EQ(gpu_tile_rule("", 32768), 0);
}

// The order rule: n / (7.5·√workers) rounded to a multiple of 64, at most 2048, for the
// factorizations; for family gemm enough C tiles for the workers; 0 for other families.
TEST(OrderTileRule, EnoughColumnsForTheWorkers) {
    using detail::order_rule_tile;
    for (const char* f : {"potrf", "getrf", "geqrf"}) {
        const bool qr = std::string(f) == "geqrf";  // capped at 768
        EXPECT_EQ(order_rule_tile(f, 4096, 2), 384) << f;   // 4096 / 10.6 = 386
        EXPECT_EQ(order_rule_tile(f, 8192, 2), 768) << f;   // 772
        EXPECT_EQ(order_rule_tile(f, 16384, 2), qr ? 768 : 1536) << f;  // 1545
        EXPECT_EQ(order_rule_tile(f, 32768, 16), qr ? 768 : 1088) << f;  // 32768 / 30 = 1092
        EXPECT_EQ(order_rule_tile(f, 8192, 16), 256) << f;   // 273
        EXPECT_EQ(order_rule_tile(f, 1 << 20, 2), qr ? 768 : 2048) << f;  // capped
        EXPECT_EQ(order_rule_tile(f, 100, 2), 0) << f;       // rounds to 0: the table's stands
    }
    // BLAS 3 (family gemm): T tile columns with T² ≥ 2·workers, nb = ⌈n / T⌉ rounded up to 64, at most 2048.
    EXPECT_EQ(order_rule_tile("gemm", 4096, 2), 2048);    // T = 2
    EXPECT_EQ(order_rule_tile("gemm", 4096, 1), 2048);    // T = 2
    EXPECT_EQ(order_rule_tile("gemm", 4096, 4), 1408);    // T = 3: ⌈1365.3⌉ → 1408
    EXPECT_EQ(order_rule_tile("gemm", 4096, 16), 704);    // T = 6: ⌈682.7⌉ = 683 → 704
    EXPECT_EQ(order_rule_tile("gemm", 16384, 2), 2048);   // capped
    EXPECT_EQ(order_rule_tile("gemm", 100, 2), 64);       // ⌈50⌉ → 64 (the table's larger nb stands)
    EXPECT_EQ(order_rule_tile("syevd", 16384, 2), 0);
    EXPECT_EQ(order_rule_tile("potrf", 16384, 0), 0);
    EXPECT_EQ(order_rule_tile("potrf", 0, 2), 0);
}

// tuned_tile(routine, n) under the Runtime: the GPU rule with an OpenCL GPU; without one (the cpu
// mode; PoCL's device in the opencl and mixed modes is a CPU device) the order rule where it gives
// more than tuned_tile(routine), else tuned_tile(routine).
TEST_F(TunedTile, OrderAwareChoiceFollowsTheDevices) {
    const bool gpu = detail::runtime_has_opencl_gpu();
    if (!test::RuntimeEnvironment::runtime().opencl_workers()) EXPECT_FALSE(gpu);
    for (const char* routine : {"dgetrf", "ZPOTRF", "sgemm", "cgeqrf"}) {
        const TileChoice cpu = tuned_tile(routine);
        for (int64_t n : {100, 8192, 32768}) {
            SCOPED_TRACE(::testing::Message() << routine << " n=" << n);
            const TileChoice c = tuned_tile(routine, n);
            std::string family = std::string(routine).substr(1);
            for (char& ch : family) ch = char(std::tolower((unsigned char)ch));
            const int64_t rule = detail::gpu_tile_rule(family, n);
            const int64_t order = detail::order_rule_tile(family, n, test::RuntimeEnvironment::runtime().cpu_workers());
            if (gpu && rule > 0) {
                EXPECT_EQ(c.nb, rule);
                EXPECT_EQ(c.ib, std::min(cpu.ib, rule));
                EXPECT_EQ(c.source.rfind("GPU rule: " + family, 0), 0u) << c.source;
            } else if (!gpu && order > cpu.nb) {
                EXPECT_EQ(c.nb, order);
                EXPECT_EQ(c.ib, std::min(cpu.ib, order));
                EXPECT_EQ(c.source.rfind("order rule: " + family, 0), 0u) << c.source;
            } else {
                EXPECT_EQ(c.nb, cpu.nb);
                EXPECT_EQ(c.ib, cpu.ib);
                EXPECT_EQ(c.source, cpu.source);
            }
        }
    }
}

}  // namespace
}  // namespace tessera
