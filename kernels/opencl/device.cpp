// Device queries, program source assembly and the per-program kernel table.
#include "kernels/opencl/device.hpp"

#include <algorithm>
#include <atomic>
#include <string_view>
#include <vector>

#include "kernels/opencl/embedded_sources.hpp"
#include "kernels/opencl/launch_util.hpp"
#include "kernels/opencl/params.hpp"
#include "tessera/types.hpp"

#ifndef CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV
#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#endif

namespace tessera::ocl {

const char* error_name(cl_int err) {
    switch (err) {
        case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
        case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
        case CL_COMPILER_NOT_AVAILABLE: return "CL_COMPILER_NOT_AVAILABLE";
        case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
        case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
        case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
        case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
        case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
        case CL_INVALID_DEVICE: return "CL_INVALID_DEVICE";
        case CL_INVALID_CONTEXT: return "CL_INVALID_CONTEXT";
        case CL_INVALID_COMMAND_QUEUE: return "CL_INVALID_COMMAND_QUEUE";
        case CL_INVALID_MEM_OBJECT: return "CL_INVALID_MEM_OBJECT";
        case CL_INVALID_PROGRAM: return "CL_INVALID_PROGRAM";
        case CL_INVALID_PROGRAM_EXECUTABLE: return "CL_INVALID_PROGRAM_EXECUTABLE";
        case CL_INVALID_KERNEL: return "CL_INVALID_KERNEL";
        case CL_INVALID_ARG_INDEX: return "CL_INVALID_ARG_INDEX";
        case CL_INVALID_ARG_VALUE: return "CL_INVALID_ARG_VALUE";
        case CL_INVALID_ARG_SIZE: return "CL_INVALID_ARG_SIZE";
        case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
        case CL_INVALID_WORK_DIMENSION: return "CL_INVALID_WORK_DIMENSION";
        case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
        case CL_INVALID_WORK_ITEM_SIZE: return "CL_INVALID_WORK_ITEM_SIZE";
        case CL_INVALID_GLOBAL_OFFSET: return "CL_INVALID_GLOBAL_OFFSET";
        case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
        case CL_SUCCESS: return "CL_SUCCESS";
        case CL_PROFILING_INFO_NOT_AVAILABLE: return "CL_PROFILING_INFO_NOT_AVAILABLE";
        case CL_MAP_FAILURE: return "CL_MAP_FAILURE";
        case CL_INVALID_BUILD_OPTIONS: return "CL_INVALID_BUILD_OPTIONS";
        case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
        case CL_INVALID_GLOBAL_WORK_SIZE: return "CL_INVALID_GLOBAL_WORK_SIZE";
        default: return "unknown error";
    }
}

void check(cl_int err, const char* what) {
    if (err != CL_SUCCESS)
        throw Error(std::string(what) + " returned " + std::to_string(err) + " (" + error_name(err) + ")");
}

namespace {
std::atomic<int> g_launch_fault{0};  // launches left before the injected failure, 0 when disarmed
}  // namespace

void inject_launch_failure(int nth) { g_launch_fault.store(nth < 0 ? 0 : nth); }

bool launch_failure_due() {
    int left = g_launch_fault.load(std::memory_order_relaxed);
    while (left > 0)
        if (g_launch_fault.compare_exchange_weak(left, left - 1)) return left == 1;
    return false;
}

static std::string device_string(cl_device_id dev, cl_device_info param) {
    size_t size = 0;
    check(clGetDeviceInfo(dev, param, 0, nullptr, &size), "clGetDeviceInfo");
    std::string s(size, '\0');
    check(clGetDeviceInfo(dev, param, size, s.data(), nullptr), "clGetDeviceInfo");
    while (!s.empty() && s.back() == '\0') s.pop_back();
    return s;
}

DeviceInfo query_device(cl_device_id dev) {
    DeviceInfo info;
    info.name = device_string(dev, CL_DEVICE_NAME);
    info.vendor = device_string(dev, CL_DEVICE_VENDOR);
    info.driver_version = device_string(dev, CL_DRIVER_VERSION);
    info.version = device_string(dev, CL_DEVICE_VERSION);
    std::string ext = device_string(dev, CL_DEVICE_EXTENSIONS);
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof info.type, &info.type, nullptr);
    cl_device_fp_config fp64 = 0;
    clGetDeviceInfo(dev, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, nullptr);
    info.fp64 = fp64 != 0 || ext.find("cl_khr_fp64") != std::string::npos;
    cl_ulong lmem = 0;
    clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lmem, &lmem, nullptr);
    info.local_mem_bytes = size_t(lmem);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof info.max_work_group, &info.max_work_group, nullptr);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof info.compute_units, &info.compute_units, nullptr);
    if (ext.find("cl_nv_device_attribute_query") != std::string::npos) {
        cl_uint major = 0, minor = 0;
        if (clGetDeviceInfo(dev, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major, nullptr) == CL_SUCCESS &&
            clGetDeviceInfo(dev, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor, nullptr) == CL_SUCCESS) {
            info.cc_major = int(major);
            info.cc_minor = int(minor);
        }
    }
    return info;
}

