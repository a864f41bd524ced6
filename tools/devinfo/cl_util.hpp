// Small OpenCL helpers for tessera-devinfo: error checks, info queries, device enumeration and an
// RAII context + profiling queue for one device.
#pragma once

#include <CL/cl.h>

#include <string>
#include <vector>

#include "kernels/opencl/device.hpp"

namespace tessera::devinfo {

/// Symbolic name of an OpenCL error code ("CL_OUT_OF_RESOURCES"): the library's table.
using ocl::error_name;

/// Throw std::runtime_error("<what>: OpenCL error <code> (<name>)") when err != CL_SUCCESS.
void check(cl_int err, const char* what);

/// A string-valued device (platform) property, "" when the query fails.
std::string device_string(cl_device_id dev, cl_device_info param);
std::string platform_string(cl_platform_id platform, cl_platform_info param);

/// A fixed-size device property, `fallback` when the query fails (e.g. an unknown vendor query).
template <class T>
T device_value(cl_device_id dev, cl_device_info param, T fallback = T{}) {
    T value{};
    if (clGetDeviceInfo(dev, param, sizeof value, &value, nullptr) != CL_SUCCESS) return fallback;
    return value;
}

/// One device of one platform, with its indices in enumeration order ("P.D" in the output).
struct DeviceRef {
    int platform_index = 0, device_index = 0;
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
    std::string label() const { return std::to_string(platform_index) + "." + std::to_string(device_index); }
};

/// Every platform's devices of every type. `platforms` receives all platform ids (possibly with no
/// device). Returns an empty list when no ICD/platform is installed; never throws for that case.
std::vector<DeviceRef> enumerate_devices(std::vector<cl_platform_id>& platforms);

/// A context and an in-order, profiling-enabled queue on one device; released on destruction.
class Session {
public:
    explicit Session(cl_device_id dev);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    /// Build `source` with `options`; throws std::runtime_error carrying the build log on failure.
    cl_program build(const std::string& source, const std::string& options) const;
    cl_device_id device() const { return dev_; }
    cl_context context() const { return ctx_; }
    cl_command_queue queue() const { return queue_; }

private:
    cl_device_id dev_;
    cl_context ctx_ = nullptr;
    cl_command_queue queue_ = nullptr;
};

/// A kernel created from a built program, released at scope exit.
struct Kernel {
    cl_kernel k = nullptr;
    Kernel(cl_program program, const char* name);
    ~Kernel();
    Kernel(const Kernel&) = delete;
    Kernel& operator=(const Kernel&) = delete;
};

/// A device buffer of `bytes` bytes, released at scope exit.
struct Buffer {
    cl_mem m = nullptr;
    Buffer(cl_context ctx, cl_mem_flags flags, size_t bytes);
    ~Buffer();
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
};

/// The build log of `program` on `dev` (trailing NULs and blank lines trimmed).
std::string build_log(cl_program program, cl_device_id dev);

/// Kernel execution time of a completed, profiled event, in seconds.
double event_seconds(cl_event ev);

}  // namespace tessera::devinfo
