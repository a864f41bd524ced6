// OpenCL program registry: Tessera's kernels built for every StarPU OpenCL device, per precision.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kernels/opencl/device.hpp"

namespace tessera::detail {

class OpenCLRegistry {
public:
    /// Build (or load from the binary cache) the program of each precision for every OpenCL device
    /// StarPU drives. Throws tessera::Error naming the device and the failed OpenCL call (with the
    /// build log when a build fails); what was built before is released.
    OpenCLRegistry();
    ~OpenCLRegistry();
    /// Kernels for StarPU OpenCL device `devid` and precision `prec` ('s' or 'd'). Throws
    /// tessera::Error when the device cannot run that precision (no fp64).
    const ocl::DeviceKernels& kernels(int devid, char prec) const;
    /// One line per device: name, driver, precisions built, cache hits.
    std::string describe() const;
    /// Directory of the program binary cache.
    static std::string cache_dir();

private:
    struct Device {
        std::string summary;
        std::unique_ptr<ocl::DeviceKernels> single, dbl;
    };
    std::vector<Device> devices_;  // indexed by StarPU OpenCL devid
};

}  // namespace tessera::detail
