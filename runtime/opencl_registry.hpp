// OpenCL program registry: Tessera's kernels built for every StarPU OpenCL device, per precision.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kernels/opencl/device.hpp"

namespace tessera::detail {

/// The StarPU device ids of the OpenCL workers, ascending (0 … n−1 unless STARPU_WORKERS_OPENCLID
/// or a rank's share of its node's devices picked others, e.g. {1} for the second rank of a node).
std::vector<int> opencl_devids();

class OpenCLRegistry {
public:
    /// Build (or load from the binary cache) the program of each precision for every OpenCL device
    /// StarPU drives. Throws tessera::Error naming the device and the failed OpenCL call (with the
    /// build log when a build fails); what was built before is released.
    OpenCLRegistry();
    ~OpenCLRegistry();
    /// Kernels for StarPU OpenCL device `devid` and precision `prec` ('s', 'd', 'c' or 'z'). Throws
    /// tessera::Error when the device cannot run that precision (d and z need fp64).
    const ocl::DeviceKernels& kernels(int devid, char prec) const;
    /// One line per device: name, driver, precisions built, cache hits.
    std::string describe() const;
    /// Directory of the program binary cache.
    static std::string cache_dir();

private:
    struct Device {
        std::string summary;
        std::map<char, std::unique_ptr<ocl::DeviceKernels>> by_prec;  // by LAPACK letter
    };
    std::vector<Device> devices_;  // indexed by StarPU OpenCL devid
};

}  // namespace tessera::detail
