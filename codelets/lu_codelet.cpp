// Perfmodels, variable-buffer codelets and submission for the LU codelets.
#include "codelets/lu_codelet.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

namespace tessera::codelets {

static uint32_t lu_footprint(starpu_task* task) {
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

starpu_perfmodel* lu_model(const std::string& symbol) {
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
        m.footprint = lu_footprint;
    }
    return &slot->second;
}

starpu_codelet make_var_codelet(const char* name, starpu_cpu_func_t cpu, starpu_opencl_func_t ocl,
                                starpu_perfmodel* model) {
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
    cl.nbuffers = STARPU_VARIABLE_NBUFFERS;
    cl.model = model;
    return cl;
}

void submit_buffers(starpu_codelet& cl, const void* args, size_t args_size, const std::vector<Buffer>& buffers,
                    int priority) {
    starpu_task* task = starpu_task_create();
    task->cl = &cl;
    task->name = cl.name;
    task->cl_arg = std::malloc(args_size);
    std::memcpy(task->cl_arg, args, args_size);
    task->cl_arg_size = args_size;
    task->cl_arg_free = 1;
    const int n = int(buffers.size());
    if (cl.nbuffers == STARPU_VARIABLE_NBUFFERS) {
        task->nbuffers = n;
        if (n > STARPU_NMAXBUFS) {  // freed by StarPU with the task
            task->dyn_handles = static_cast<starpu_data_handle_t*>(std::malloc(size_t(n) * sizeof(starpu_data_handle_t)));
            task->dyn_modes = static_cast<starpu_data_access_mode*>(std::malloc(size_t(n) * sizeof(starpu_data_access_mode)));
        }
        for (int i = 0; i < n; ++i) {
            STARPU_TASK_SET_HANDLE(task, buffers[size_t(i)].first, i);
            STARPU_TASK_SET_MODE(task, buffers[size_t(i)].second, i);
        }
    } else {
        if (n != cl.nbuffers) throw Error(std::string("tessera: wrong number of buffers for task ") + cl.name);
        for (int i = 0; i < n; ++i) task->handles[i] = buffers[size_t(i)].first;
    }
    task->priority = priority;
    if (detail::placement() == Placement::OpenCLOnly && cl.opencl_funcs[0]) task->where = STARPU_OPENCL;
    int ret = starpu_task_submit(task);
    if (ret == -ENODEV) throw Error(std::string("tessera: no worker can run task ") + cl.name);
    if (ret != 0) throw Error(std::string("tessera: starpu_task_submit failed for ") + cl.name);
}

}  // namespace tessera::codelets
