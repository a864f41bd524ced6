// The properties tessera-devinfo lists for one OpenCL device, and how they are printed.
#pragma once

#include <CL/cl.h>

#include <iosfwd>
#include <string>
#include <vector>

#include "tools/devinfo/cl_util.hpp"

namespace tessera::devinfo {

struct DeviceProps {
    std::string platform_name, platform_version;
    std::string name, vendor, version, driver, c_version;
    cl_device_type type = 0;
    cl_uint compute_units = 0;
    cl_uint clock_mhz = 0;                      ///< CL_DEVICE_MAX_CLOCK_FREQUENCY, MHz (boost clock on NVIDIA)
    cl_ulong global_mem = 0, max_alloc = 0;     ///< bytes
    cl_ulong local_mem = 0;                     ///< bytes per work-group
    bool local_mem_dedicated = false;           ///< CL_LOCAL (true) or emulated in global memory
    size_t max_work_group = 0;
    std::vector<size_t> max_item_sizes;
    bool fp64 = false, fp16 = false;            ///< cl_khr_fp64 (or a double FP config), cl_khr_fp16
    bool fma32 = false, fma64 = false;          ///< CL_FP_FMA in the single / double FP config
    cl_uint native_width_float = 0, native_width_double = 0;
    std::vector<std::string> extensions;
    int cc_major = -1, cc_minor = -1;           ///< NVIDIA compute capability (cl_nv_device_attribute_query)
    cl_uint nv_warp = 0, nv_regs_per_block = 0;
    cl_uint amd_simd_per_cu = 0, amd_simd_width = 0;  ///< cl_amd_device_attribute_query
    std::string amd_board;

    bool has_extension(const std::string& ext) const;
    bool is_nvidia() const;
    bool is_amd() const;
    bool is_intel() const;
    bool is_gpu() const { return (type & CL_DEVICE_TYPE_GPU) != 0; }
    bool is_cpu() const { return (type & CL_DEVICE_TYPE_CPU) != 0; }
};

/// Query every listed property; vendor-specific queries are tried only when their extension is present.
DeviceProps query_props(const DeviceRef& ref);

/// "GPU", "CPU", "ACCELERATOR", "CUSTOM" (joined with '|' when several bits are set).
std::string type_name(cl_device_type type);

/// Bytes as "4.66 GiB" / "48 KiB".
std::string format_bytes(cl_ulong bytes);

/// Print the platform header line once per platform, then the device block. With all_extensions the
/// whole extension list is printed; otherwise its count and the notable ones.
void print_platform(std::ostream& os, int index, cl_platform_id platform);
void print_props(std::ostream& os, const DeviceRef& ref, const DeviceProps& p, bool all_extensions);

}  // namespace tessera::devinfo
