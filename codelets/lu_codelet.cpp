// Submission of tasks with a variable number of buffers, for the LU codelets.
#include "codelets/lu_codelet.hpp"

#include "runtime/mpi_internal.hpp"

#include <cstdlib>
#include <new>

namespace tessera::codelets {

void submit_buffers(starpu_codelet& cl, const void* args, size_t args_size, const std::vector<Buffer>& buffers,
                    int priority, std::shared_ptr<const void> keep) {
    const int n = int(buffers.size());
    if (cl.nbuffers != STARPU_VARIABLE_NBUFFERS && n != cl.nbuffers)
        throw Error(std::string("tessera: wrong number of buffers for task ") + cl.name);
    if (detail::distributed()) return submit_distributed(cl, args, args_size, buffers, priority, std::move(keep));
    starpu_task* task = new_task(cl, args, args_size, priority, std::move(keep));
    if (cl.nbuffers == STARPU_VARIABLE_NBUFFERS) {
        task->nbuffers = n;
        if (n > STARPU_NMAXBUFS) {  // freed by StarPU with the task (or by discard_task)
            task->dyn_handles = static_cast<starpu_data_handle_t*>(std::malloc(size_t(n) * sizeof(starpu_data_handle_t)));
            task->dyn_modes = static_cast<starpu_data_access_mode*>(std::malloc(size_t(n) * sizeof(starpu_data_access_mode)));
            if (!task->dyn_handles || !task->dyn_modes) {
                discard_task(task);
                throw std::bad_alloc();
            }
        }
        for (int i = 0; i < n; ++i) {
            STARPU_TASK_SET_HANDLE(task, buffers[size_t(i)].first, i);
            STARPU_TASK_SET_MODE(task, buffers[size_t(i)].second, i);
        }
    } else {
        for (int i = 0; i < n; ++i) task->handles[i] = buffers[size_t(i)].first;
    }
    submit_task(task);
}

}  // namespace tessera::codelets
