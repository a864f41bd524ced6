// Theoretical peak estimates (see peak.hpp).
#include "tools/devinfo/peak.hpp"

#include <cstdio>

namespace tessera::devinfo {

NvLanes nvidia_lanes(int major, int minor) {
    // FP32 / FP64 FMA units per SM, from NVIDIA's CUDA C Programming Guide (arithmetic throughput).
    switch (major) {
        case 5: return {128, 4};
        case 6: return minor == 0 ? NvLanes{64, 32} : NvLanes{128, 4};
        case 7: return minor == 5 ? NvLanes{64, 2} : NvLanes{64, 32};
        case 8: return minor == 0 ? NvLanes{64, 32} : NvLanes{128, 2};
        case 9: return minor == 0 ? NvLanes{128, 64} : NvLanes{};
        case 10: return minor == 0 ? NvLanes{128, 64} : NvLanes{};
        case 12: return {128, 2};
        default: return {};
    }
}

static Peak fma_peak(const DeviceProps& p, int lanes, const std::string& lanes_note) {
    Peak peak;
    if (lanes <= 0 || p.compute_units == 0 || p.clock_mhz == 0) return peak;
    peak.value = double(p.compute_units) * p.clock_mhz * 1e-3 * lanes * 2.0;
    char buf[160];
    std::snprintf(buf, sizeof buf, "est.: %u CU x %u MHz x %d lanes x 2 (%s)", p.compute_units, p.clock_mhz, lanes,
                  lanes_note.c_str());
    peak.basis = buf;
    return peak;
}

static bool has(const std::string& s, const char* needle) { return s.find(needle) != std::string::npos; }

// Data-sheet HBM bandwidths (GB/s) of the GPUs we measure on; anything else is "n/a".
static Peak memory_peak(const DeviceProps& p) {
    if (!p.is_nvidia()) return {};
    const std::string& n = p.name;
    double gbs = 0;
    if (has(n, "H200")) gbs = 4800;
    else if (has(n, "H100") && has(n, "PCIe")) gbs = 2000;
    else if (has(n, "H100") && has(n, "NVL")) gbs = 3900;
    else if (has(n, "H100")) gbs = 3350;
    else if (has(n, "A100") && has(n, "80GB")) gbs = has(n, "PCIe") ? 1935 : 2039;
    else if (has(n, "A100")) gbs = 1555;
    if (gbs <= 0) return {};
    return {gbs, "data sheet for \"" + n + "\""};
}

Peaks estimate_peaks(const DeviceProps& p) {
    Peaks peaks;
    peaks.memory = memory_peak(p);
    if (p.is_gpu() && p.is_nvidia() && p.cc_major >= 0) {
        const NvLanes lanes = nvidia_lanes(p.cc_major, p.cc_minor);
        const std::string sm = "sm_" + std::to_string(p.cc_major) + std::to_string(p.cc_minor) + ", boost clock";
        peaks.fp32 = fma_peak(p, lanes.fp32, "FP32 lanes per SM, " + sm);
        if (p.fp64) peaks.fp64 = fma_peak(p, lanes.fp64, "FP64 lanes per SM, " + sm);
    } else if (p.is_gpu() && p.is_amd() && p.amd_simd_per_cu && p.amd_simd_width) {
        peaks.fp32 = fma_peak(p, int(p.amd_simd_per_cu * p.amd_simd_width), "AMD SIMDs x width per CU, no dual issue");
    } else if (p.is_gpu() && p.is_intel()) {
        peaks.fp32 = fma_peak(p, 8, "assumes 8 FP32 lanes per EU");
    } else if (p.is_cpu()) {
        const std::string note = "native vector width, assumes 1 FMA pipe per CU";
        peaks.fp32 = fma_peak(p, int(p.native_width_float), note);
        if (p.fp64) peaks.fp64 = fma_peak(p, int(p.native_width_double), note);
    }
    return peaks;
}

}  // namespace tessera::devinfo
