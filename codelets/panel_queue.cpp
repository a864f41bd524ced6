// Panel-queue codelets and the task-side hold on a device's panel queue (codelets/panel_queue.hpp).
#include "codelets/panel_queue.hpp"

#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace tessera::codelets {

namespace {
int current_task_devid() { return starpu_memory_node_get_devid(unsigned(starpu_task_get_current_data_node(0))); }
}  // namespace

PanelQueueTask::PanelQueueTask(char prec) : panel_(detail::panel_queue(current_task_devid(), prec)) {}

PanelQueueTask::~PanelQueueTask() { clFinish(panel_.queue); }

void PanelQueueTask::finish() { ocl::check(clFinish(panel_.queue), "clFinish(panel queue)"); }

int panel_queue_for(TileHandle lead, char prec) {
    const int node = detail::panel_queue_node(lead, prec);
    if (node >= 0) detail::prepare_opencl(prec);
    return node;
}

starpu_codelet& panel_queue_codelet(const char* name, starpu_cpu_func_t cpu,
                                    std::initializer_list<starpu_data_access_mode> modes, int node) {
    static std::mutex lock;
    // Kept until exit, as StarPU may read them until its shutdown (see kept_name).
    static auto& codelets = *new std::map<std::pair<std::string, int>, starpu_codelet>;
    std::lock_guard<std::mutex> guard(lock);
    const auto key = std::make_pair(std::string(name), node);
    auto it = codelets.find(key);
    if (it != codelets.end()) return it->second;
    starpu_codelet cl;
    starpu_codelet_init(&cl);
    cl.name = name;
    cl.cpu_funcs[0] = cpu;
    cl.where = STARPU_CPU;
    cl.specific_nodes = 1;
    cl.nbuffers = int(modes.size());
    int i = 0;
    for (starpu_data_access_mode mode : modes) cl.nodes[i] = node, cl.modes[i++] = mode;
    return codelets.emplace(key, cl).first->second;
}

}  // namespace tessera::codelets
