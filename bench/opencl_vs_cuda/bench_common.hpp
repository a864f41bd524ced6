// Host code shared by the OpenCL host program (ocl_bench.cpp, built by CMake) and the CUDA one
// (cuda_bench.cu, built by nvcc on the GPU machine): the matrix generator, the sampled entries,
// the CPU reference check and the JSON-lines result record that report.py reads.
//
// Matrices are n×n, column-major, leading dimension n. Entries are small multiples of 1/8
// (generator below, also written in kernels.cl, cuda_bench.cu and torch_bench.py), so every
// product and every sum the benchmarks form is exact in double precision: all correct
// implementations produce bit-identical results, which report.py compares.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace ovc {

constexpr uint32_t kSeedA = 0x9e3779b9u, kSeedB = 0x85ebca6bu, kSeedCopy = 0x01234567u;

/// Entry (i, j) of the matrix with `seed`: an integer in [-7, 8] times 1/8.
inline double gen_value(uint32_t i, uint32_t j, uint32_t seed) {
    uint32_t h = (i * 2654435761u) ^ (j * 2246822519u) ^ seed;
    h ^= h >> 15;
    return double(int((h >> 7) & 15u) - 7) * 0.125;
}

/// The entries every implementation reports (same list in torch_bench.py): 64 pseudo-random
/// positions plus the four corners.
inline std::vector<std::pair<int, int>> sample_positions(int n) {
    std::vector<std::pair<int, int>> pos;
    for (int s = 0; s < 64; ++s)
        pos.push_back({int((int64_t(s) * 7919 + 13) % n), int((int64_t(s) * 104729 + 71) % n)});
    pos.push_back({0, 0});
    pos.push_back({n - 1, 0});
    pos.push_back({0, n - 1});
    pos.push_back({n - 1, n - 1});
    return pos;
}

/// Checksums of a matrix from its column sums: sum = Σ_j colsum_j, wsum = Σ_j (j mod 13 + 1)·colsum_j.
inline void checksums(const std::vector<double>& colsum, double& sum, double& wsum) {
    sum = wsum = 0;
    for (size_t j = 0; j < colsum.size(); ++j) {
        sum += colsum[j];
        wsum += double(j % 13 + 1) * colsum[j];
    }
}

/// Largest componentwise scaled error of sampled GEMM entries (C = A·B, k = n) against the CPU reference:
/// |C(i,j) − ref| / (Σ_l |A(i,l)·B(l,j)| · n · eps); passing is ≤ 60 (the bound of
/// docs/architecture.md#numerical-checks, applied entrywise). `values` are the sampled entries in
/// sample_positions(n) order.
inline double gemm_sample_error(int n, const std::vector<double>& values) {
    const auto pos = sample_positions(n);
    const double eps = std::numeric_limits<double>::epsilon() / 2;
    double worst = 0;
    for (size_t s = 0; s < pos.size(); ++s) {
        double ref = 0, mag = 0;
        for (int l = 0; l < n; ++l) {
            const double p = gen_value(uint32_t(pos[s].first), uint32_t(l), kSeedA) *
                             gen_value(uint32_t(l), uint32_t(pos[s].second), kSeedB);
            ref += p;
            mag += std::fabs(p);
        }
        const double err = std::fabs(values[s] - ref) / (std::max(mag, 1e-300) * n * eps);
        worst = std::max(worst, std::isfinite(values[s]) ? err : std::numeric_limits<double>::infinity());
    }
    return worst;
}

/// One timed kernel of one implementation, written as one JSON object per line.
struct Record {
    std::string impl, device, kernel;  ///< impl: "opencl" | "cuda"; kernel: "copy" | "gemm"
    int n = 0, reps = 0;
    int tile[5] = {0, 0, 0, 0, 0};     ///< GEMM_MB, GEMM_NB, GEMM_KB, GEMM_TM, GEMM_TN
    double best_s = 0, median_s = 0;   ///< seconds per kernel, best and median of `reps`
    double rate = 0;                   ///< GB/s (copy: read + written bytes) or TFLOP/s (gemm), from best_s
    bool check_ok = false;
    std::string check_detail;
    double sum = 0, wsum = 0;
    std::vector<double> samples;
};

inline std::string json_number(double v) {
    if (!std::isfinite(v)) return "null";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

inline std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) c = ' ';
        out += c;
    }
    return out + "\"";
}

