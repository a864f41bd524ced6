// Worker rates of the placement prior: read from StarPU's home, measured where missing (see
// worker_rates.hpp).
#include "runtime/worker_rates.hpp"

#include <cblas.h>
#include <starpu.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "kernels/opencl/launch.hpp"
#include "runtime/cpu_tiles.hpp"
#include "runtime/opencl_registry.hpp"
#include "runtime/starpu_env.hpp"
#include "runtime/warnings.hpp"
#include "tessera/types.hpp"

namespace tessera::detail {

namespace {

std::mutex g_lock;
double g_cpu[2] = {0, 0};                 // by real precision: [0] s, [1] d
std::vector<std::array<double, 2>> g_ocl;  // by StarPU OpenCL devid
std::atomic<bool> g_loaded{false};

int real_index(char prec) { return prec == 's' || prec == 'c' ? 0 : 1; }

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Best of three timed calls after one warm-up.
template <class F>
double best_of_three(F&& run) {
    run();
    double best = 1e300;
    for (int i = 0; i < 3; ++i) {
        const auto t0 = Clock::now();
        run();
        best = std::min(best, seconds_since(t0));
    }
    return best;
}

template <class T>
double measure_cpu(int n) {
    std::vector<T> a(size_t(n) * n, T(0.5)), b(a), c(a);
    const double s = best_of_three([&] {
        if constexpr (std::is_same_v<T, float>)
            cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n);
        else
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a.data(), n, b.data(), n, 0.0, c.data(), n);
    });
    return 2.0 * n * n * double(n) / s / 1e9;
}

template <class T>
double measure_opencl(int devid, const ocl::DeviceKernels& shared) {
    cl_device_id dev = nullptr;
    starpu_opencl_get_device(devid, &dev);
    const bool gpu = (shared.info().type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR)) != 0;
    const int n = gpu ? 2048 : 256;
    const size_t bytes = size_t(n) * n * sizeof(T);
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueue(shared.context(), dev, 0, &err);
    if (err != CL_SUCCESS) return 0;
    cl_mem buf[3] = {nullptr, nullptr, nullptr};
    double rate = 0;
    try {
        // Kernels of its own: the device's worker may be running tasks of this precision meanwhile,
        // and a kernel's arguments belong to its object.
        const std::unique_ptr<ocl::DeviceKernels> own = shared.another();
        const ocl::DeviceKernels& dk = *own;
        const std::vector<T> host(size_t(n) * n, T(0.5));
        for (cl_mem& m : buf) {
            m = clCreateBuffer(dk.context(), CL_MEM_READ_WRITE, bytes, nullptr, &err);
            ocl::check(err, "clCreateBuffer");
            ocl::check(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, bytes, host.data(), 0, nullptr, nullptr),
                       "clEnqueueWriteBuffer");
        }
        const double s = best_of_three([&] {
            ocl::gemm<T>(dk, q, Trans::NoTrans, Trans::NoTrans, n, n, n, T(1), {buf[0], 0, n}, {buf[1], 0, n}, T(0),
                         {buf[2], 0, n});
            ocl::check(clFinish(q), "clFinish");
        });
        rate = 2.0 * n * n * double(n) / s / 1e9;
    } catch (const std::exception&) {
        rate = 0;
    }
    for (cl_mem m : buf)
        if (m) clReleaseMemObject(m);
    clReleaseCommandQueue(q);
    return rate;
}

std::string cpu_device_name() { return "cpu: " + machine_cpu().model; }

}  // namespace

std::string worker_rates_path() { return user_tessera_file("worker_rates.txt"); }

bool parse_worker_rate(std::string_view line, char* prec, double* gflops, std::string* device) {
    const size_t hash = line.find('#');
    if (hash != std::string_view::npos) line = line.substr(0, hash);
    std::istringstream in{std::string(line)};
    std::string p, rate;
    if (!(in >> p)) return false;
    if (p != "s" && p != "d") throw std::invalid_argument("precision '" + p + "' is not s or d");
    if (!(in >> rate)) throw std::invalid_argument("no GFLOP/s after the precision");
    char* end = nullptr;
    const double v = std::strtod(rate.c_str(), &end);
    if (end == rate.c_str() || *end || !(v > 0) || v > 1e9)
        throw std::invalid_argument("GFLOP/s '" + rate + "' is not a positive number");
    std::string name;
    std::getline(in >> std::ws, name);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t' || name.back() == '\r')) name.pop_back();
    if (name.rfind("cpu: ", 0) != 0 && name.rfind("opencl: ", 0) != 0)
        throw std::invalid_argument("the device must start with 'cpu: ' or 'opencl: '");
    *prec = p[0], *gflops = v, *device = name;
    return true;
}

