// OpenCL helpers for tessera-devinfo (see cl_util.hpp).
#include "tools/devinfo/cl_util.hpp"

#include <stdexcept>

namespace tessera::devinfo {

void check(cl_int err, const char* what) {
    if (err != CL_SUCCESS)
        throw std::runtime_error(std::string(what) + ": OpenCL error " + std::to_string(err) + " (" +
                                 error_name(err) + ")");
}

static std::string trim_nul(std::string s) {
    while (!s.empty() && (s.back() == '\0' || s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
}

std::string device_string(cl_device_id dev, cl_device_info param) {
    size_t size = 0;
    if (clGetDeviceInfo(dev, param, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
    std::string s(size, '\0');
    if (clGetDeviceInfo(dev, param, size, s.data(), nullptr) != CL_SUCCESS) return {};
    return trim_nul(std::move(s));
}

std::string platform_string(cl_platform_id platform, cl_platform_info param) {
    size_t size = 0;
    if (clGetPlatformInfo(platform, param, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
    std::string s(size, '\0');
    if (clGetPlatformInfo(platform, param, size, s.data(), nullptr) != CL_SUCCESS) return {};
    return trim_nul(std::move(s));
}

std::vector<DeviceRef> enumerate_devices(std::vector<cl_platform_id>& platforms) {
    platforms.clear();
    std::vector<DeviceRef> out;
    cl_uint np = 0;
    if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0) return out;
    platforms.resize(np);
    if (clGetPlatformIDs(np, platforms.data(), nullptr) != CL_SUCCESS) {
        platforms.clear();
        return out;
    }
    for (cl_uint p = 0; p < np; ++p) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) continue;
        std::vector<cl_device_id> devs(nd);
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, nd, devs.data(), nullptr) != CL_SUCCESS) continue;
        for (cl_uint d = 0; d < nd; ++d) out.push_back({int(p), int(d), platforms[p], devs[d]});
    }
    return out;
}

Session::Session(cl_device_id dev) : dev_(dev) {
    cl_int err = CL_SUCCESS;
    ctx_ = clCreateContext(nullptr, 1, &dev_, nullptr, nullptr, &err);
    check(err, "clCreateContext");
    queue_ = clCreateCommandQueue(ctx_, dev_, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS) {
        clReleaseContext(ctx_);
        check(err, "clCreateCommandQueue");
    }
}

Session::~Session() {
    if (queue_) clReleaseCommandQueue(queue_);
    if (ctx_) clReleaseContext(ctx_);
}

std::string build_log(cl_program program, cl_device_id dev) {
    size_t size = 0;
    if (clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) != CL_SUCCESS || size == 0)
        return {};
    std::string log(size, '\0');
    clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    return trim_nul(std::move(log));
}

cl_program Session::build(const std::string& source, const std::string& options) const {
    const char* text = source.c_str();
    const size_t length = source.size();
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(ctx_, 1, &text, &length, &err);
    check(err, "clCreateProgramWithSource");
    err = clBuildProgram(program, 1, &dev_, options.c_str(), nullptr, nullptr);
    if (err != CL_SUCCESS) {
        std::string log = build_log(program, dev_);
        clReleaseProgram(program);
        throw std::runtime_error("clBuildProgram (" + options + "): OpenCL error " + std::to_string(err) + " (" +
                                 error_name(err) + ")\n" + log);
    }
    return program;
}

Kernel::Kernel(cl_program program, const char* name) {
    cl_int err = CL_SUCCESS;
    k = clCreateKernel(program, name, &err);
    check(err, name);
}
Kernel::~Kernel() {
    if (k) clReleaseKernel(k);
}

Buffer::Buffer(cl_context ctx, cl_mem_flags flags, size_t bytes) {
    cl_int err = CL_SUCCESS;
    m = clCreateBuffer(ctx, flags, bytes, nullptr, &err);
    check(err, "clCreateBuffer");
}
Buffer::~Buffer() {
    if (m) clReleaseMemObject(m);
}

double event_seconds(cl_event ev) {
    cl_ulong start = 0, end = 0;
    check(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr),
          "clGetEventProfilingInfo(START)");
    check(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr),
          "clGetEventProfilingInfo(END)");
    return double(end - start) * 1e-9;
}

}  // namespace tessera::devinfo
