// StarPU's environment variables checked before starpu_conf_init reads them, and a performance-model
// directory StarPU can write (StarPU 1.3 asserts on both: src/common/utils.c, starpu_helper.h).
#include "runtime/starpu_env.hpp"

#include <fcntl.h>
#include <hwloc.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <system_error>

#include "tessera/types.hpp"

extern char** environ;

namespace tessera::detail {

namespace fs = std::filesystem;

bool env_switch(const char* name, const char* on) {
    const char* v = std::getenv(name);
    if (!v || !*v || std::string(v) == "1") return true;
    if (std::string(v) == "0") return false;
    throw Error(std::string(name) + "='" + v + "': expected 1 (" + on + ", the default) or 0 (off)");
}

bool idle_prefetch() {
    return env_switch("TESSERA_IDLE_PREFETCH", "prefetch plans copy while a device's link is idle");
}

namespace {

// Every variable StarPU 1.3 (and StarPU-MPI) reads with starpu_get_env_number[_default]: a decimal
// integer, else StarPU aborts ("must contain an integer"), and never negative (an assertion).
// STARPU_LIMIT_<kind>_<n>_MEM, whose names carry a device number, are matched by pattern below.
constexpr const char* kIntegerVariables[] = {
    "STARPU_BACKOFF_MAX", "STARPU_BACKOFF_MIN", "STARPU_BUS_STATS", "STARPU_CALIBRATE_MINIMUM",
    "STARPU_CATCH_SIGNALS", "STARPU_CHECK_ENTIRE_PLATFORM", "STARPU_COMM_STATS", "STARPU_CUDA_PIPELINE",
    "STARPU_CUDA_THREAD_PER_DEV", "STARPU_CUDA_THREAD_PER_WORKER", "STARPU_DIDUSE_BARRIER",
    "STARPU_DISABLE_ASYNCHRONOUS_COPY", "STARPU_DISABLE_ASYNCHRONOUS_CUDA_COPY",
    "STARPU_DISABLE_ASYNCHRONOUS_MIC_COPY", "STARPU_DISABLE_ASYNCHRONOUS_MPI_MS_COPY",
    "STARPU_DISABLE_ASYNCHRONOUS_OPENCL_COPY", "STARPU_DISABLE_KERNELS", "STARPU_DISABLE_PINNING",
    "STARPU_DISK_SWAP_SIZE", "STARPU_DISPLAY_BINDINGS", "STARPU_ENABLE_CUDA_GPU_GPU_DIRECT",
    "STARPU_ENERGY_PROFILING", "STARPU_FXT_TRACE", "STARPU_GENERATE_TRACE", "STARPU_GLOBAL_ARBITER",
    "STARPU_HISTORY_MAX_ERROR", "STARPU_LIMIT_BANDWIDTH", "STARPU_LIMIT_MAX_SUBMITTED_TASKS",
    "STARPU_LIMIT_MIN_SUBMITTED_TASKS", "STARPU_MAIN_THREAD_BIND", "STARPU_MAIN_THREAD_COREID",
    "STARPU_MAIN_THREAD_CPUID", "STARPU_MALLOC_SIMULATION_FOLD", "STARPU_MAX_MEMORY_USE", "STARPU_MAX_PRIO",
    "STARPU_MAX_WORKERSIZE", "STARPU_MEMORY_STATS", "STARPU_MINIMUM_AVAILABLE_MEM", "STARPU_MINIMUM_CLEAN_BUFFERS",
    "STARPU_MIN_PRIO", "STARPU_MIN_WORKERSIZE", "STARPU_MPI_CACHE", "STARPU_MPI_CACHE_STATS",
    "STARPU_MPI_COOP_SENDS", "STARPU_MPI_DEBUG_LEVEL_MAX", "STARPU_MPI_DEBUG_LEVEL_MIN",
    "STARPU_MPI_DRIVER_CALL_FREQUENCY", "STARPU_MPI_DRIVER_TASK_FREQUENCY", "STARPU_MPI_FAKE_RANK",
    "STARPU_MPI_FAKE_SIZE", "STARPU_MPI_MASTER_NODE", "STARPU_MPI_NDETACHED_SEND", "STARPU_MPI_NOBIND",
    "STARPU_MPI_NREADY_PROCESS", "STARPU_MPI_PRIORITIES", "STARPU_MPI_THREAD_COREID", "STARPU_MPI_THREAD_CPUID",
    "STARPU_NCPU", "STARPU_NCPUS", "STARPU_NCUDA", "STARPU_NMIC", "STARPU_NMICTHREADS", "STARPU_NMPIMSTHREADS",
    "STARPU_NMPI_MS", "STARPU_NOPENCL", "STARPU_NTASKS_THRESHOLD", "STARPU_NWORKER_PER_CUDA",
    "STARPU_OPENCL_ONLY_ON_CPUS", "STARPU_OPENCL_ON_CPUS", "STARPU_OPENCL_PIPELINE", "STARPU_PCI_FLAT",
    "STARPU_PERF_MODEL_HOMOGENEOUS_CPU", "STARPU_PERF_MODEL_HOMOGENEOUS_CUDA", "STARPU_PERF_MODEL_HOMOGENEOUS_MIC",
    "STARPU_PERF_MODEL_HOMOGENEOUS_MPI_MS", "STARPU_PERF_MODEL_HOMOGENEOUS_OPENCL", "STARPU_PREFETCH",
    "STARPU_RESERVE_NCPU", "STARPU_SCHED_GRAPH_TEST_DESCENDANTS", "STARPU_SCHED_READY",
    "STARPU_SCHED_SORTED_ABOVE", "STARPU_SCHED_SORTED_BELOW", "STARPU_SILENT", "STARPU_SIMGRID",
    "STARPU_SINGLE_COMBINED_WORKER", "STARPU_STATS", "STARPU_SYNTHESIZE_ARITY_COMBINED_WORKER",
    "STARPU_TARGET_AVAILABLE_MEM", "STARPU_TARGET_CLEAN_BUFFERS", "STARPU_TASK_BREAK_ON_EXEC",
    "STARPU_TASK_BREAK_ON_POP", "STARPU_TASK_BREAK_ON_PUSH", "STARPU_TASK_BREAK_ON_SCHED", "STARPU_TASK_PROGRESS",
    "STARPU_TRACE_BUFFER_SIZE", "STARPU_USE_NUMA", "STARPU_WATCHDOG_CRASH", "STARPU_WATCHDOG_DELAY",
    "STARPU_WORKERS_GETBIND", "STARPU_WORKERS_NOBIND", "STARPU_WORKER_TREE"};

// Integer variables with a narrower documented range than 0..INT_MAX.
struct Range {
    const char* name;
    long lo, hi;
    const char* meaning;
};
constexpr Range kRanges[] = {
    {"STARPU_CALIBRATE", 0, 2, "0, 1 or 2"},
    {"STARPU_BUS_CALIBRATE", 0, 1, "0 or 1"},
};

// Read with starpu_get_env_float_default: a number, else StarPU aborts.
constexpr const char* kFloatVariables[] = {"STARPU_EXP_LEN_THRESHOLD", "STARPU_IDLE_POWER", "STARPU_SCHED_ALPHA",
                                           "STARPU_SCHED_BETA", "STARPU_SCHED_GAMMA", "STARPU_WINDOW_TIME_SIZE"};

[[noreturn]] void refuse(const std::string& name, const char* value, const std::string& requirement) {
    std::string shown(value);
    if (shown.size() > 40) shown = shown.substr(0, 40) + "...";
    throw Error("tessera::Runtime: " + name + "='" + shown + "' " + requirement);
}

// StarPU's own parse (strtol base 10 up to the end; an empty value reads as 0) plus the range:
// whether `value` is an integer in [lo, hi], then in *v.
bool parse_integer(const char* value, long lo, long hi, long* v) {
    errno = 0;
    char* end = nullptr;
    *v = std::strtol(value, &end, 10);
    return *end == '\0' && errno != ERANGE && *v >= lo && *v <= hi;
}

void check_integer(const std::string& name, const char* value, long lo, long hi, const std::string& meaning) {
    long v = 0;
    if (!parse_integer(value, lo, hi, &v)) refuse(name, value, "must be " + meaning);
}

void check_float(const char* name, const char* value) {
    char* end = nullptr;
    const float v = std::strtof(value, &end);
    if (*end != '\0' || !std::isfinite(v)) refuse(name, value, "must be a finite number");
}

// STARPU_WORKERS_CPUID / COREID: non-negative integers or ranges "a-b" / "a-", separated by spaces or
// commas; STARPU_WORKERS_OPENCLID / CUDAID: non-negative integers separated by spaces. StarPU asserts
// when the first entry is not a number and reads garbage from a negative one.
void check_list(const char* name, const char* value, bool ranges) {
    const std::string requirement = ranges ? "must be CPU numbers or ranges (e.g. '0 2 4-7'), separated by spaces or commas"
                                           : "must be device numbers separated by spaces (e.g. '0 1')";
    const char* p = value;
    int entries = 0;
    auto number = [&p] {
        if (*p < '0' || *p > '9') return false;
        errno = 0;
        char* end = nullptr;
        const long v = std::strtol(p, &end, 10);
        p = end;
        return errno != ERANGE && v <= std::numeric_limits<int>::max();
    };
    while (*p) {
        if (*p == ' ' || *p == '\t' || (ranges && *p == ',')) {
            ++p;
            continue;
        }
        if (!number()) refuse(name, value, requirement);
        if (ranges && *p == '-') {
            ++p;
            if (*p && *p != ' ' && *p != ',' && !number()) refuse(name, value, requirement);
        }
        if (*p && *p != ' ' && *p != '\t' && !(ranges && *p == ',')) refuse(name, value, requirement);
        ++entries;
    }
    if (entries == 0) refuse(name, value, requirement);
}

// Hardware threads per core (StarPU asserts 1 <= STARPU_NTHREADS_PER_CORE <= this).
long threads_per_core() {
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0) return 1;
    long per_core = 1;
    if (hwloc_topology_load(topo) == 0) {
        const int pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU), cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
        if (pus > 0 && cores > 0) per_core = std::max(1, pus / cores);
    }
    hwloc_topology_destroy(topo);
    return per_core;
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
bool ends_with(const std::string& s, const char* suffix) {
    const size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

// Whether StarPU can create and rewrite files in `dir` and rewrite the model files already there
// (StarPU opens them "a+" at shutdown and asserts when it cannot). A real attempt, not access(2):
// root passes access() on a read-only mount and on /proc.
// Several processes may share the directory (the ranks of an MPI run on one node start together):
// a file that vanishes between the listing and the open (another process's probe, a model file
// StarPU rewrites) says nothing about the directory, and is skipped; only a refusal (EACCES, EPERM,
// EROFS) makes it read-only.
bool writable(const fs::path& dir) {
    std::string probe = (dir / ".tessera-write-probe-XXXXXX").string();
    const int fd = mkstemp(probe.data());
    if (fd < 0) return false;
    close(fd);
    unlink(probe.c_str());
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        if (!entry.is_regular_file(ec) || entry.path().filename().string().rfind(".tessera-write-probe-", 0) == 0)
            continue;
        const int f = open(entry.path().c_str(), O_WRONLY | O_APPEND);
        if (f >= 0) close(f);
        else if (errno == EACCES || errno == EPERM || errno == EROFS) return false;
    }
    return true;
}

constexpr int kPerfModelVersion = 45;  // _STARPU_PERFMODEL_VERSION of StarPU 1.3: codelets/45/

}  // namespace

