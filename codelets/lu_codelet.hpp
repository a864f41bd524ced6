// StarPU glue shared by the LU codelets: tasks with a variable number of buffers
// (a column of tiles can exceed STARPU_NMAXBUFS = 8), and dependency tokens. Internal header.
#pragma once

#include <starpu.h>

#include <string>
#include <utility>
#include <vector>

#include "codelets/codelet.hpp"

namespace tessera::codelets {

/// A codelet of precision T with a variable number of buffers (modes given per task), otherwise as
/// make_codelet.
template <class T, starpu_cpu_func_t Cpu, starpu_opencl_func_t Ocl = nullptr>
starpu_codelet make_var_codelet(const char* name, starpu_perfmodel* model) {
    starpu_codelet cl = make_codelet<T, Cpu, Ocl>(name, {}, model);
    cl.nbuffers = STARPU_VARIABLE_NBUFFERS;
    return cl;
}

/// named_codelet's form for make_var_codelet (buffers and modes given per task).
template <class T, starpu_cpu_func_t Cpu, starpu_opencl_func_t Ocl = nullptr>
starpu_codelet& named_var_codelet(const char* op) {
    static const std::string name = prec_letter<T>() + std::string(op);
    static starpu_codelet cl = make_var_codelet<T, Cpu, Ocl>(name.c_str(), history_model("tessera_" + name));
    return cl;
}

/// Submit one task of `cl` (fixed or variable number of buffers) on `buffers` with a copy of
/// `args` (trivially copyable, starting with `uint32_t flags`). Honours Placement::OpenCLOnly.
/// Throws std::bad_alloc when memory runs out, tessera::Error as submit_task().
void submit_buffers(starpu_codelet& cl, const void* args, size_t args_size, const std::vector<Buffer>& buffers,
                    int priority);
template <class Args>
void submit_buffers(starpu_codelet& cl, const Args& args, const std::vector<Buffer>& buffers, int priority) {
    static_assert(std::is_trivially_copyable_v<Args>);
    static_assert(starts_with_flags<Args>(), "a codelet's arguments start with uint32_t flags (history_model)");
    submit_buffers(cl, &args, sizeof(Args), buffers, priority);
}

/// The OpenCL tiles of a task's first `ntiles` buffers (a column of tiles, top to bottom) and their
/// row counts, as the LU launchers take them.
template <class T>
struct OclColumn {
    std::vector<ocl::Mat> tiles;
    std::vector<int64_t> rows;
    OclColumn(void* buffers[], int64_t ntiles) {
        for (int64_t t = 0; t < ntiles; ++t) {
            tiles.push_back(ocl_tile<T>(buffers[t]));
            rows.push_back(tile_rows(buffers[t]));
        }
    }
};

/// Number of buffers of the running task whose codelet has a variable number of them.
inline int task_nbuffers() { return int(STARPU_TASK_GET_NBUFFERS(starpu_task_get_current())); }

}  // namespace tessera::codelets
