// Device map (see device_map.hpp).
#include "runtime/device_map.hpp"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "runtime/opencl_registry.hpp"
#include "runtime/starpu_env.hpp"
#include "tessera/types.hpp"

namespace tessera::detail {

namespace {

struct DeviceMap {
    int devices = 0;  // 0: off
    int p = 1, q = 1;
    std::vector<int> devids;  // StarPU device id of each mapped device (map index → devid)
    // For each device, the bit set (StarPU's starpu_task::workerids) of its OpenCL workers and of
    // every CPU worker. Built at start, read-only while tasks are submitted.
    std::vector<std::vector<uint32_t>> workers;
};
DeviceMap g_map;
std::atomic<int> g_devices{0};

constexpr unsigned kBits = 32;

void set_bit(std::vector<uint32_t>& set, unsigned w) { set[w / kBits] |= uint32_t(1) << (w % kBits); }

// TESSERA_DEVICE_GRID=PxQ: {P, Q}, or {0, 0} when unset or empty. A malformed value throws on any
// machine, whatever its devices; whether P·Q matches the devices is checked when the map starts.
std::pair<int, int> grid_variable() {
    const char* v = std::getenv("TESSERA_DEVICE_GRID");
    if (!v || !*v) return {0, 0};
    const std::string s(v);
    const size_t x = s.find_first_of("xX");
    auto whole = [](const std::string& t) {  // a positive decimal of at most 4 digits, else 0
        if (t.empty() || t.size() > 4 || t.find_first_not_of("0123456789") != std::string::npos) return 0;
        return std::stoi(t);
    };
    const int p = x == std::string::npos ? 0 : whole(s.substr(0, x));
    const int q = x == std::string::npos ? 0 : whole(s.substr(x + 1));
    if (p < 1 || q < 1) throw Error("TESSERA_DEVICE_GRID='" + s + "': expected PxQ (P, Q from 1 to 9999), e.g. 2x1");
    return {p, q};
}

// The device grid of n devices: TESSERA_DEVICE_GRID when set (P·Q must be n), else 1×n: each tile
// column on one device, so a Cholesky panel (its diagonal tile and the tiles it solves) stays on one
// device. Measured on 4 H100s (bench/multi_gpu.sh, dpotrf n=65536 nb=4096): 1×4 120.4 TFLOP/s,
// 3.04× one GPU; 2×2 47.2, 1.19× (before each device inverted its own diagonal tile).
void grid_of(int n, std::pair<int, int> asked, int* p, int* q) {
    if (asked.first > 0) {
        if (asked.first * asked.second != n)
            throw Error("TESSERA_DEVICE_GRID='" + std::to_string(asked.first) + "x" + std::to_string(asked.second) +
                        "': P*Q must be " + std::to_string(n) + ", the OpenCL devices of this process");
        *p = asked.first;
        *q = asked.second;
        return;
    }
    *p = 1;
    *q = n;
}

}  // namespace

void start_device_map() {
    stop_device_map();
    // Devices, not workers: the map's device k is StarPU's OpenCL device devids[k] (a rank may drive
    // devices 2 and 3 of its node).
    std::vector<int> devids = opencl_devids();
    const int n = int(devids.size());
    // A malformed TESSERA_DEVICE_MAP is refused on any machine, whatever its devices.
    const std::pair<int, int> asked = grid_variable();
    if (!env_switch("TESSERA_DEVICE_MAP", "tiles spread over the OpenCL devices") || n < 2) return;
    g_map.devices = n;
    g_map.devids = std::move(devids);
    grid_of(n, asked, &g_map.p, &g_map.q);
    const unsigned words = (starpu_worker_get_count() + kBits - 1) / kBits;
    g_map.workers.assign(size_t(n), std::vector<uint32_t>(words, 0));
    for (unsigned w = 0; w < starpu_worker_get_count(); ++w) {
        const starpu_worker_archtype type = starpu_worker_get_type(int(w));
        for (int d = 0; d < n; ++d)
            if (type != STARPU_OPENCL_WORKER || starpu_worker_get_devid(int(w)) == g_map.devids[size_t(d)])
                set_bit(g_map.workers[size_t(d)], w);
    }
    g_devices.store(n, std::memory_order_release);
}

void stop_device_map() noexcept {
    g_devices.store(0, std::memory_order_release);
    g_map = DeviceMap{};
}

int mapped_devices() noexcept { return g_devices.load(std::memory_order_acquire); }

int mapped_devid(int device) noexcept {
    return device >= 0 && device < mapped_devices() ? g_map.devids[size_t(device)] : -1;
}

std::string describe_device_map() {
    if (mapped_devices() == 0)  // with two devices or more, only TESSERA_DEVICE_MAP=0 turns it off
        return starpu_opencl_worker_get_count() < 2 ? "off (fewer than 2 OpenCL devices)" : "off (TESSERA_DEVICE_MAP=0)";
    return std::to_string(g_map.p) + "x" + std::to_string(g_map.q) + " grid over " + std::to_string(g_map.devices) +
           " OpenCL devices (tile (i, j) on device (i mod " + std::to_string(g_map.p) + ")*" + std::to_string(g_map.q) +
           " + j mod " + std::to_string(g_map.q) +
           "; TESSERA_DEVICE_GRID=PxQ sets the grid, TESSERA_DEVICE_MAP=0 turns the map off)";
}

void set_tile_device(TileHandle h, int64_t i, int64_t j) {
    if (mapped_devices() == 0) return;
    const int64_t d = (i % g_map.p) * g_map.q + j % g_map.q;
    starpu_data_set_user_data(h, reinterpret_cast<void*>(uintptr_t(d + 1)));
}

int tile_device(TileHandle h) noexcept {
    if (mapped_devices() == 0) return -1;
    return int(reinterpret_cast<uintptr_t>(starpu_data_get_user_data(h))) - 1;
}

void share_tile_device(TileHandle h, TileHandle like) noexcept {
    if (mapped_devices() == 0) return;
    starpu_data_set_user_data(h, starpu_data_get_user_data(like));
}

void apply_device_map(starpu_task* task) noexcept {
    // CPU-only tasks (no OpenCL implementation, or the placement prior ruled the devices out) keep
    // every CPU worker: a process whose cores all drive devices has none, and StarPU refuses them.
    if (mapped_devices() == 0 || task->execute_on_a_specific_worker || !task->cl || !task->cl->opencl_funcs[0] ||
        !(task->where & STARPU_OPENCL))
        return;
    int device = -1, first = -1;
    const unsigned n = STARPU_TASK_GET_NBUFFERS(task);
    for (unsigned b = 0; b < n && device < 0; ++b) {
        const int d = tile_device(STARPU_TASK_GET_HANDLE(task, b));
        if (d < 0) continue;
        if (first < 0) first = d;
        if (STARPU_TASK_GET_MODE(task, b) & STARPU_W) device = d;
    }
    if (device < 0) device = first;
    if (device < 0 || device >= g_map.devices) return;
    std::vector<uint32_t>& set = g_map.workers[size_t(device)];
    task->workerids = set.data();
    task->workerids_len = unsigned(set.size());
}

}  // namespace tessera::detail
