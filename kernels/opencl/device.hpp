// OpenCL device description and the kernels built for one device and one precision.
// StarPU-free: the runtime's program registry creates these; launchers (launch.hpp) use them.
#pragma once

#include <CL/cl.h>

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kernels/opencl/param_table.hpp"  // Params

namespace tessera::ocl {

/// What a launcher needs to know of a device to pick a kernel and its parameters.
struct DeviceInfo {
    std::string name, vendor, driver_version, version;
    cl_device_type type = 0;
    int cc_major = -1, cc_minor = -1;  ///< NVIDIA compute capability (cl_nv_device_attribute_query), else -1
    bool fp64 = false;                 ///< cl_khr_fp64 (or OpenCL ≥ 1.2 double support)
    size_t local_mem_bytes = 0;
    size_t max_work_group = 0;
    unsigned compute_units = 0;
};
DeviceInfo query_device(cl_device_id dev);

/// Full program source: the common prelude followed by every embedded kernels/opencl/*.cl file.
const std::string& program_source();
/// The real precision under `prec`: 's' for 's' and 'c', 'd' for 'd' and 'z'.
char real_prec(char prec);
/// clBuildProgram options for precision `prec` ('s', 'd', 'c' or 'z') on this device:
/// -DTESSERA_PREC_<S|D|C|Z>, -DTESSERA_NV_SM on NVIDIA cc ≥ 8.0, plus the device's kernel
/// parameters (kernel_params() of real_prec(prec): defaults, shipped table, $TESSERA_KERNEL_PARAMS)
/// as -D macros, for complex with the portable kernels' local memory fitted to complex scalars
/// (fit_local_memory()). Throws tessera::Error for another letter.
std::string build_options(const DeviceInfo& info, char prec);

/// The kernels of one built program (one device, one precision). Kernel objects are created once
/// here; StarPU drives each OpenCL device from one thread, so setting arguments is not contended.
/// The object owns `program` from the start: when the constructor throws (tessera::Error naming
/// the OpenCL call), it has released the program and whatever it had created.
class DeviceKernels {
public:
    DeviceKernels(cl_context ctx, cl_device_id dev, cl_program program, char prec, DeviceInfo info);
    ~DeviceKernels();
    DeviceKernels(const DeviceKernels&) = delete;
    DeviceKernels& operator=(const DeviceKernels&) = delete;

    /// The kernel named `name`; throws tessera::Error if the program has none.
    cl_kernel get(const char* name) const;
    /// Whether the program has a kernel named `name` (kernels that build options leave out).
    bool has(const char* name) const { return kernels_.count(name) != 0; }
    /// The work-group size `name` was compiled for (reqd_work_group_size; zeros when it declares
    /// none), queried once at construction so that launchers check it without a driver call.
    /// Throws tessera::Error if the program has no such kernel.
    const std::array<size_t, 3>& compiled_local(const char* name) const;
    char prec() const { return prec_; }
    /// The options this program was built with (CL_PROGRAM_BUILD_OPTIONS: build_options(info, prec)
    /// for the library's programs, plus a tool's variant options), read once.
    const std::string& options() const { return options_; }
    /// The kernel sizes of this program: the TESSERA_* macros of kParamTable that fill a Params field,
    /// read from options() once (the last definition of each, as the compiler takes it; the table's
    /// default where there is none).
    const Params& params() const { return params_; }
    const DeviceInfo& info() const { return info_; }
    cl_context context() const { return ctx_; }
    /// A second set of this program's kernels, with workspaces of their own, for another command
    /// queue driven from another thread (a kernel's arguments belong to its object). Throws
    /// tessera::Error naming the OpenCL call that failed.
    std::unique_ptr<DeviceKernels> another() const;
    /// A device int the potrf kernel writes its info into (read back on the same in-order queue).
    cl_mem info_scratch() const { return info_scratch_; }
    /// A device workspace of at least `bytes` bytes for launchers that need temporaries (the
    /// blocked trsm's inverted diagonal blocks). Grow-only: the same buffer is returned until a
    /// larger one is asked for; its contents are undefined. A new buffer is at least twice the last
    /// one, which is kept until the set is destroyed (released at once, it would make the enqueueing
    /// thread wait for the device on NVIDIA's OpenCL), so the kept ones total less than the current
    /// one. Sharing one buffer between calls is safe because StarPU drives each device from one
    /// thread that enqueues everything on one in-order queue: a launcher's use of the workspace is
    /// ordered before the next launcher's.
    /// The workspace is therefore only valid for work enqueued on that single in-order queue.
    /// Workspace::Gemm is a second, separate buffer for gemm()'s own temporaries (the complex
    /// product's packed operands), since the other launchers pass matrices in the first to gemm();
    /// Workspace::SplitK a third, for the partial products of a split-k GEMM (gemm_select.cpp),
    /// since the complex product passes its packed operands in the second to the real one;
    /// Workspace::Panel a fourth, for the contiguous copy of an LU panel (launch_getrf.cpp), whose
    /// recursion calls trsm and gemm;
    /// Workspace::Transposed a fifth, for the Bᵀ through which the real product runs a tensor-core
    /// NN product (gemm_select.cpp), since every other workspace may hold its operands.
    /// Throws tessera::Error if the allocation fails.
    enum class Workspace { Launcher = 0, Gemm = 1, SplitK = 2, Panel = 3, Transposed = 4 };
    static constexpr int kWorkspaces = int(Workspace::Transposed) + 1;
    cl_mem scratch(size_t bytes, Workspace w = Workspace::Launcher) const;

private:
    void release() noexcept;
    cl_context ctx_;
    cl_device_id dev_;
    cl_program program_;
    char prec_;
    DeviceInfo info_;
    std::string options_;
    Params params_;
    cl_mem info_scratch_ = nullptr;
    mutable cl_mem scratch_[kWorkspaces] = {};  // see scratch(), by Workspace
    mutable size_t scratch_bytes_[kWorkspaces] = {};
    mutable std::vector<cl_mem> retired_;  // grown-out workspaces (scratch()), released by release()
    std::map<std::string, cl_kernel> kernels_;
    std::map<std::string, std::array<size_t, 3>> compiled_local_;
};

/// Throw tessera::Error("<what> returned <code> (<name>)") when err != CL_SUCCESS, e.g.
/// "clEnqueueNDRangeKernel(tessera_gemm) returned -5 (CL_OUT_OF_RESOURCES)".
void check(cl_int err, const char* what);
/// Symbolic name of an OpenCL error code ("CL_OUT_OF_RESOURCES"), or "unknown error".
const char* error_name(cl_int err);

}  // namespace tessera::ocl
