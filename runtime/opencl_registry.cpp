// Builds the embedded OpenCL program per device and precision, caching program binaries on disk
// keyed by device name, driver version, build options and source hash.
#include "runtime/opencl_registry.hpp"

#include <starpu.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <system_error>

#include <unistd.h>

#include "tessera/types.hpp"

namespace tessera::detail {

namespace fs = std::filesystem;

static uint64_t fnv1a(const std::string& s) {
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    return h;
}

std::string OpenCLRegistry::cache_dir() {
    if (const char* d = std::getenv("TESSERA_CACHE_DIR")) return d;
    if (const char* d = std::getenv("STARPU_HOME")) return std::string(d) + "/.tessera/cl-cache";
    if (const char* d = std::getenv("XDG_CACHE_HOME")) return std::string(d) + "/tessera";
    if (const char* d = std::getenv("HOME")) return std::string(d) + "/.cache/tessera";
    return (fs::temp_directory_path() / "tessera-cl-cache").string();
}

static std::string build_log(cl_program program, cl_device_id dev) {
    size_t size = 0;
    clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    return log;
}

static cl_program load_cached(cl_context ctx, cl_device_id dev, const fs::path& file, const std::string& opts) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return nullptr;
    std::string bin((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const unsigned char* ptr = reinterpret_cast<const unsigned char*>(bin.data());
    size_t size = bin.size();
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &size, &ptr, &status, &err);
    if (err != CL_SUCCESS || status != CL_SUCCESS) return nullptr;
    if (clBuildProgram(p, 1, &dev, opts.c_str(), nullptr, nullptr) != CL_SUCCESS) {
        clReleaseProgram(p);
        return nullptr;  // stale or foreign binary: rebuild from source
    }
    return p;
}

static void save_cached(cl_program p, const fs::path& file) {
    size_t size = 0;
    if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) != CL_SUCCESS || size == 0) return;
    std::string bin(size, '\0');
    unsigned char* ptr = reinterpret_cast<unsigned char*>(bin.data());
    if (clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr) != CL_SUCCESS) return;
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    fs::path tmp = file;
    tmp += ".tmp" + std::to_string(::getpid());
    { std::ofstream(tmp, std::ios::binary).write(bin.data(), std::streamsize(bin.size())); }
    fs::rename(tmp, file, ec);  // atomic: concurrent processes may race on the same key
    if (ec) fs::remove(tmp, ec);
}

// Whether a device's programs go to the binary cache: asking PoCL-like CPU devices for their binary
// makes them compile every kernel up front (minutes); they keep their own kernel cache
// (POCL_CACHE_DIR), so only other devices use ours.
static bool uses_binary_cache(const ocl::DeviceInfo& info) { return !(info.type & CL_DEVICE_TYPE_CPU); }

// The cache file of one device's program built with options `opts` (which name its precision).
static fs::path cache_file(const ocl::DeviceInfo& info, const std::string& opts) {
    std::ostringstream key;
    key << std::hex << fnv1a(info.name + '\n' + info.driver_version + '\n' + opts + '\n' + ocl::program_source());
    return fs::path(OpenCLRegistry::cache_dir()) / (key.str() + ".bin");
}

// Build the program for one device and precision; returns whether it came from the cache. With
// `cached_only`, a program not in the cache is not built: null.
static cl_program build(cl_context ctx, cl_device_id dev, const ocl::DeviceInfo& info, char prec, bool cached_only,
                        bool& cached) {
    const std::string& source = ocl::program_source();
    const std::string opts = ocl::build_options(info, prec);
    const bool use_cache = uses_binary_cache(info);
    const fs::path file = use_cache ? cache_file(info, opts) : fs::path();
    if (cl_program p = use_cache ? load_cached(ctx, dev, file, opts) : nullptr) {
        cached = true;
        return p;
    }
    cached = false;
    if (cached_only) return nullptr;
    const char* text = source.c_str();
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(ctx, 1, &text, nullptr, &err);
    ocl::check(err, "clCreateProgramWithSource");
    if ((err = clBuildProgram(p, 1, &dev, opts.c_str(), nullptr, nullptr)) != CL_SUCCESS) {
        std::string log = build_log(p, dev);
        clReleaseProgram(p);
        throw Error("clBuildProgram returned " + std::to_string(err) + " (" + ocl::error_name(err) +
                    ") with options '" + opts + "':\n" + log);
    }
    if (use_cache) save_cached(p, file);
    return p;
}

// The slot of LAPACK letter `prec` in a device's programs; throws Error for another letter.
static size_t prec_slot(char prec) {
    switch (prec) {
        case 's': return 0;
        case 'd': return 1;
        case 'c': return 2;
        case 'z': return 3;
        default: throw Error(std::string("tessera: no OpenCL program for precision '") + prec + "'");
    }
}

