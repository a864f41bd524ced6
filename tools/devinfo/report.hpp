// The benchmark table of tessera-devinfo --bench: one row per measurement, with the device's
// theoretical peak and the percentage reached where a peak can be computed ("n/a" otherwise).
#pragma once

#include <iosfwd>

#include "tools/devinfo/bench.hpp"
#include "tools/devinfo/peak.hpp"

namespace tessera::devinfo {

/// Print the table for one device, followed by the basis of every peak used. Returns the number of
/// measurements that failed (their error is printed in the row).
int print_bench_table(std::ostream& os, const DeviceRef& ref, const DeviceProps& p, const Peaks& peaks,
                      const BenchResults& r, bool quick);

}  // namespace tessera::devinfo
