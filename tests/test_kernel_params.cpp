// The per-device kernel parameter table (kernels/opencl/params.hpp): parsing, matching, and the
// loader's rejection of corrupt or mismatched files with a warning and a fall-back to defaults.
// No OpenCL device is needed.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <unistd.h>
#include <string>
#include <vector>

#include "kernels/opencl/embedded_sources.hpp"
#include "kernels/opencl/params.hpp"

using namespace tessera::ocl;

namespace {

DeviceInfo h100() {
    DeviceInfo d;
    d.name = "NVIDIA H100 80GB HBM3";
    d.vendor = "NVIDIA Corporation";
    d.cc_major = 9, d.cc_minor = 0;
    d.local_mem_bytes = 48 * 1024;
    d.max_work_group = 1024;
    return d;
}

DeviceInfo pocl() {
    DeviceInfo d;
    d.name = "pthread-skylake-avx512-Intel(R) Xeon(R) Processor";
    d.vendor = "GenuineIntel";
    d.local_mem_bytes = 4 * 1024 * 1024;
    d.max_work_group = 4096;
    return d;
}

const char* kGood = R"(tessera-kernel-params 1
# a comment
[entry]
vendor = nvidia            # case-insensitive substring
cc = 9.0
precision = d
TESSERA_NVD_STAGES = 3
TESSERA_NV_GROUP = 16

[entry]
name = NVIDIA H100*
precision = d
TESSERA_NVD_STAGES = 4
TESSERA_NVD_WN = 2

[entry]
name = pthread-*
TESSERA_GEMM_MB = 32
TESSERA_GEMM_TM = 2
end
)";

/// Sets $TESSERA_KERNEL_PARAMS to a temporary file holding `text` for the test's lifetime.
class ParamFile {
public:
    explicit ParamFile(const std::string& text) {
        char tmpl[] = "/tmp/tessera_params_XXXXXX";
        const int fd = mkstemp(tmpl);
        EXPECT_GE(fd, 0);
        path_ = tmpl;
        std::ofstream(path_, std::ios::binary) << text;
        if (fd >= 0) close(fd);
        setenv("TESSERA_KERNEL_PARAMS", path_.c_str(), 1);
    }
    ~ParamFile() {
        unsetenv("TESSERA_KERNEL_PARAMS");
        std::remove(path_.c_str());
    }
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

}  // namespace

TEST(KernelParams, DefaultsMatchSpecsAndAreValid) {
    const KernelParams d = default_params();
    EXPECT_EQ(d.size(), param_specs().size());
    EXPECT_EQ(d.at("TESSERA_GEMM_MB"), 64);  // gemm.cl's #ifndef default
    EXPECT_EQ(d.at("TESSERA_NVD_MMA"), 1688);
    EXPECT_EQ(check_params(d), "");
    EXPECT_EQ(params_build_options(d), "");  // nothing differs from the built-in defaults
}

// kParamTable (param_table.hpp) is the one definition of the defaults; the .cl files keep theirs
// under #ifndef for compiling a file on its own. Each must equal the table's, and be in the file
// the table names (its help's first word); a parameter the table gives to a .cpp file is the
// host's alone, and no .cl file defines it.
TEST(KernelParams, ClDefaultsEqualTheTable) {
    static_assert(Params().gemm_mb == 64 && Params().trsm_leaf == 256 && Params().nvd_mbar_few == 0);
    const KernelParams defaults = default_params();
    for (const ParamDef& d : kParamTable) {
        const std::string name(d.name), help(d.help), file = help.substr(0, help.find(':'));
        EXPECT_EQ(defaults.at(name), d.def) << name;
        const std::string guard = "#ifndef " + name + "\n#define " + name + " ";
        std::string defined_in;
        for (const EmbeddedSource& src : embedded_sources()) {
            const std::string text = src.text;
            const size_t at = text.find(guard);
            if (at == std::string::npos) continue;
            EXPECT_EQ(defined_in, "") << name << " has defaults in " << defined_in << " and " << src.name;
            defined_in = src.name;
            char* end = nullptr;
            const long value = std::strtol(text.c_str() + at + guard.size(), &end, 10);
            EXPECT_TRUE(*end == ' ' || *end == '\n') << name << " in " << src.name << ": not an integer default";
            EXPECT_EQ(value, d.def) << name << ": " << src.name << "'s #ifndef default differs from kParamTable's";
        }
        if (file.size() > 3 && file.compare(file.size() - 3, 3, ".cl") == 0)
            EXPECT_EQ(defined_in, file) << name << ": no #ifndef default in " << file;
        else
            EXPECT_EQ(defined_in, "") << name << " belongs to " << file << " but " << defined_in << " defines it";
    }
}

