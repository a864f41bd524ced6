// Variable-buffer codelets, submission and dependency tokens for the LU codelets.
#include "codelets/lu_codelet.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace tessera::codelets {

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