std::vector<int> opencl_devids() {
    std::vector<int> ids;
    for (unsigned w = 0; w < starpu_worker_get_count(); ++w)
        if (starpu_worker_get_type(int(w)) == STARPU_OPENCL_WORKER) ids.push_back(starpu_worker_get_devid(int(w)));
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

OpenCLRegistry::OpenCLRegistry() {
    const std::vector<int> ids = opencl_devids();
    devices_.resize(ids.empty() ? 0 : size_t(ids.back()) + 1);
    for (int devid : ids) {
        Device& d = devices_[size_t(devid)];
        starpu_opencl_get_context(devid, &d.ctx);
        starpu_opencl_get_device(devid, &d.dev);
        try {
            d.info = std::make_unique<ocl::DeviceInfo>(ocl::query_device(d.dev));
        } catch (const std::exception& e) {
            throw Error("tessera::Runtime: OpenCL device " + std::to_string(devid) + ": " + e.what());
        }
    }
}

OpenCLRegistry::~OpenCLRegistry() {
    stop_.store(true);
    if (preload_.joinable()) preload_.join();
    for (Device& d : devices_)
        if (d.panel_queue) clReleaseCommandQueue(d.panel_queue);
}

void OpenCLRegistry::start_preload(std::function<void(char)> loaded) {
    const bool any_cached = std::any_of(devices_.begin(), devices_.end(),
                                        [](const Device& d) { return d.info && uses_binary_cache(*d.info); });
    if (preload_.joinable() || !any_cached) return;  // CPU devices only: nothing to load, no thread
    try {
        preload_ = std::thread([this, loaded = std::move(loaded)] { preload_cached(loaded); });
    } catch (const std::system_error&) {
        // no thread: every program is built on first use, as without the preload
    }
}

void OpenCLRegistry::preload_cached(const std::function<void(char)>& loaded) {
    for (char prec : {'d', 's', 'z', 'c'}) {
        const size_t slot = prec_slot(prec);
        {
            std::lock_guard<std::mutex> guard(lock_);
            if (stop_.load()) return;
            try {
                if (!built_[slot].load(std::memory_order_relaxed) && build_programs(prec, true))
                    built_[slot].store(true, std::memory_order_release);
            } catch (const std::exception&) {
                // left to ensure(), which builds it and reports what fails
            }
        }
        if (loaded && !stop_.load() && built_[slot].load(std::memory_order_acquire)) loaded(prec);
    }
}

bool OpenCLRegistry::build_programs(char prec, bool cached_only) {
    const size_t slot = prec_slot(prec);
    bool all = true;
    for (size_t devid = 0; devid < devices_.size(); ++devid) {
        Device& d = devices_[devid];
        if (!d.info || d.by_prec[slot] || (ocl::real_prec(prec) == 'd' && !d.info->fp64)) continue;
        try {
            bool cached = false;
            cl_program p = build(d.ctx, d.dev, *d.info, prec, cached_only, cached);
            if (!p) {
                all = false;
                continue;
            }
            d.by_prec[slot] = std::make_unique<ocl::DeviceKernels>(d.ctx, d.dev, p, prec, *d.info);  // owns p
            d.cache_hits += cached;
            d.built += prec;
        } catch (const std::exception& e) {
            // Whatever failed (a build, a kernel table), name the device and the call.
            throw Error("tessera: OpenCL device " + std::to_string(devid) + " ('" + d.info->name + "'): " + e.what());
        }
    }
    return all;
}

void OpenCLRegistry::ensure(char prec) {
    const size_t slot = prec_slot(prec);
    if (built_[slot].load(std::memory_order_acquire)) return;
    std::lock_guard<std::mutex> guard(lock_);
    if (built_[slot].load(std::memory_order_relaxed)) return;
    build_programs(prec, false);
    built_[slot].store(true, std::memory_order_release);
}

const ocl::DeviceKernels& OpenCLRegistry::kernels(int devid, char prec) {
    ensure(prec);
    const ocl::DeviceKernels* k = size_t(devid) < devices_.size() ? devices_[size_t(devid)].by_prec[prec_slot(prec)].get() : nullptr;
    if (!k) throw Error(std::string("tessera: OpenCL device ") + std::to_string(devid) + " has no kernels for precision " + prec);
    return *k;
}

PanelQueue OpenCLRegistry::panel(int devid, char prec) {
    const ocl::DeviceKernels& main = kernels(devid, prec);  // the program, built or loaded once
    Device& d = devices_[size_t(devid)];
    std::unique_lock<std::mutex> hold(*d.panel_lock);
    std::unique_ptr<ocl::DeviceKernels>& k = d.panel_by_prec[prec_slot(prec)];
    try {
        if (!d.panel_queue) {
            cl_int err = CL_SUCCESS;
            d.panel_queue = clCreateCommandQueue(d.ctx, d.dev, 0, &err);
            ocl::check(err, "clCreateCommandQueue(panel queue)");
        }
        if (!k) k = main.another();
    } catch (const std::exception& e) {
        throw Error("tessera: OpenCL device " + std::to_string(devid) + " ('" + d.info->name + "'): " + e.what());
    }
    return PanelQueue{*k, d.panel_queue, std::move(hold)};
}

const ocl::DeviceInfo* OpenCLRegistry::info(int devid) const {
    return devid >= 0 && size_t(devid) < devices_.size() ? devices_[size_t(devid)].info.get() : nullptr;
}

std::string OpenCLRegistry::describe() const {
    std::lock_guard<std::mutex> guard(lock_);
    std::string s;
    for (size_t devid = 0; devid < devices_.size(); ++devid) {
        const Device& d = devices_[devid];
        if (!d.info) continue;
        const std::string cache =
            d.info->type & CL_DEVICE_TYPE_CPU ? std::string("(none for CPU devices)") : OpenCLRegistry::cache_dir();
        s += "OpenCL device " + std::to_string(devid) + ": " + d.info->name + " (" + d.info->vendor + ", driver " +
             d.info->driver_version + ", programs built on first use: " + (d.built.empty() ? "none yet" : d.built) +
             ", " + std::to_string(d.cache_hits) + " from cache " + cache + ")\n";
    }
    return s;
}

}  // namespace tessera::detail
