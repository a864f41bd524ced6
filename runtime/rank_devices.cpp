// Rank devices (see rank_devices.hpp).
#include "runtime/rank_devices.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>

#include "runtime/starpu_env.hpp"

namespace tessera::detail {

namespace {
const char* env(const char* name) {
    const char* v = std::getenv(name);
    return v && *v ? v : nullptr;
}
}  // namespace

LocalRank local_rank_from_environment() {
    for (auto [rank, size] : {std::pair{"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"},
                              std::pair{"MPI_LOCALRANKID", "MPI_LOCALNRANKS"}}) {
        const char *r = env(rank), *s = env(size);
        if (!r || !s) continue;
        char *end_r = nullptr, *end_s = nullptr;
        const long lr = std::strtol(r, &end_r, 10), ls = std::strtol(s, &end_s, 10);
        if (*end_r || *end_s || lr < 0 || ls < 1 || lr >= ls) continue;
        return {int(lr), int(ls)};
    }
    return {};
}

std::vector<int> rank_devices(int r, int s, int g) {
    if (g <= 0 || r < 0 || s < 1 || r >= s) return {};
    if (g < s) return {r % g};
    std::vector<int> ids;
    for (int d = int(int64_t(r) * g / s); d < int(int64_t(r + 1) * g / s); ++d) ids.push_back(d);
    return ids;
}

std::string assign_rank_devices(starpu_conf& conf, bool distributed, int devices) {
    const bool on = env_switch("TESSERA_RANK_DEVICES", "each MPI rank drives its share of its node's OpenCL devices");
    if (!distributed) return "every OpenCL device StarPU finds (one process)";
    if (!on) return "as StarPU assigns them (TESSERA_RANK_DEVICES=0)";
    if (env("STARPU_WORKERS_OPENCLID")) return "STARPU_WORKERS_OPENCLID's";
    if (env("STARPU_NOPENCL")) return "as StarPU assigns them (STARPU_NOPENCL is set)";
    const LocalRank local = local_rank_from_environment();
    if (local.size < 2) return "every OpenCL device StarPU finds (the only rank on its node, or the launcher does not say)";
    const std::vector<int> ids = rank_devices(local.rank, local.size, devices);
    if (ids.empty()) return "none (no OpenCL device)";
    conf.nopencl = int(ids.size());
    conf.use_explicit_workers_opencl_gpuid = 1;
    std::string line = "local rank " + std::to_string(local.rank) + " of " + std::to_string(local.size) + ": OpenCL device";
    line += ids.size() > 1 ? "s" : "";
    for (size_t i = 0; i < ids.size(); ++i) {
        conf.workers_opencl_gpuid[i] = unsigned(ids[i]);
        line += (i ? ", " : " ") + std::to_string(ids[i]);
    }
    return line + " of " + std::to_string(devices) + (devices < local.size ? " (shared: fewer devices than ranks)" : "");
}

}  // namespace tessera::detail