void validate_starpu_environment() {
    for (const char* name : kIntegerVariables)
        if (const char* v = std::getenv(name)) check_integer(name, v, 0, std::numeric_limits<int>::max(), "an integer from 0 to 2147483647");
    for (const Range& r : kRanges)
        if (const char* v = std::getenv(r.name)) check_integer(r.name, v, r.lo, r.hi, r.meaning);
    if (const char* v = std::getenv("STARPU_NTHREADS_PER_CORE")) {
        const long most = threads_per_core();
        check_integer("STARPU_NTHREADS_PER_CORE", v, 1, most,
                      "an integer from 1 to " + std::to_string(most) + " (this machine's hardware threads per core)");
    }
    for (const char* name : kFloatVariables)
        if (const char* v = std::getenv(name)) check_float(name, v);
    for (const char* name : {"STARPU_WORKERS_CPUID", "STARPU_WORKERS_COREID"})
        if (const char* v = std::getenv(name)) check_list(name, v, true);
    for (const char* name : {"STARPU_WORKERS_OPENCLID", "STARPU_WORKERS_CUDAID", "STARPU_WORKERS_MICID"})
        if (const char* v = std::getenv(name)) check_list(name, v, false);
    // STARPU_LIMIT_CPU_MEM, STARPU_LIMIT_OPENCL_<n>_MEM, STARPU_LIMIT_CPU_NUMA_<n>_MEM, ... (MB).
    for (char** e = environ; e && *e; ++e) {
        const std::string entry(*e);
        const size_t eq = entry.find('=');
        if (eq == std::string::npos) continue;
        const std::string name = entry.substr(0, eq);
        if (starts_with(name, "STARPU_LIMIT_") && ends_with(name, "_MEM"))
            check_integer(name, *e + eq + 1, 0, std::numeric_limits<int>::max(), "an integer from 0 to 2147483647 (MB)");
    }
}