// The host's kTrsmChainColumns (param_table.hpp) is trsm.cl's TRSM_CHAIN_NC: the launcher takes the
// chain for no more columns than the kernel holds.
TEST(KernelParams, TrsmChainColumnsEqualTheKernels) {
    const std::string define = "#define TRSM_CHAIN_NC ";
    for (const EmbeddedSource& src : embedded_sources()) {
        const std::string text = src.text;
        const size_t at = text.find(define);
        if (at == std::string::npos) continue;
        EXPECT_EQ(std::string(src.name), "trsm.cl");
        EXPECT_EQ(std::strtol(text.c_str() + at + define.size(), nullptr, 10), long(kTrsmChainColumns));
        return;
    }
    ADD_FAILURE() << "no '" << define << "' in the OpenCL sources";
}

TEST(KernelParams, SpecificityRules) {
    std::string err;
    auto t = parse_param_table(kGood, "good.txt", &err);
    ASSERT_TRUE(t) << err;
    const ParamEntry* used = nullptr;
    KernelParams p = resolve_params(*t, h100(), 'd', &used);
    ASSERT_NE(used, nullptr);
    EXPECT_EQ(used->line, 3);  // vendor + cc + precision (score 4) beats glob name + precision (3)
    EXPECT_EQ(p.at("TESSERA_NVD_STAGES"), 3);
    EXPECT_EQ(p.at("TESSERA_NV_GROUP"), 16);
    EXPECT_EQ(p.at("TESSERA_NVD_WN"), default_params().at("TESSERA_NVD_WN"));  // not in that entry

    p = resolve_params(*t, h100(), 's', &used);  // no float entry for NVIDIA: defaults
    EXPECT_EQ(used, nullptr);
    EXPECT_EQ(p, default_params());

    p = resolve_params(*t, pocl(), 'd', &used);
    ASSERT_NE(used, nullptr);
    EXPECT_EQ(p.at("TESSERA_GEMM_MB"), 32);
    EXPECT_EQ(p.at("TESSERA_GEMM_TM"), 2);
    EXPECT_EQ(params_build_options(p), " -DTESSERA_GEMM_MB=32 -DTESSERA_GEMM_TM=2");

    DeviceInfo a100 = h100();
    a100.name = "NVIDIA A100-SXM4-80GB", a100.cc_minor = 0, a100.cc_major = 8;
    p = resolve_params(*t, a100, 'd', &used);
    EXPECT_EQ(used, nullptr);
}

TEST(KernelParams, FormatRoundTrips) {
    std::string err;
    auto t = parse_param_table(kGood, "good.txt", &err);
    ASSERT_TRUE(t) << err;
    const std::string text = format_param_table(t->entries, "written by a test\nsecond line");
    auto u = parse_param_table(text, "round.txt", &err);
    ASSERT_TRUE(u) << err;
    ASSERT_EQ(u->entries.size(), t->entries.size());
    for (size_t i = 0; i < t->entries.size(); ++i) {
        EXPECT_EQ(u->entries[i].values, t->entries[i].values);
        EXPECT_EQ(u->entries[i].match.vendor, t->entries[i].match.vendor);
        EXPECT_EQ(u->entries[i].match.name, t->entries[i].match.name);
        EXPECT_EQ(u->entries[i].match.cc_major, t->entries[i].match.cc_major);
        EXPECT_EQ(u->entries[i].match.prec, t->entries[i].match.prec);
    }
}

