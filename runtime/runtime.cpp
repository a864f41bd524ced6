// StarPU lifecycle (through StarPU-MPI when distributed): scheduler choice, single-threaded BLAS in
// workers, OpenCL programs, statistics.
#include <starpu.h>
#include <starpu_profiling.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <sstream>
#include <utility>
#include <vector>

#include "runtime/blas_threads.hpp"
#include "runtime/host_memory.hpp"
#include "runtime/idle_workers.hpp"
#include "runtime/mpi_internal.hpp"
#include "runtime/opencl_registry.hpp"
#include "runtime/profile_internal.hpp"
#include "runtime/runtime_internal.hpp"
#include "runtime/sequence_internal.hpp"
#include "runtime/starpu_env.hpp"
#include "runtime/trace_internal.hpp"
#include "runtime/device_map.hpp"
#include "runtime/rank_devices.hpp"
#include "runtime/worker_rates.hpp"
#include "tessera/types.hpp"

namespace tessera {

namespace {

struct State {
    std::unique_ptr<detail::StarpuModelDir> model_dir;  // outlives StarPU: destroyed after stop_starpu
    RuntimeConfig config;
    std::string scheduler;
    int saved_blas_threads = -1;
    std::unique_ptr<detail::OpenCLRegistry> opencl;
    std::unique_ptr<detail::HostMemoryPool> host_memory;
    std::unique_ptr<detail::IdleWorkerSleep> idle_sleep;  // TESSERA_IDLE_SLEEP_US: goes before stop_starpu
    int opencl_devices = 0;  // detail::opencl_devices(): the most of any rank
    std::string rank_devices;  // which OpenCL devices this rank drives, and why (describe)
    bool profiling = false;  // between profile_begin and profile_end
    std::vector<long> executed;  // accumulated per worker: StarPU resets its counters on each read
    std::mutex stats_lock;       // guards `executed`: any application thread may ask for the stats
};
State* g_state = nullptr;

bool env_set(const char* name) {
    const char* v = std::getenv(name);
    return v && *v;
}
int env_int(const char* name, int fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::atoi(v) : fallback;
}

// Names of every device of one of `types` on every OpenCL platform.
std::vector<std::string> opencl_device_names(cl_device_type types) {
    std::vector<std::string> names;
    cl_uint nplat = 0;
    if (clGetPlatformIDs(0, nullptr, &nplat) != CL_SUCCESS || nplat == 0) return names;
    std::vector<cl_platform_id> plats(nplat);
    clGetPlatformIDs(nplat, plats.data(), nullptr);
    for (cl_platform_id p : plats) {
        cl_uint n = 0;
        if (clGetDeviceIDs(p, types, 0, nullptr, &n) != CL_SUCCESS || n == 0) continue;
        std::vector<cl_device_id> devs(n);
        clGetDeviceIDs(p, types, n, devs.data(), nullptr);
        for (cl_device_id d : devs) {
            char name[256] = {};
            clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
            names.emplace_back(name);
        }
    }
    return names;
}
bool opencl_platforms_have(cl_device_type types) { return !opencl_device_names(types).empty(); }

// The OpenCL device types StarPU will use (0: none): GPU and accelerator devices, and CPU devices
// only with STARPU_OPENCL_ON_CPUS or STARPU_OPENCL_ONLY_ON_CPUS.
cl_device_type starpu_opencl_types() {
    if (env_int("STARPU_NOPENCL", -1) == 0) return 0;
    cl_device_type types = CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR;
    if (env_int("STARPU_OPENCL_ON_CPUS", 0) > 0) types |= CL_DEVICE_TYPE_CPU;
    if (env_int("STARPU_OPENCL_ONLY_ON_CPUS", 0) > 0) types = CL_DEVICE_TYPE_CPU;
    return types;
}

// Names of the OpenCL devices StarPU will find, in its order, listed before starpu_init so that
// the default scheduler, the shared calibration and each rank's devices can depend on them.
std::vector<std::string> starpu_opencl_device_names() {
    const cl_device_type types = starpu_opencl_types();
    return types != 0 ? opencl_device_names(types) : std::vector<std::string>{};
}

// Whether several devices all have the same name (identical GPUs): they can then share one
// calibration (STARPU_PERF_MODEL_HOMOGENEOUS_OPENCL).
bool identical(const std::vector<std::string>& names) {
    return names.size() > 1 && std::all_of(names.begin(), names.end(), [&](const std::string& n) { return n == names[0]; });
}

// Whether StarPU will drive an OpenCL GPU or accelerator (the OpenCL pipeline depth depends on it).
bool opencl_gpu_expected() {
    if (env_int("STARPU_NOPENCL", -1) == 0 || env_int("STARPU_OPENCL_ONLY_ON_CPUS", 0) > 0) return false;
    return opencl_platforms_have(CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR);
}

// Read (and reset) StarPU's counters of every worker, keeping the executed-task totals.
std::vector<starpu_profiling_worker_info> read_worker_counters() {
    std::lock_guard<std::mutex> guard(g_state->stats_lock);
    std::vector<starpu_profiling_worker_info> infos(starpu_worker_get_count());
    for (unsigned w = 0; w < infos.size(); ++w) {
        if (starpu_profiling_worker_get_info(int(w), &infos[w]) == 0) g_state->executed[w] += infos[w].executed_tasks;
        else infos[w] = {};
    }
    return infos;
}

}  // namespace

Runtime::Runtime(const RuntimeConfig& config) {
    if (g_state) throw Error("tessera::Runtime: a Runtime is already running in this process");
    // StarPU 1.3 aborts (an assertion) on a malformed variable or a home it cannot write: both are
    // refused here, before starpu_conf_init reads them, as one tessera::Error naming the variable.
    detail::validate_starpu_environment();
    const int idle_sleep_us = detail::idle_sleep_us();  // a malformed value refused before StarPU starts
    auto state = std::make_unique<State>();
    state->model_dir = std::make_unique<detail::StarpuModelDir>();
    state->config = config;

    starpu_conf conf;
    starpu_conf_init(&conf);
    const std::vector<std::string> devices = starpu_opencl_device_names();  // the platforms enumerated once
    if (!env_set("STARPU_SCHED")) conf.sched_policy_name = !devices.empty() ? "dmdas" : "lws";
    // With StarPU's default pipeline (2) the OpenCL worker takes the next task, and starts fetching
    // its operands, while the current kernel runs; on a GPU that left it idle for most of the first
    // transfers of an end-to-end run (`tessera-tester gemm --n 16384 --nb 4096` on an H100, 3 runs:
    // 26.4–27.3 TFLOP/s at 2, 32.9–34.7 at 0). StarPU has no starpu_conf field for it.
    const bool gpu = opencl_gpu_expected();
    if (!env_set("STARPU_OPENCL_PIPELINE") && gpu) setenv("STARPU_OPENCL_PIPELINE", "0", 0);
    // StarPU binds each worker thread to a core, and the OpenCL driver's own threads, created from
    // the worker thread, inherit that one core: on a 32-core host with two H100s each task then
    // spent 3 ms (one GPU) to 7 ms (two) outside its kernels, against 0.3–0.6 ms unbound (dgemm
    // n = 16384 nb = 4096: 32 → 47 TFLOP/s on one GPU, 41 → 81 on two; bench/multi_gpu.sh OVERHEAD=1).
    if (!env_set("STARPU_WORKERS_NOBIND") && gpu) setenv("STARPU_WORKERS_NOBIND", "1", 0);
    // StarPU's memory tidying writes modified buffers home whenever fewer than 5% of a device's are
    // clean; every trailing update dirties its tile again, so on a GPU that holds the whole matrix
    // those copies are wasted (dpotrf n = 32768: 7.9 GB home for a 4.3 GB triangle, 10% slower).
    if (!env_set("STARPU_MINIMUM_CLEAN_BUFFERS") && gpu) setenv("STARPU_MINIMUM_CLEAN_BUFFERS", "0", 0);
    // Identical OpenCL devices share their performance models: a second GPU starts calibrated by
    // the first one's history instead of calibrating again (StarPU's default keeps one per device).
    if (!env_set("STARPU_PERF_MODEL_HOMOGENEOUS_OPENCL") && identical(devices))
        setenv("STARPU_PERF_MODEL_HOMOGENEOUS_OPENCL", "1", 0);
    // Ranks sharing a node take their share of its OpenCL devices by node-local rank.
    state->rank_devices = detail::assign_rank_devices(conf, detail::mpi_wanted(config.mpi), int(devices.size()));
    // Workers call single-threaded BLAS: a threaded BLAS inside StarPU workers oversubscribes cores.
    state->saved_blas_threads = detail::blas_num_threads();
    detail::set_blas_num_threads(1);
    try {
        detail::start_starpu(conf, detail::mpi_wanted(config.mpi), config.grid);
    } catch (...) {
        detail::set_blas_num_threads(state->saved_blas_threads);
        throw;
    }
    const char* env_sched = std::getenv("STARPU_SCHED");
    state->scheduler = env_set("STARPU_SCHED") ? env_sched : conf.sched_policy_name;
    if (config.profiling) starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
    state->executed.assign(starpu_worker_get_count(), 0);
    state->opencl_devices = detail::max_over_ranks(int(starpu_opencl_worker_get_count()));
    // A failure from here on leaves no Runtime: what was built is released (the registry releases
    // its OpenCL objects before StarPU's contexts go; the pool, which serves StarPU's own host
    // blocks, after StarPU has freed them at shutdown: its queue and buffers hold the context),
    // StarPU is shut down, and the caller gets a tessera::Error naming what failed.
    auto undo = [&] {
        detail::stop_device_map();
        state->opencl.reset();
        state->idle_sleep.reset();
        detail::stop_starpu();
        state->host_memory.reset();
        detail::set_blas_num_threads(state->saved_blas_threads);
    };
    // Distributed, the ranks agree on whether each step started everywhere: a rank that failed
    // alone used to wait in StarPU-MPI's shutdown barrier (undo) for ranks already in their first
    // collective, and every rank hung (a rank driving OpenCL device 1 only, issue 41).
    auto agree = [&](const std::string& failure) {
        const std::string first = detail::mpi_agree(failure, 0).first;  // the lowest failing rank's, named
        if (first.empty()) return;
        undo();
        throw Error(!failure.empty() ? failure
                                     : "tessera::Runtime: another MPI rank failed to start its Runtime; this rank "
                                       "stopped too (" + first + ")");
    };
    std::string failure;
    try {
        state->idle_sleep = std::make_unique<detail::IdleWorkerSleep>(idle_sleep_us);
        state->opencl = std::make_unique<detail::OpenCLRegistry>();
        const bool pin = config.host_memory == HostMemory::Pinned ||
                         (config.host_memory == HostMemory::Auto && detail::runtime_has_opencl_gpu());
        state->host_memory = std::make_unique<detail::HostMemoryPool>(pin);
        state->host_memory->serve_starpu_allocations();  // StarPU's host copies of temporary tiles pinned too
        // The placement prior's rates (runtime/placement_prior.hpp), before any task is submitted. An
        // OpenCL device's missing rate of a precision is measured by the preload once it has loaded
        // that precision's program, else at the precision's first task (where, in a fresh StarPU
        // home, the first operation waited 30–60 ms a precision for it).
        if (starpu_cpu_worker_get_count() > 0 && starpu_opencl_worker_get_count() > 0 && detail::placement_prior_enabled())
            detail::load_worker_rates(*state->opencl);
        if (detail::env_switch("TESSERA_OPENCL_PRELOAD", "the cached OpenCL programs loaded from the start")) {
            detail::OpenCLRegistry& opencl = *state->opencl;
            opencl.start_preload([&opencl](char prec) { detail::learn_opencl_rates(prec, opencl); });
        }
        detail::start_device_map();  // tiles spread over two or more OpenCL devices
        detail::idle_prefetch();     // a malformed TESSERA_IDLE_PREFETCH is refused here, on any machine
        detail::panel_queues_enabled();  // and a malformed TESSERA_PANEL_QUEUE
    } catch (const Error& e) {
        failure = e.what();
    } catch (const std::exception& e) {
        failure = std::string("tessera::Runtime: ") + e.what();
    }
    agree(failure);
    try {
        detail::trace_begin(config.trace_path, config.record_trace);  // progress counters from here; tracing if asked
    } catch (const std::exception& e) {
        failure = e.what();
    }
    agree(failure);
    g_state = state.release();
}

Runtime::~Runtime() {
    if (std::uncaught_exceptions() > 0) detail::abort_other_ranks_on_exception();
    detail::wait_for_all();
    detail::orphan_matrices();  // matrices that outlive the Runtime: tiles released now, later use refused
    detail::trace_end();  // writes the trace file when tracing
    detail::clear_worker_rates();
    detail::stop_device_map();
    g_state->opencl.reset();
    g_state->idle_sleep.reset();
    detail::stop_starpu();  // frees StarPU's host blocks through the pool's hooks
    g_state->host_memory.reset();
    detail::set_blas_num_threads(g_state->saved_blas_threads);
    delete g_state;
    g_state = nullptr;
}

std::string Runtime::scheduler() const { return g_state->scheduler; }
int Runtime::cpu_workers() const { return int(starpu_cpu_worker_get_count()); }
int Runtime::opencl_workers() const { return int(starpu_opencl_worker_get_count()); }
// A wait: it also reports the first failure of the calling thread's tasks outside any Sequence.
void Runtime::wait_all() {
    starpu_task_wait_for_all();
    detail::wait_detached();
}

std::vector<WorkerStats> Runtime::worker_stats() const {
    std::vector<WorkerStats> out;
    read_worker_counters();
    std::lock_guard<std::mutex> guard(g_state->stats_lock);
    for (unsigned w = 0; w < starpu_worker_get_count(); ++w) {
        char name[128];
        starpu_worker_get_name(int(w), name, sizeof name);
        out.push_back({int(w), name, starpu_worker_get_type(int(w)) == STARPU_OPENCL_WORKER, g_state->executed[w]});
    }
    return out;
}

void Runtime::reset_stats() {
    read_worker_counters();
    std::lock_guard<std::mutex> guard(g_state->stats_lock);
    std::fill(g_state->executed.begin(), g_state->executed.end(), 0);
}

bool Runtime::pinned_host_memory() const { return g_state->host_memory->pinned(); }
bool Runtime::distributed() const { return detail::distributed(); }
int Runtime::rank() { return detail::rank(); }
int Runtime::ranks() { return detail::ranks(); }
Distribution Runtime::grid() const { return detail::grid(); }
std::vector<size_t> Runtime::bytes_sent() const { return detail::mpi_bytes_sent(); }
std::vector<double> Runtime::sum_over_ranks(std::vector<double> values) const {
    return detail::sum_over_ranks(std::move(values));
}

void Runtime::profile_begin() {
    starpu_task_wait_for_all();
    starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
    read_worker_counters();  // resets them
    detail::profile_start();
    g_state->profiling = true;
}

Profile Runtime::profile_end() {
    if (!g_state->profiling) throw Error("tessera::Runtime::profile_end: profile_begin() was not called");
    starpu_task_wait_for_all();
    Profile p = detail::profile_stop(read_worker_counters());
    g_state->profiling = false;
    if (!g_state->config.profiling && !detail::tracing()) starpu_profiling_status_set(STARPU_PROFILING_DISABLE);
    p.pinned = g_state->host_memory->pinned();
    p.starpu_host_blocks = long(g_state->host_memory->starpu_blocks());
    p.starpu_new_pins = long(g_state->host_memory->starpu_new_pins());
    p.probe_h2d_gbps = g_state->host_memory->copy_rate(true);
    p.probe_d2h_gbps = g_state->host_memory->copy_rate(false);
    p.probe_h2d_enqueue = g_state->host_memory->copy_enqueue_share(true);
    p.probe_d2h_enqueue = g_state->host_memory->copy_enqueue_share(false);
    return p;
}

ProgressSnapshot Runtime::progress() const { return detail::progress_snapshot(); }
void Runtime::set_progress_observer(std::function<void(const ProgressSnapshot&)> observer, double min_interval_s) {
    detail::set_progress_observer(std::move(observer), min_interval_s);
}
bool Runtime::tracing() const { return detail::tracing(); }
std::string Runtime::trace_file() const { return detail::trace_file(); }
std::vector<TaskRecord> Runtime::trace_records() const {
    return detail::tracing() ? detail::trace_records() : std::vector<TaskRecord>{};
}
void Runtime::clear_trace() { detail::trace_clear(); }
void Runtime::write_trace(const std::string& path) const {
    if (!detail::tracing())
        throw Error("tessera::Runtime::write_trace: not tracing (set RuntimeConfig::trace_path or record_trace, or TESSERA_TRACE)");
    try {
        detail::write_trace_file(path);
    } catch (const Error& e) {
        throw Error(std::string("tessera::Runtime::write_trace: ") + e.what());
    }
}

void Runtime::finish_trace() {
    Runtime::wait_all();
    try {
        detail::trace_finish();
    } catch (const Error& e) {
        throw Error(std::string("tessera::Runtime::finish_trace: ") + e.what());
    }
}

std::string Runtime::describe() const {
    std::ostringstream s;
    const Distribution g = detail::grid();
    s << "MPI: " << (detail::distributed() ? "rank " + std::to_string(detail::rank()) + " of " +
                                                  std::to_string(detail::ranks()) + ", grid " + std::to_string(g.p) +
                                                  "x" + std::to_string(g.q) + " (StarPU-MPI)"
                                            : std::string("one process (not distributed)"))
      << "\n";
    s << "scheduler: " << g_state->scheduler << "\n";
    s << "placement: " << (g_state->config.placement == Placement::OpenCLOnly ? "opencl-only" : "any") << "\n";
    s << "workers: " << starpu_worker_get_count() << " (" << cpu_workers() << " CPU, " << opencl_workers()
      << " OpenCL)\n";
    for (unsigned w = 0; w < starpu_worker_get_count(); ++w) {
        char name[128];
        starpu_worker_get_name(int(w), name, sizeof name);
        s << "  worker " << w << ": " << name << "\n";
    }
    s << g_state->opencl->describe();
    s << "OpenCL devices of this rank: " << g_state->rank_devices << "\n";
    s << "device map: " << detail::describe_device_map() << "\n";
    s << "tile storage: " << (g_state->host_memory->pinned() ? "pinned (OpenCL-mapped)" : "pageable") << "\n";
    s << "BLAS threads inside workers: 1 (caller's setting " << g_state->saved_blas_threads << " restored at exit)\n";
    return s.str();
}

CallerBlasThreads::CallerBlasThreads() {
    if (!g_state) return;
    starpu_pause();  // idle workers would spin on the cores the caller's BLAS threads need
    if (g_state->saved_blas_threads >= 1) detail::set_blas_num_threads(g_state->saved_blas_threads);
    active_ = true;
}
CallerBlasThreads::~CallerBlasThreads() {
    if (!active_) return;
    detail::set_blas_num_threads(1);
    starpu_resume();
}

namespace detail {

// Pinned host memory pays off with such a device (Runtime's HostMemory::Auto); GPU tile sizes too
// (runtime/gpu_tiles.cpp).
bool runtime_has_opencl_gpu() {
    for (int d : opencl_devids()) {
        cl_device_id dev = nullptr;
        starpu_opencl_get_device(d, &dev);
        cl_device_type type = 0;
        if (dev && clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS &&
            (type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR)))
            return true;
    }
    return false;
}

void require_runtime(const char* func) {
    if (!g_state)
        throw Error(std::string("tessera::") + func +
                    ": needs a tessera::Runtime, and none is running (construct a tessera::Runtime first)");
}
Placement placement() { return g_state ? g_state->config.placement : Placement::Any; }
int opencl_devices() { return g_state ? g_state->opencl_devices : 0; }
const ocl::DeviceKernels& opencl_kernels(int devid, char prec) { return g_state->opencl->kernels(devid, prec); }
PanelQueue panel_queue(int devid, char prec) { return g_state->opencl->panel(devid, prec); }
const ocl::DeviceInfo* opencl_device_info(int devid) {
    return g_state && g_state->opencl ? g_state->opencl->info(devid) : nullptr;
}
void prepare_opencl(char prec) {
    if (!g_state || !g_state->opencl || g_state->opencl_devices == 0) return;
    g_state->opencl->ensure(prec);
    detail::learn_opencl_rates(prec, *g_state->opencl);
}
HostMemoryPool& host_memory() { return *g_state->host_memory; }

}  // namespace detail
}  // namespace tessera