int idle_sleep_us() {
    constexpr long kMostUs = 100000;
    const char* v = std::getenv("TESSERA_IDLE_SLEEP_US");
    long us = 0;
    if (v && *v && !parse_integer(v, 0, kMostUs, &us))
        throw Error(std::string("TESSERA_IDLE_SLEEP_US='") + v + "': expected an integer from 0 (idle workers poll, " +
                    "the default) to " + std::to_string(kMostUs) + " (microseconds an idle CPU worker sleeps)");
    return int(us);
}

StarpuModelDir::StarpuModelDir() {
    // StarPU 1.3's choice (src/core/perfmodel/perfmodel.c, src/common/utils.c _starpu_get_home_path).
    std::string source, dir;
    if (const char* d = std::getenv("STARPU_PERF_MODEL_DIR")) {
        source = "STARPU_PERF_MODEL_DIR", dir = d;
        had_dir_ = true, old_dir_ = d;
    } else {
        const char* home = nullptr;
        for (const char* name : {"XDG_CACHE_HOME", "STARPU_HOME", "HOME"})
            if ((home = std::getenv(name))) {
                source = name;
                break;
            }
        if (!home) return;  // StarPU falls back to $TMPDIR or /tmp, writable for everyone
        dir = std::string(home) + "/.starpu/sampling";
    }
    const char* value = std::getenv(source.c_str());
    const fs::path root(dir), codelets = root / "codelets" / std::to_string(kPerfModelVersion), bus = root / "bus";
    std::error_code ec;
    fs::create_directories(codelets, ec);
    if (!ec) fs::create_directories(bus, ec);
    const bool present = fs::is_directory(codelets) && fs::is_directory(bus);
    if (present && writable(root) && writable(codelets) && writable(bus)) return;
    if (!present) {
        std::string why = ec ? ec.message() : "not a directory";
        for (char& c : why) c = char(std::tolower(static_cast<unsigned char>(c)));
        refuse(source, value,
               "cannot hold StarPU's performance models: creating " + (ec ? codelets : root).string() + " failed (" +
                   why + "); give a writable directory, or a read-only one that holds calibrated models");
    }
    // Read-only but calibrated: StarPU reads the copy and writes there whatever it calibrates.
    const char* tmp = std::getenv("TMPDIR");
    std::string tmpl = (fs::path(tmp && *tmp ? tmp : "/tmp") / "tessera-starpu-models-XXXXXX").string();
    if (!mkdtemp(tmpl.data()))
        refuse(source, value, "is read-only, and no temporary copy of its performance models could be made in " +
                                  fs::path(tmpl).parent_path().string() + " (" + std::strerror(errno) + ")");
    copy_ = tmpl;
    fs::copy(root, copy_, fs::copy_options::recursive | fs::copy_options::skip_symlinks, ec);
    if (ec) {
        fs::remove_all(copy_, ec);
        refuse(source, value, "is read-only, and copying its performance models to a temporary directory failed (" +
                                  ec.message() + ")");
    }
    fs::permissions(copy_, fs::perms::owner_all, fs::perm_options::add, ec);
    for (const auto& entry : fs::recursive_directory_iterator(copy_, ec))
        fs::permissions(entry.path(),
                        entry.is_directory(ec) ? fs::perms::owner_all : fs::perms::owner_read | fs::perms::owner_write,
                        fs::perm_options::add, ec);
    setenv("STARPU_PERF_MODEL_DIR", copy_.c_str(), 1);
}

StarpuModelDir::~StarpuModelDir() {
    if (copy_.empty()) return;
    std::error_code ec;
    fs::remove_all(copy_, ec);
    if (had_dir_) setenv("STARPU_PERF_MODEL_DIR", old_dir_.c_str(), 1);
    else unsetenv("STARPU_PERF_MODEL_DIR");
}

}  // namespace tessera::detail