const std::string& program_source() {
    static const std::string source = [] {
        std::string s;
        for (const EmbeddedSource& src : embedded_sources()) {
            s += "// ---- " + std::string(src.name) + "\n";
            s += src.text;
            s += "\n";
        }
        return s;
    }();
    return source;
}

char real_prec(char prec) { return prec == 'z' ? 'd' : prec == 'c' ? 's' : prec; }

std::string build_options(const DeviceInfo& info, char prec) {
    if (prec != 's' && prec != 'd' && prec != 'c' && prec != 'z')
        throw Error(std::string("tessera::ocl: no precision '") + prec + "' (s, d, c or z)");
    std::string opts = std::string("-DTESSERA_PREC_") + char(prec - 'a' + 'A');
    if (info.cc_major >= 8) opts += " -DTESSERA_NV_SM=" + std::to_string(info.cc_major * 10 + info.cc_minor);
    if (info.type & CL_DEVICE_TYPE_CPU) opts += " -DTESSERA_CPU_DEVICE";  // prelude.clh: TESSERA_UNROLL
    // A complex program runs the real precision's NVIDIA GEMM (gemm_complex.cl) and so takes its
    // parameters; its portable kernels hold complex scalars, twice the bytes, in local memory.
    KernelParams params = kernel_params(info, real_prec(prec));
    fit_local_memory(params, info, prec == 'z' ? 16 : prec == 'c' ? 8 : 0);
    opts += params_build_options(params);
    return opts;
}

namespace {

/// Value of "-DNAME=value" in the build options `opts` (the last definition, as the compiler takes
/// it), or `def`.
int build_macro(const std::string& opts, std::string_view name, int def) {
    const std::string key = "-D" + std::string(name) + "=";
    int value = def;
    for (size_t pos = opts.find(key); pos != std::string::npos; pos = opts.find(key, pos + key.size()))
        if (pos == 0 || opts[pos - 1] == ' ') value = std::stoi(opts.substr(pos + key.size()));
    return value;
}

/// The options `program` was built with (tools build variants with options of their own), or
/// build_options(info, prec) where the driver does not say.
std::string program_options(cl_program program, cl_device_id dev, const DeviceInfo& info, char prec) {
    size_t size = 0;
    clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_OPTIONS, 0, nullptr, &size);
    std::string opts(size + 1, '\0');  // the driver's string ends with its '\0'
    if (size > 1 &&
        clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_OPTIONS, size, opts.data(), nullptr) == CL_SUCCESS)
        opts.resize(opts.find('\0'));
    else
        opts.clear();
    return opts.empty() ? build_options(info, prec) : opts;
}

/// The Params of a program built with `opts`: each kParamTable entry with a field, from its -D
/// macro or the table's default. Throws tessera::Error for sizes the launchers cannot use.
Params params_from(const std::string& opts) {
    Params p;
    for (const ParamDef& d : kParamTable)
        if (d.field) p.*d.field = build_macro(opts, d.name, p.*d.field);
    if (p.trsm_bs < 1 || p.potrf_bs < 1 || p.trsm_nv < 1 || p.trsm_ng < 1)
        throw Error("tessera::ocl: TESSERA_TRSM_BS/TRSM_NV/TRSM_NG/POTRF_BS must be >= 1");
    return p;
}

}  // namespace