TEST(KernelParams, RejectsCorruptTablesWithTheLineAndReason) {
    static const char kNul[] = "tessera-kernel-params 1\n[entry]\nname = a\0b\nend\n";
    struct Case {
        std::string text, expect;  // expect: a substring of the error
    };
    const std::vector<Case> cases = {
        {"", "empty table"},
        {"hello world\n", "not a kernel parameter table"},
        {"tessera-kernel-params 2\n[entry]\nend\n", "format version 2"},
        {"tessera-kernel-params 1\n[entry]\nTESSERA_NVD_STAGES = 2\n", "missing final 'end'"},
        {"tessera-kernel-params 1\n[entry]\nTESSERA_NVD_STAGES = 9\nend\n", "out of range"},
        {"tessera-kernel-params 1\n[entry]\nTESSERA_NVD_MMA = 1234\nend\n", "out of range"},
        {"tessera-kernel-params 1\n[entry]\nTESSERA_NVD_STAGES = two\nend\n", "not an integer"},
        {"tessera-kernel-params 1\n[entry]\nTESSERA_NVD_STAGES = 2x\nend\n", "not an integer"},
        {"tessera-kernel-params 1\n[entry]\nTESSERA_FANCY = 2\nend\n", "unknown parameter 'TESSERA_FANCY'"},
        {"tessera-kernel-params 1\nTESSERA_NVD_STAGES = 2\nend\n", "outside an [entry]"},
        {"tessera-kernel-params 1\n[entry]\nTESSERA_NVD_STAGES 2\nend\n", "expected 'key = value'"},
        {"tessera-kernel-params 1\n[entry]\ncc = nine\nend\n", "cc must look like 9.0"},
        {"tessera-kernel-params 1\n[entry]\nprecision = z\nend\n", "precision must be"},
        {"tessera-kernel-params 1\n[entry]\nTESSERA_NV_GROUP = 4\nTESSERA_NV_GROUP = 8\nend\n", "duplicate key"},
        {"tessera-kernel-params 1\n[device]\nend\n", "unknown section"},
        {"tessera-kernel-params 1\n[entry]\nend\n[entry]\n", "text after 'end'"},
        {std::string(kNul, sizeof kNul - 1), "NUL"},
    };
    for (const Case& c : cases) {
        std::string err;
        auto t = parse_param_table(c.text, "bad.txt", &err);
        EXPECT_FALSE(t) << "accepted: " << c.text;
        EXPECT_NE(err.find(c.expect), std::string::npos) << "error '" << err << "' lacks '" << c.expect << "'";
        EXPECT_EQ(err.rfind("bad.txt:", 0), 0u) << err;  // names the file (and the line)
    }
    std::string err;
    parse_param_table("tessera-kernel-params 1\n[entry]\n\nTESSERA_NVD_STAGES = 7\nend\n", "bad.txt", &err);
    EXPECT_EQ(err.rfind("bad.txt:4:", 0), 0u) << err;
}

TEST(KernelParams, EntryBreakingCrossRulesIsSkippedWithWarning) {
    // Each value is in range, but 3 stages of 256x128 blocks need 72 KiB of local memory.
    std::string err;
    auto t = parse_param_table("tessera-kernel-params 1\n[entry]\nvendor = NVIDIA\nTESSERA_NVD_WM = 4\n"
                               "TESSERA_NVD_WN = 4\nTESSERA_NVD_STAGES = 3\nend\n", "x.txt", &err);
    ASSERT_TRUE(t) << err;
    std::vector<std::string> warnings;
    const ParamEntry* used = nullptr;
    KernelParams p = resolve_params(*t, h100(), 'd', &used, [&](const std::string& w) { warnings.push_back(w); });
    EXPECT_EQ(used, nullptr);
    EXPECT_EQ(p, default_params());
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("x.txt:2"), std::string::npos) << warnings[0];
}

// The norm partials' shape: within the device's work-group and local memory, lines no more than
// work-items, a chunk's entries shared evenly (norms.cl would not build otherwise).
TEST(KernelParams, NormShapesOutsideTheKernelsRulesAreRejected) {
    const DeviceInfo dev = h100();
    KernelParams p = default_params();
    p["TESSERA_NORM_WG"] = 512;  // the Hopper double entry's
    EXPECT_EQ(check_params(p, &dev), "");
    p["TESSERA_NORM_LINES"] = 64, p["TESSERA_NORM_CHUNK"] = 256;  // 2·64·257·8 bytes: 263 KB
    EXPECT_NE(check_params(p, &dev).find("norms.cl local memory"), std::string::npos);
    p = default_params();
    p["TESSERA_NORM_LINES"] = 64, p["TESSERA_NORM_CHUNK"] = 32, p["TESSERA_NORM_WG"] = 64;
    EXPECT_EQ(check_params(p, &dev), "");
    p["TESSERA_NORM_WG"] = 32;  // fewer work-items than lines
    EXPECT_NE(check_params(p, &dev).find("norms.cl work-group"), std::string::npos);
    p["TESSERA_NORM_LINES"] = 16, p["TESSERA_NORM_CHUNK"] = 32, p["TESSERA_NORM_WG"] = 512;  // 512 entries, 512 items:
    EXPECT_EQ(check_params(p, &dev), "");                                                   // one each
    p["TESSERA_NORM_CHUNK"] = 16;  // 256 entries among 512 work-items
    EXPECT_NE(check_params(p, &dev).find("norms.cl work-group"), std::string::npos);
}

