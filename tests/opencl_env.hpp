// The OpenCL device of the StarPU-free kernel tests (test_opencl_kernels, test_opencl_triangular,
// test_opencl_lu, test_opencl_qr_panel, test_qr_kernels): the first OpenCL CPU device (PoCL; TESSERA_TEST_OPENCL_DEVICE=gpu takes the first
// GPU instead), one context and in-order queue, and Tessera's program built once per precision
// (s, d, c, z) with the library's build options. PoCL's kernel cache goes to a temporary directory
// removed at exit unless POCL_CACHE_DIR is set.
#pragma once

#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/opencl/device.hpp"
#include "tessera/types.hpp"

namespace tessera::ocltest {


class Env {
public:
    static Env& get() {
        static Env env;
        return env;
    }
    cl_context ctx() const { return ctx_; }
    cl_command_queue queue() const { return q_; }

    template <class T>
    const ocl::DeviceKernels& kernels() {
        constexpr char prec = prec_letter<T>();
        auto& slot = programs_[prec == 's' ? 0 : prec == 'd' ? 1 : prec == 'c' ? 2 : 3];
        if (!slot) slot = build(prec);
        return *slot;
    }
    /// The program for `prec` built with the library's options plus `extra` (not kept; a tool's
    /// variant build, as tools/tune/cl_harness.hpp makes them).
    std::unique_ptr<ocl::DeviceKernels> build_variant(char prec, const std::string& extra) {
        return build(prec, extra);
    }

private:
    Env() {
        if (!std::getenv("POCL_CACHE_DIR")) {  // before any OpenCL call
            std::string dir = (std::filesystem::temp_directory_path() / "tessera-pocl-XXXXXX").string();
            if (mkdtemp(dir.data())) {
                setenv("POCL_CACHE_DIR", dir.c_str(), 0);
                cache_dir_ = dir;
            }
        }
        cl_uint nplat = 0;
        ocl::check(clGetPlatformIDs(0, nullptr, &nplat), "clGetPlatformIDs");
        std::vector<cl_platform_id> plats(nplat);
        ocl::check(clGetPlatformIDs(nplat, plats.data(), nullptr), "clGetPlatformIDs");
        // The first CPU device (PoCL); TESSERA_TEST_OPENCL_DEVICE=gpu runs the same checks on the first GPU.
        const char* want = std::getenv("TESSERA_TEST_OPENCL_DEVICE");
        const bool gpu = want && std::string(want) == "gpu";
        for (cl_platform_id p : plats) {
            cl_uint ndev = 0;
            if (clGetDeviceIDs(p, gpu ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_CPU, 1, &dev_, &ndev) == CL_SUCCESS &&
                ndev > 0)
                break;
            dev_ = nullptr;
        }
        if (!dev_)
            throw std::runtime_error(gpu ? "no OpenCL GPU device" : "no OpenCL CPU device (install pocl-opencl-icd)");
        info_ = ocl::query_device(dev_);
        cl_int err = CL_SUCCESS;
        ctx_ = clCreateContext(nullptr, 1, &dev_, nullptr, nullptr, &err);
        ocl::check(err, "clCreateContext");
        q_ = clCreateCommandQueue(ctx_, dev_, 0, &err);
        ocl::check(err, "clCreateCommandQueue");
    }
    ~Env() {
        for (auto& p : programs_) p.reset();
        if (q_) clReleaseCommandQueue(q_);
        if (ctx_) clReleaseContext(ctx_);
        std::error_code ec;
        if (!cache_dir_.empty()) std::filesystem::remove_all(cache_dir_, ec);
    }

    std::unique_ptr<ocl::DeviceKernels> build(char prec, const std::string& extra = "") {
        const std::string& src = ocl::program_source();
        const char* text = src.c_str();
        const size_t len = src.size();
        cl_int err = CL_SUCCESS;
        cl_program prog = clCreateProgramWithSource(ctx_, 1, &text, &len, &err);
        ocl::check(err, "clCreateProgramWithSource");
        const std::string opts = ocl::build_options(info_, prec) + (extra.empty() ? "" : " " + extra);
        if (clBuildProgram(prog, 1, &dev_, opts.c_str(), nullptr, nullptr) != CL_SUCCESS) {
            size_t size = 0;
            clGetProgramBuildInfo(prog, dev_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
            std::string log(size, '\0');
            clGetProgramBuildInfo(prog, dev_, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
            clReleaseProgram(prog);
            throw std::runtime_error("OpenCL build failed (" + opts + "):\n" + log);
        }
        std::printf("[ OpenCL   ] %s (%s, driver %s), built with '%s'\n", info_.name.c_str(), info_.vendor.c_str(),
                    info_.driver_version.c_str(), opts.c_str());
        return std::make_unique<ocl::DeviceKernels>(ctx_, dev_, prog, prec, info_);
    }

    std::string cache_dir_;  // our temporary POCL_CACHE_DIR, removed at exit
    cl_device_id dev_ = nullptr;
    ocl::DeviceInfo info_;
    cl_context ctx_ = nullptr;
    cl_command_queue q_ = nullptr;
    std::unique_ptr<ocl::DeviceKernels> programs_[4];  // s, d, c, z
};

/// NaN, or (NaN, NaN) for complex T.
template <class T>
T nan_value() {
    const real_t<T> nan = std::numeric_limits<real_t<T>>::quiet_NaN();
    if constexpr (is_complex_v<T>)
        return T(nan, nan);
    else
        return nan;
}

}  // namespace tessera::ocltest