DeviceKernels::DeviceKernels(cl_context ctx, cl_device_id dev, cl_program program, char prec, DeviceInfo info)
    : ctx_(ctx), dev_(dev), program_(program), prec_(prec), info_(std::move(info)) {
    try {
        options_ = program_options(program_, dev, info_, prec);
        params_ = params_from(options_);
        cl_uint count = 0;
        check(clCreateKernelsInProgram(program_, 0, nullptr, &count), "clCreateKernelsInProgram");
        std::vector<cl_kernel> kernels(count);
        check(clCreateKernelsInProgram(program_, count, kernels.data(), nullptr), "clCreateKernelsInProgram");
        for (size_t i = 0; i < kernels.size(); ++i) {
            char name[256] = {};
            std::array<size_t, 3> local{0, 0, 0};
            const char* what = "clGetKernelInfo";
            cl_int err = clGetKernelInfo(kernels[i], CL_KERNEL_FUNCTION_NAME, sizeof name - 1, name, nullptr);
            if (err == CL_SUCCESS) {
                what = "clGetKernelWorkGroupInfo";
                err = clGetKernelWorkGroupInfo(kernels[i], dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof local,
                                               local.data(), nullptr);
            }
            if (err != CL_SUCCESS)
                for (size_t j = i; j < kernels.size(); ++j) clReleaseKernel(kernels[j]);  // not yet in kernels_
            check(err, what);
            kernels_[name] = kernels[i];
            compiled_local_[name] = local;
        }
        cl_int err = CL_SUCCESS;
        info_scratch_ = clCreateBuffer(ctx_, CL_MEM_READ_WRITE, sizeof(cl_int), nullptr, &err);
        check(err, "clCreateBuffer(info scratch)");
    } catch (...) {
        release();  // a destructor does not run for a constructor that throws
        throw;
    }
}

void DeviceKernels::release() noexcept {
    for (auto& [name, k] : kernels_) clReleaseKernel(k);
    kernels_.clear();
    if (info_scratch_) clReleaseMemObject(info_scratch_);
    for (cl_mem& m : scratch_) {
        if (m) clReleaseMemObject(m);
        m = nullptr;
    }
    for (cl_mem m : retired_) clReleaseMemObject(m);
    retired_.clear();
    info_scratch_ = nullptr;
    if (program_) clReleaseProgram(program_);
    program_ = nullptr;
}

DeviceKernels::~DeviceKernels() { release(); }

std::unique_ptr<DeviceKernels> DeviceKernels::another() const {
    check(clRetainProgram(program_), "clRetainProgram");  // the new set owns this reference
    return std::make_unique<DeviceKernels>(ctx_, dev_, program_, prec_, info_);
}

cl_mem DeviceKernels::scratch(size_t bytes, Workspace w) const {
    cl_mem& buf = scratch_[int(w)];
    size_t& size = scratch_bytes_[int(w)];
    if (bytes <= size) return buf;
    // At least twice the last size, so that a workspace grows a few times at most.
    size_t want = std::max(bytes, 2 * size);
    cl_int err = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(ctx_, CL_MEM_READ_WRITE, want, nullptr, &err);
    if (err != CL_SUCCESS && want > bytes) {  // twice is more than the device allocates at once
        want = bytes;
        mem = clCreateBuffer(ctx_, CL_MEM_READ_WRITE, want, nullptr, &err);
    }
    check(err, "clCreateBuffer(scratch)");
    // The old buffer is kept, not released: commands already enqueued may still use it, and
    // NVIDIA's clReleaseMemObject then waits for the device (up to 23 ms a release in a process's
    // first FP16 dsposv on an H200, bench/gpu_notes.md). The set releases it when it is destroyed.
    if (buf) retired_.push_back(buf);
    buf = mem;
    size = want;
    return buf;
}

const std::array<size_t, 3>& DeviceKernels::compiled_local(const char* name) const {
    auto it = compiled_local_.find(name);
    if (it == compiled_local_.end()) throw Error(std::string("tessera: no OpenCL kernel named ") + name);
    return it->second;
}

cl_kernel DeviceKernels::get(const char* name) const {
    auto it = kernels_.find(name);
    if (it == kernels_.end()) throw Error(std::string("tessera: no OpenCL kernel named ") + name);
    return it->second;
}

}  // namespace tessera::ocl
