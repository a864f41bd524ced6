// Benchmark table formatting (see report.hpp).
#include "tools/devinfo/report.hpp"

#include <cstdio>
#include <ostream>
#include <string>

namespace tessera::devinfo {

namespace {

std::string number(double v, const char* unit) {
    char buf[48];
    std::snprintf(buf, sizeof buf, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v, unit);
    return buf;
}

struct Row {
    const char* name;
    const Measurement& m;
    const char* unit;
    const Peak* peak;  // nullptr: no peak exists for this kind of measurement
};

}  // namespace

int print_bench_table(std::ostream& os, const DeviceRef& ref, const DeviceProps& p, const Peaks& peaks,
                      const BenchResults& r, bool quick) {
    os << "\nBenchmark of device " << ref.label() << ": " << p.name << (quick ? "  (--quick sizes)" : "") << "\n";
    char line[512];
    std::snprintf(line, sizeof line, "  %-26s %16s %16s %8s  %s\n", "measurement", "result", "peak", "% peak",
                  "how");
    os << line;
    os << "  " << std::string(26 + 1 + 16 + 1 + 16 + 1 + 8 + 2 + 40, '-') << "\n";
    const Row rows[] = {
        {"FP64 FMA rate", r.fp64, "GFLOP/s", &peaks.fp64},
        {"FP32 FMA rate", r.fp32, "GFLOP/s", &peaks.fp32},
        {"device copy (read+write)", r.copy, "GB/s", &peaks.memory},
        {"host->device pageable", r.h2d_pageable, "GB/s", nullptr},
        {"host->device pinned", r.h2d_pinned, "GB/s", nullptr},
        {"device->host pageable", r.d2h_pageable, "GB/s", nullptr},
        {"device->host pinned", r.d2h_pinned, "GB/s", nullptr},
        {"kernel launch latency", r.launch, "us", nullptr},
    };
    int failures = 0;
    for (const Row& row : rows) {
        std::string result = row.m.ok() ? number(row.m.value, row.unit) : (row.m.error.empty() ? "-" : "FAILED");
        std::string peak = row.peak && row.peak->known() ? number(row.peak->value, row.unit) : "n/a";
        std::string pct = "n/a";
        if (row.m.ok() && row.peak && row.peak->known()) {
            char b[16];
            std::snprintf(b, sizeof b, "%.1f%%", 100.0 * row.m.value / row.peak->value);
            pct = b;
        }
        std::string how = row.m.error.empty() ? row.m.detail : "error: " + row.m.error;
        if (!row.m.error.empty()) ++failures;
        std::snprintf(line, sizeof line, "  %-26s %16s %16s %8s  %s\n", row.name, result.c_str(), peak.c_str(),
                      pct.c_str(), how.c_str());
        os << line;
    }
    auto basis = [&](const char* what, const Peak& pk, const char* why_not) {
        os << "  peak " << what << ": " << (pk.known() ? pk.basis : std::string("n/a (") + why_not + ")") << "\n";
    };
    basis("FP64", peaks.fp64, p.fp64 ? "lanes per compute unit unknown for this device" : "no fp64");
    basis("FP32", peaks.fp32, "lanes per compute unit unknown for this device");
    basis("memory", peaks.memory, "OpenCL reports no memory clock or bus width; no data-sheet entry");
    os << "  peaks are theoretical estimates (max clock from CL_DEVICE_MAX_CLOCK_FREQUENCY); transfers and launch "
          "latency have no computable peak.\n";
    return failures;
}

}  // namespace tessera::devinfo
