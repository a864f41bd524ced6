// tuned_tile(routine, n): the CPU table's choice, with OpenCL GPUs the rule of runtime/gpu_tiles.hpp,
// without them and at large n the order rule of runtime/cpu_tiles.hpp.
#include "runtime/gpu_tiles.hpp"

#include <algorithm>
#include <cctype>

#include "runtime/cpu_tiles.hpp"
#include "runtime/mpi_internal.hpp"
#include "runtime/runtime_internal.hpp"
#include "tessera/tuning.hpp"

namespace tessera::detail {

int64_t gpu_tile_rule(const std::string& family, int64_t n) {
    if (family == "gemm") return n >= 16384 ? 4096 : n >= 8192 ? 2048 : 0;
    if (family == "potrf" || family == "getrf") return n >= 32768 ? 4096 : n >= 16384 ? 2048 : n >= 8192 ? 1024 : 0;
    if (family == "geqrf") return n >= 8192 ? 2048 : 0;
    return 0;
}

}  // namespace tessera::detail

namespace tessera {

TileChoice tuned_tile(const std::string& routine, int64_t n) {
    TileChoice choice = detail::local_tuned_tile(routine);
    std::string family = routine.size() > 1 ? routine.substr(1) : std::string();
    std::transform(family.begin(), family.end(), family.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (detail::runtime_has_opencl_gpu()) {
        if (const int64_t nb = detail::gpu_tile_rule(family, n); nb > 0)
            choice = {nb, std::min(choice.ib, nb), "GPU rule: " + family + " of order " + std::to_string(n) + " (docs/tuning.md)"};
    } else if (!detail::distributed()) {  // distributed, the process grid wants tiles of its own
        const int workers = int(starpu_cpu_worker_get_count());
        if (const int64_t nb = detail::order_rule_tile(family, n, workers); nb > choice.nb)
            choice = {nb, std::min(choice.ib, nb),
                      "order rule: " + family + " of order " + std::to_string(n) + " on " + std::to_string(workers) +
                          " CPU workers (docs/tuning.md)"};
    }
    return detail::rank0_tile_choice(choice);
}

}  // namespace tessera
