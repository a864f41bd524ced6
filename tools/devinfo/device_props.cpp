// Device property queries and the device listing of tessera-devinfo (see device_props.hpp).
#include "tools/devinfo/device_props.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ostream>
#include <sstream>

namespace tessera::devinfo {

// cl_nv_device_attribute_query and cl_amd_device_attribute_query tokens (cl_ext.h spellings).
constexpr cl_device_info kNvCcMajor = 0x4000, kNvCcMinor = 0x4001, kNvRegsPerBlock = 0x4002, kNvWarp = 0x4003;
constexpr cl_device_info kAmdBoardName = 0x4038, kAmdSimdPerCu = 0x4040, kAmdSimdWidth = 0x4041;

static bool contains(const std::string& haystack, const char* needle) {
    std::string h = haystack, n = needle;
    std::transform(h.begin(), h.end(), h.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return h.find(n) != std::string::npos;
}

bool DeviceProps::has_extension(const std::string& ext) const {
    return std::find(extensions.begin(), extensions.end(), ext) != extensions.end();
}
bool DeviceProps::is_nvidia() const { return contains(vendor, "nvidia"); }
bool DeviceProps::is_amd() const { return contains(vendor, "advanced micro devices") || contains(vendor, "amd"); }
bool DeviceProps::is_intel() const { return contains(vendor, "intel"); }

DeviceProps query_props(const DeviceRef& ref) {
    cl_device_id dev = ref.device;
    DeviceProps p;
    p.platform_name = platform_string(ref.platform, CL_PLATFORM_NAME);
    p.platform_version = platform_string(ref.platform, CL_PLATFORM_VERSION);
    p.name = device_string(dev, CL_DEVICE_NAME);
    p.vendor = device_string(dev, CL_DEVICE_VENDOR);
    p.version = device_string(dev, CL_DEVICE_VERSION);
    p.driver = device_string(dev, CL_DRIVER_VERSION);
    p.c_version = device_string(dev, CL_DEVICE_OPENCL_C_VERSION);
    p.type = device_value<cl_device_type>(dev, CL_DEVICE_TYPE);
    p.compute_units = device_value<cl_uint>(dev, CL_DEVICE_MAX_COMPUTE_UNITS);
    p.clock_mhz = device_value<cl_uint>(dev, CL_DEVICE_MAX_CLOCK_FREQUENCY);
    p.global_mem = device_value<cl_ulong>(dev, CL_DEVICE_GLOBAL_MEM_SIZE);
    p.max_alloc = device_value<cl_ulong>(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    p.local_mem = device_value<cl_ulong>(dev, CL_DEVICE_LOCAL_MEM_SIZE);
    p.local_mem_dedicated = device_value<cl_device_local_mem_type>(dev, CL_DEVICE_LOCAL_MEM_TYPE) == CL_LOCAL;
    p.max_work_group = device_value<size_t>(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    cl_uint dims = device_value<cl_uint>(dev, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
    if (dims > 0 && dims <= 16) {
        p.max_item_sizes.resize(dims);
        if (clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof(size_t), p.max_item_sizes.data(),
                            nullptr) != CL_SUCCESS)
            p.max_item_sizes.clear();
    }
    std::istringstream ext(device_string(dev, CL_DEVICE_EXTENSIONS));
    for (std::string e; ext >> e;) p.extensions.push_back(e);
    const auto fp64_config = device_value<cl_device_fp_config>(dev, CL_DEVICE_DOUBLE_FP_CONFIG);
    const auto fp32_config = device_value<cl_device_fp_config>(dev, CL_DEVICE_SINGLE_FP_CONFIG);
    p.fp64 = fp64_config != 0 || p.has_extension("cl_khr_fp64");
    p.fp16 = p.has_extension("cl_khr_fp16");
    p.fma64 = (fp64_config & CL_FP_FMA) != 0;
    p.fma32 = (fp32_config & CL_FP_FMA) != 0;
    p.native_width_float = device_value<cl_uint>(dev, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT);
    p.native_width_double = device_value<cl_uint>(dev, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE);
    if (p.has_extension("cl_nv_device_attribute_query")) {
        p.cc_major = int(device_value<cl_uint>(dev, kNvCcMajor, cl_uint(-1)));
        p.cc_minor = int(device_value<cl_uint>(dev, kNvCcMinor, cl_uint(-1)));
        if (p.cc_major < 0 || p.cc_minor < 0) p.cc_major = p.cc_minor = -1;
        p.nv_regs_per_block = device_value<cl_uint>(dev, kNvRegsPerBlock);
        p.nv_warp = device_value<cl_uint>(dev, kNvWarp);
    }
    if (p.has_extension("cl_amd_device_attribute_query")) {
        p.amd_board = device_string(dev, kAmdBoardName);
        p.amd_simd_per_cu = device_value<cl_uint>(dev, kAmdSimdPerCu);
        p.amd_simd_width = device_value<cl_uint>(dev, kAmdSimdWidth);
    }
    return p;
}

std::string type_name(cl_device_type type) {
    std::string s;
    auto add = [&](cl_device_type bit, const char* name) {
        if (!(type & bit)) return;
        if (!s.empty()) s += '|';
        s += name;
    };
    add(CL_DEVICE_TYPE_GPU, "GPU");
    add(CL_DEVICE_TYPE_CPU, "CPU");
    add(CL_DEVICE_TYPE_ACCELERATOR, "ACCELERATOR");
#ifdef CL_DEVICE_TYPE_CUSTOM
    add(CL_DEVICE_TYPE_CUSTOM, "CUSTOM");
#endif
    return s.empty() ? "unknown" : s;
}

std::string format_bytes(cl_ulong bytes) {
    static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = double(bytes);
    int u = 0;
    while (v >= 1024.0 && u < 4) v /= 1024.0, ++u;
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 || v == double(cl_ulong(v)) ? "%.0f %s" : "%.2f %s", v, units[u]);
    return buf;
}

void print_platform(std::ostream& os, int index, cl_platform_id platform) {
    os << "Platform " << index << ": " << platform_string(platform, CL_PLATFORM_NAME) << " ("
       << platform_string(platform, CL_PLATFORM_VERSION) << ", vendor "
       << platform_string(platform, CL_PLATFORM_VENDOR) << ")\n";
}

static std::string extension_summary(const DeviceProps& p, bool all) {
    std::string s = std::to_string(p.extensions.size()) + (all ? ":" : "; notable:");
    static const char* notable[] = {"cl_khr_fp64", "cl_khr_fp16", "cl_khr_int64_base_atomics",
                                    "cl_khr_subgroups", "cl_intel_subgroups", "cl_khr_spir", "cl_khr_il_program",
                                    "cl_khr_command_buffer", "cl_nv_device_attribute_query",
                                    "cl_nv_pragma_unroll", "cl_amd_device_attribute_query", "cl_khr_gl_sharing"};
    if (all) {
        for (const auto& e : p.extensions) s += " " + e;
        return s;
    }
    int shown = 0;
    for (const char* e : notable)
        if (p.has_extension(e)) {
            s += ' ';
            s += e;
            ++shown;
        }
    if (shown == 0) s += " none";
    return s + " (--extensions lists all)";
}

void print_props(std::ostream& os, const DeviceRef& ref, const DeviceProps& p, bool all_extensions) {
    auto row = [&](const char* key, const std::string& value) {
        char buf[40];
        std::snprintf(buf, sizeof buf, "    %-22s ", key);
        os << buf << value << "\n";
    };
    os << "  Device " << ref.label() << ": " << p.name << "\n";
    row("type", type_name(p.type));
    row("vendor", p.vendor);
    row("device version", p.version);
    row("OpenCL C version", p.c_version);
    row("driver version", p.driver);
    if (p.cc_major >= 0)
        row("compute capability", std::to_string(p.cc_major) + "." + std::to_string(p.cc_minor) +
                                      " (warp " + std::to_string(p.nv_warp) + ", " +
                                      std::to_string(p.nv_regs_per_block) + " registers per block)");
    if (!p.amd_board.empty() || p.amd_simd_per_cu)
        row("AMD board / SIMD", p.amd_board + " (" + std::to_string(p.amd_simd_per_cu) + " SIMD x " +
                                    std::to_string(p.amd_simd_width) + " lanes per CU)");
    row("compute units", std::to_string(p.compute_units));
    row("max clock", p.clock_mhz ? std::to_string(p.clock_mhz) + " MHz" : "not reported");
    row("global memory", format_bytes(p.global_mem) + " (max allocation " + format_bytes(p.max_alloc) + ")");
    row("local memory", format_bytes(p.local_mem) + (p.local_mem_dedicated ? " (dedicated)" : " (in global memory)"));
    std::string items;
    for (size_t s : p.max_item_sizes) items += (items.empty() ? "" : " x ") + std::to_string(s);
    row("max work-group", std::to_string(p.max_work_group) + " (per dimension " + items + ")");
    row("native vector width", "float " + std::to_string(p.native_width_float) + ", double " +
                                   std::to_string(p.native_width_double));
    row("fp64", p.fp64 ? std::string("yes") + (p.fma64 ? " (hardware FMA)" : "") : "no");
    row("fp16", p.fp16 ? "yes (cl_khr_fp16)" : "no");
    row("extensions", extension_summary(p, all_extensions));
}

}  // namespace tessera::devinfo
