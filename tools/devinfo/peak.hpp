// Theoretical peaks of a device, where they can be computed from its queries (or, for memory
// bandwidth, from a short table of data-sheet values keyed by device name). Every value is an
// estimate and carries the formula or source it came from.
#pragma once

#include <string>

#include "tools/devinfo/device_props.hpp"

namespace tessera::devinfo {

/// One peak figure; value <= 0 means "n/a" (not computable for this device).
struct Peak {
    double value = 0;    ///< GFLOP/s for arithmetic, GB/s (1e9 bytes/s) for memory
    std::string basis;   ///< how the value was obtained, printed next to it
    bool known() const { return value > 0; }
};

struct Peaks {
    Peak fp64, fp32;  ///< GFLOP/s: compute units × clock × FMA lanes per CU × 2
    Peak memory;      ///< GB/s of device memory (read + write together), data sheet by name
};

/// Peaks for NVIDIA (lanes per SM from the compute capability), AMD (SIMDs × width per CU, FP32
/// only), Intel GPUs (8 FP32 lanes per EU) and CPUs (native vector width, one FMA pipe per CU).
Peaks estimate_peaks(const DeviceProps& p);

/// FMA lanes per compute unit of an NVIDIA GPU of compute capability major.minor, for FP32 and
/// FP64; {0, 0} when the architecture is not in the table.
struct NvLanes { int fp32 = 0, fp64 = 0; };
NvLanes nvidia_lanes(int major, int minor);

}  // namespace tessera::devinfo