TEST(KernelParams, ShippedTableParsesAndCoversHopperAndPocl) {
    ASSERT_FALSE(shipped_param_tables().empty());
    for (const EmbeddedParamTable& t : shipped_param_tables()) {
        std::string err;
        auto table = parse_param_table(t.text, t.name, &err);
        ASSERT_TRUE(table) << err;
        for (char prec : {'s', 'd'}) {
            const ParamEntry* used = nullptr;
            std::vector<std::string> warnings;
            resolve_params(*table, h100(), prec, &used, [&](const std::string& w) { warnings.push_back(w); });
            EXPECT_NE(used, nullptr) << t.name << " has no entry for sm_90, precision " << prec;
            EXPECT_TRUE(warnings.empty());
            resolve_params(*table, pocl(), prec, &used, [&](const std::string& w) { warnings.push_back(w); });
            EXPECT_NE(used, nullptr) << t.name << " has no entry for PoCL, precision " << prec;
            EXPECT_TRUE(warnings.empty());
        }
    }
}

TEST(KernelParams, LoaderUsesAGoodFile) {
    ParamFile f(kGood);
    std::vector<std::string> warnings;
    KernelParams p = kernel_params(pocl(), 'd', [&](const std::string& w) { warnings.push_back(w); });
    EXPECT_TRUE(warnings.empty());
    EXPECT_EQ(p.at("TESSERA_GEMM_MB"), 32);
}

TEST(KernelParams, LoaderRejectsCorruptFileAndFallsBack) {
    std::vector<std::string> warnings;
    auto warn = [&](const std::string& w) { warnings.push_back(w); };
    const KernelParams builtin = kernel_params(h100(), 'd', warn);  // shipped table only
    ASSERT_TRUE(warnings.empty());

    std::string truncated(kGood);
    truncated.resize(truncated.rfind("end"));  // lost its tail
    {
        ParamFile f(truncated);
        warnings.clear();
        EXPECT_EQ(kernel_params(h100(), 'd', warn), builtin);
        ASSERT_EQ(warnings.size(), 1u);
        EXPECT_NE(warnings[0].find("rejected kernel parameter file"), std::string::npos) << warnings[0];
        EXPECT_NE(warnings[0].find(f.path()), std::string::npos) << warnings[0];
        EXPECT_NE(warnings[0].find("truncated"), std::string::npos) << warnings[0];
    }
    {
        ParamFile f("\x7f" "ELF\x02\x01\x01 garbage");
        warnings.clear();
        EXPECT_EQ(kernel_params(pocl(), 's', warn), kernel_params(pocl(), 's', [](const std::string&) {}));
        ASSERT_EQ(warnings.size(), 1u);
        EXPECT_NE(warnings[0].find("not a kernel parameter table"), std::string::npos) << warnings[0];
    }
    {
        setenv("TESSERA_KERNEL_PARAMS", "/nonexistent/tessera/params.txt", 1);
        warnings.clear();
        EXPECT_EQ(kernel_params(h100(), 'd', warn), builtin);
        unsetenv("TESSERA_KERNEL_PARAMS");
        ASSERT_EQ(warnings.size(), 1u);
        EXPECT_NE(warnings[0].find("cannot open"), std::string::npos) << warnings[0];
    }
}

TEST(KernelParams, LoaderRejectsFileForAnotherDevice) {
    // A table tuned on an H100 carries nothing for PoCL: warn, keep the built-in parameters.
    ParamFile f("tessera-kernel-params 1\n[entry]\nvendor = NVIDIA Corporation\nname = NVIDIA H100 80GB HBM3\n"
                "cc = 9.0\nprecision = d\nTESSERA_NVD_STAGES = 3\nend\n");
    std::vector<std::string> warnings;
    const KernelParams p = kernel_params(pocl(), 'd', [&](const std::string& w) { warnings.push_back(w); });
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("no usable entry for pthread-skylake"), std::string::npos) << warnings[0];
    unsetenv("TESSERA_KERNEL_PARAMS");
    EXPECT_EQ(p, kernel_params(pocl(), 'd', [](const std::string&) {}));

    // ...while the H100 it was written for takes it.
    setenv("TESSERA_KERNEL_PARAMS", f.path().c_str(), 1);
    warnings.clear();
    const KernelParams q = kernel_params(h100(), 'd', [&](const std::string& w) { warnings.push_back(w); });
    EXPECT_TRUE(warnings.empty());
    EXPECT_EQ(q.at("TESSERA_NVD_STAGES"), 3);
}