namespace {

std::map<std::pair<char, std::string>, double> g_known;  // the file's rates and those measured since
std::string g_path;                                       // worker_rates_path() when the Runtime started
std::array<std::atomic<bool>, 2> g_learned{};            // by real precision: every OpenCL device's rate known
std::mutex g_learn_lock;                                  // one learn_opencl_rates at a time

// Append `added` (lines "<p> <GFLOP/s> <device>") to the file at g_path: the file is read again and
// written whole to a temporary file, then renamed, so that a concurrent reader (another process on
// the same home) sees either the old file or the new one. Nothing when it cannot be written.
void persist(const std::string& added) {
    if (added.empty() || g_path.empty()) return;
    std::string text;
    {
        std::ifstream in(g_path);
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    if (!text.empty() && text.back() != '\n') text += '\n';
    if (text.empty())
        text = "# Tessera worker rates: GFLOP/s of one gemm on one worker of each kind, the placement prior\n"
               "# of tasks StarPU has no history of (docs/tuning.md). Measured at the first use; edit freely.\n";
    std::error_code ec;
    const std::filesystem::path file(g_path);
    std::filesystem::create_directories(file.parent_path(), ec);
    const std::string tmp = g_path + ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(tmp);
        out << text << added;
        if (!out) {
            std::filesystem::remove(tmp, ec);
            return;
        }
    }
    std::filesystem::rename(tmp, file, ec);
    if (ec) std::filesystem::remove(tmp, ec);
}

std::string rate_line(char p, double v, const std::string& device) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%c %.4g ", p, v);
    return buf + device + "\n";
}

std::string opencl_device_name(const ocl::DeviceInfo& info) { return "opencl: " + info.name; }

}  // namespace

void load_worker_rates(const OpenCLRegistry& opencl) {
    std::lock_guard<std::mutex> learning(g_learn_lock);
    std::lock_guard<std::mutex> guard(g_lock);
    g_path = worker_rates_path();
    g_known.clear();
    if (!g_path.empty()) {
        std::ifstream in(g_path);
        std::string line;
        for (int lineno = 1; std::getline(in, line); ++lineno) {
            char p;
            double v;
            std::string device;
            try {
                if (parse_worker_rate(line, &p, &v, &device)) g_known[{p, device}] = v;
            } catch (const std::invalid_argument& e) {
                warn_once(g_path + ":" + std::to_string(lineno) + ": " + e.what() + "; line ignored");
            }
        }
    }
    std::string added;
    const std::string cpu = cpu_device_name();
    for (char p : {'s', 'd'}) {
        double& rate = g_cpu[real_index(p)];
        const auto it = g_known.find({p, cpu});
        rate = it != g_known.end() ? it->second : p == 's' ? measure_cpu<float>(256) : measure_cpu<double>(256);
        if (it == g_known.end() && rate > 0) g_known[{p, cpu}] = rate, added += rate_line(p, rate, cpu);
    }
    const std::vector<int> devids = opencl_devids();
    g_ocl.assign(devids.empty() ? 0 : size_t(devids.back()) + 1, {0, 0});
    for (char p : {'s', 'd'}) {
        bool all = true;
        for (const int devid : devids) {
            const ocl::DeviceInfo* info = opencl.info(devid);
            if (!info || (p == 'd' && !info->fp64)) continue;  // no fp64: its d rate stays unknown
            const auto it = g_known.find({p, opencl_device_name(*info)});
            if (it != g_known.end()) g_ocl[size_t(devid)][real_index(p)] = it->second;
            else all = false;
        }
        g_learned[size_t(real_index(p))].store(all);
    }
    g_loaded.store(true);
    persist(added);
}

void learn_opencl_rates(char prec, OpenCLRegistry& opencl) {
    const char real = prec == 'c' ? 's' : prec == 'z' ? 'd' : prec;
    const size_t r = size_t(real_index(real));
    if (!g_loaded.load(std::memory_order_relaxed) || g_learned[r].load(std::memory_order_acquire)) return;
    std::lock_guard<std::mutex> learning(g_learn_lock);
    if (!g_loaded.load() || g_learned[r].load()) return;
    std::string added;
    for (const int devid : opencl_devids()) {
        const ocl::DeviceInfo* info = opencl.info(devid);
        if (!info || (real == 'd' && !info->fp64)) continue;
        const std::string device = opencl_device_name(*info);
        if (g_known.count({real, device})) continue;
        double v = 0;
        try {
            const ocl::DeviceKernels& dk = opencl.kernels(devid, real);  // built now for z's or c's rate
            v = real == 's' ? measure_opencl<float>(devid, dk) : measure_opencl<double>(devid, dk);
        } catch (const std::exception&) {
            v = 0;  // the rate stays unknown: StarPU calibrates this device's tasks as it would alone
        }
        if (v <= 0) continue;
        g_known[{real, device}] = v;
        added += rate_line(real, v, device);
        std::lock_guard<std::mutex> guard(g_lock);
        if (size_t(devid) < g_ocl.size()) g_ocl[size_t(devid)][r] = v;
    }
    g_learned[r].store(true, std::memory_order_release);
    persist(added);
}

bool placement_prior_enabled() { return env_switch("TESSERA_PLACEMENT_PRIOR", "the placement prior on"); }

void clear_worker_rates() noexcept {
    std::lock_guard<std::mutex> learning(g_learn_lock);
    std::lock_guard<std::mutex> guard(g_lock);
    g_cpu[0] = g_cpu[1] = 0;
    g_ocl.clear();
    g_known.clear();
    for (auto& l : g_learned) l.store(false);
    g_loaded.store(false);
}

bool worker_rates_loaded() noexcept { return g_loaded.load(std::memory_order_relaxed); }

double cpu_worker_rate(char prec) noexcept {
    std::lock_guard<std::mutex> guard(g_lock);
    return g_cpu[real_index(prec)];
}

double opencl_worker_rate(int devid, char prec) noexcept {
    std::lock_guard<std::mutex> guard(g_lock);
    return devid >= 0 && size_t(devid) < g_ocl.size() ? g_ocl[size_t(devid)][real_index(prec)] : 0.0;
}

}  // namespace tessera::detail