/// Append `r` as one line of JSON to `f`.
inline void write_record(std::FILE* f, const Record& r) {
    std::string s = "{\"impl\":" + json_string(r.impl) + ",\"device\":" + json_string(r.device) +
                    ",\"kernel\":" + json_string(r.kernel) + ",\"n\":" + std::to_string(r.n) +
                    ",\"reps\":" + std::to_string(r.reps) + ",\"tile\":[";
    for (int t = 0; t < 5; ++t) {
        if (t) s += ',';
        s += std::to_string(r.tile[t]);
    }
    s += "],\"best_s\":" + json_number(r.best_s) + ",\"median_s\":" + json_number(r.median_s) +
         ",\"rate\":" + json_number(r.rate) + ",\"check_ok\":" + (r.check_ok ? "true" : "false") +
         ",\"check_detail\":" + json_string(r.check_detail) + ",\"sum\":" + json_number(r.sum) +
         ",\"wsum\":" + json_number(r.wsum) + ",\"samples\":[";
    for (size_t k = 0; k < r.samples.size(); ++k) {
        if (k) s += ',';
        s += json_number(r.samples[k]);
    }
    s += "]}\n";
    std::fputs(s.c_str(), f);
    std::fflush(f);
}

/// Best and median of a list of times (seconds).
inline void best_median(std::vector<double> t, double& best, double& median) {
    std::sort(t.begin(), t.end());
    best = t.empty() ? 0 : t.front();
    median = t.empty() ? 0 : t[t.size() / 2];
}

/// Parse "8192,16384" into sizes; empty string gives an empty list. Returns false on bad input.
inline bool parse_sizes(const std::string& text, std::vector<int>& out) {
    out.clear();
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find(',', start);
        if (end == std::string::npos) end = text.size();
        const std::string item = text.substr(start, end - start);
        char* tail = nullptr;
        const long v = std::strtol(item.c_str(), &tail, 10);
        if (item.empty() || *tail != '\0' || v <= 0 || v > 65536) return false;
        out.push_back(int(v));
        start = end + 1;
    }
    return true;
}

/// Command-line options "--key value" limited to `keys`; on a bad or unknown option prints the
/// usage line to stderr and exits with status 2.
inline std::map<std::string, std::string> parse_options(int argc, char** argv, const std::vector<std::string>& keys,
                                                        const char* usage) {
    std::map<std::string, std::string> opts;
    for (int a = 1; a < argc; ++a) {
        const std::string key = argv[a];
        if (key == "-h" || key == "--help") {
            std::printf("usage: %s %s\n", argv[0], usage);
            std::exit(0);
        }
        const bool known = key.rfind("--", 0) == 0 && std::find(keys.begin(), keys.end(), key.substr(2)) != keys.end();
        if (!known || a + 1 >= argc) {
            std::fprintf(stderr, "%s: bad option '%s'\nusage: %s %s\n", argv[0], key.c_str(), argv[0], usage);
            std::exit(2);
        }
        opts[key.substr(2)] = argv[++a];
    }
    return opts;
}

/// The options both programs take: sizes, repetitions and the JSON-lines output file.
struct CommonOptions {
    std::vector<int> copy_sizes{8192, 16384}, gemm_sizes{4096, 8192};
    int reps_copy = 20, reps_gemm = 5;
    std::string output;  ///< "" = stdout
};
constexpr const char* kCommonUsage = "[--copy-sizes 8192,16384] [--gemm-sizes 4096,8192] [--reps-copy 20] "
                                     "[--reps-gemm 5] [--output results.jsonl]";

/// Read the common options from `opts`; exits with status 2 on malformed values.
inline CommonOptions common_options(const std::map<std::string, std::string>& opts, const char* prog) {
    CommonOptions o;
    auto fail = [&](const char* what) {
        std::fprintf(stderr, "%s: bad value for --%s\n", prog, what);
        std::exit(2);
    };
    for (const char* key : {"copy-sizes", "gemm-sizes"}) {
        auto it = opts.find(key);
        if (it != opts.end() && !parse_sizes(it->second, key[0] == 'c' ? o.copy_sizes : o.gemm_sizes)) fail(key);
    }
    for (const char* key : {"reps-copy", "reps-gemm"}) {
        auto it = opts.find(key);
        if (it == opts.end()) continue;
        const int v = std::atoi(it->second.c_str());
        if (v < 1 || v > 1000) fail(key);
        (key[5] == 'c' ? o.reps_copy : o.reps_gemm) = v;
    }
    if (auto it = opts.find("output"); it != opts.end()) o.output = it->second;
    return o;
}

/// One progress line on stderr for a finished record.
inline void print_progress(const Record& r) {
    std::fprintf(stderr, "%-6s %-4s n=%-6d best %9.3f ms  %9.4g %-7s check %s (%s)\n", r.impl.c_str(),
                 r.kernel.c_str(), r.n, r.best_s * 1e3, r.rate, r.kernel == "copy" ? "GB/s" : "TFLOP/s",
                 r.check_ok ? "ok" : "FAILED", r.check_detail.c_str());
}

}  // namespace ovc
