// Perfmodels, codelet construction and task submission shared by every codelet.
#include "codelets/codelet.hpp"

#include <cerrno>
#include <map>
#include <memory>
#include <mutex>

namespace tessera::codelets {

// Footprint = hash of the sizes of every matrix and vector buffer (data-less tokens are skipped) and
// of the flags word that starts cl_arg.
static uint32_t footprint(starpu_task* task) {
    uint32_t h = 0;
    for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i) {
        starpu_data_handle_t d = STARPU_TASK_GET_HANDLE(task, i);
        switch (starpu_data_get_interface_id(d)) {
            case STARPU_MATRIX_INTERFACE_ID:
                h = starpu_hash_crc32c_be(starpu_matrix_get_nx(d), h);
                h = starpu_hash_crc32c_be(starpu_matrix_get_ny(d), h);
                break;
            case STARPU_VECTOR_INTERFACE_ID:
                h = starpu_hash_crc32c_be(starpu_vector_get_nx(d), h);
                break;
            default:
                break;
        }
    }
    uint32_t flags = 0;
    if (task->cl_arg && task->cl_arg_size >= sizeof flags) std::memcpy(&flags, task->cl_arg, sizeof flags);
    return starpu_hash_crc32c_be(flags, h);
}

starpu_perfmodel* history_model(const std::string& symbol) {
    static std::mutex lock;
    static std::map<std::string, std::unique_ptr<std::pair<std::string, starpu_perfmodel>>> models;
    std::lock_guard<std::mutex> guard(lock);
    auto& slot = models[symbol];
    if (!slot) {
        slot = std::make_unique<std::pair<std::string, starpu_perfmodel>>();
        slot->first = symbol;
        starpu_perfmodel& m = slot->second;
        std::memset(&m, 0, sizeof m);
        m.type = STARPU_HISTORY_BASED;
        m.symbol = slot->first.c_str();
        m.footprint = footprint;
    }
    return &slot->second;
}

starpu_codelet make_codelet(const char* name, starpu_cpu_func_t cpu, starpu_opencl_func_t ocl,
                            std::initializer_list<starpu_data_access_mode> modes, starpu_perfmodel* model) {
    starpu_codelet cl;
    starpu_codelet_init(&cl);
    cl.name = name;
    cl.cpu_funcs[0] = cpu;
    cl.where = STARPU_CPU;
    if (ocl) {
        cl.opencl_funcs[0] = ocl;
        cl.opencl_flags[0] = STARPU_OPENCL_ASYNC;
        cl.where |= STARPU_OPENCL;
    }
    cl.nbuffers = int(modes.size());
    int i = 0;
    for (starpu_data_access_mode mode : modes) cl.modes[i++] = mode;
    cl.model = model;
    return cl;
}

starpu_task* new_task(starpu_codelet& cl, const void* args, size_t args_size, int priority) {
    starpu_task* task = starpu_task_create();
    task->cl = &cl;
    task->name = cl.name;
    task->cl_arg = std::malloc(args_size);
    std::memcpy(task->cl_arg, args, args_size);
    task->cl_arg_size = args_size;
    task->cl_arg_free = 1;
    task->priority = priority;
    if (detail::placement() == Placement::OpenCLOnly && cl.opencl_funcs[0]) task->where = STARPU_OPENCL;
    return task;
}

void submit_task(starpu_task* task) {
    if (detail::profile_active()) detail::profile_task(task);
    const int ret = starpu_task_submit(task);
    if (ret == -ENODEV) throw Error(std::string("tessera: no worker can run task ") + task->cl->name);
    if (ret != 0) throw Error(std::string("tessera: starpu_task_submit failed for ") + task->cl->name);
}

void submit(starpu_codelet& cl, const void* args, size_t args_size, std::initializer_list<TileHandle> handles,
            int priority, void (*callback)(void*), void* callback_arg) {
    starpu_task* task = new_task(cl, args, args_size, priority);
    int i = 0;
    for (TileHandle h : handles) task->handles[i++] = h;
    task->callback_func = callback;
    task->callback_arg = callback_arg;
    submit_task(task);
}

}  // namespace tessera::codelets
