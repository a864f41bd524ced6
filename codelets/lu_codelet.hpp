// StarPU glue shared by the panel codelets (LU's getrf_panel, laswp; QR's geqrf_panel): tasks with
// a variable number of buffers (a column of tiles can exceed STARPU_NMAXBUFS = 8), a column of
// tiles as one panel, and dependency tokens. Internal header.
#pragma once

#include <starpu.h>

#include <algorithm>
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
    static const char* name = kept_name(prec_letter<T>() + std::string(op));
    static starpu_codelet cl = make_var_codelet<T, Cpu, Ocl>(name, history_model(std::string("tessera_") + name));
    return cl;
}

/// Submit one task of `cl` (fixed or variable number of buffers) on `buffers` with a copy of
/// `args` (trivially copyable, starting with `uint32_t flags`). Honours Placement::OpenCLOnly.
/// `keep` (e.g. an object the task reads through a pointer in `args`) is held until the task has
/// completed. Throws std::bad_alloc when memory runs out, tessera::Error as submit_task().
void submit_buffers(starpu_codelet& cl, const void* args, size_t args_size, const std::vector<Buffer>& buffers,
                    int priority, std::shared_ptr<const void> keep = {});
template <class Args>
void submit_buffers(starpu_codelet& cl, const Args& args, const std::vector<Buffer>& buffers, int priority,
                    std::shared_ptr<const void> keep = {}) {
    static_assert(std::is_trivially_copyable_v<Args>);
    static_assert(starts_with_flags<Args>(), "a codelet's arguments start with uint32_t flags (history_model)");
    submit_buffers(cl, &args, sizeof(Args), buffers, priority, std::move(keep));
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

/// A column of tiles (a task's first `ntiles` buffers, top to bottom, one width) as one column-major
/// rows×cols panel on a CPU worker, or a block of it: from row `row0` of the first tile down, columns
/// col0 … col0+width−1 (width −1: to the tiles' last column). The tiles themselves when they stack
/// into one already (tiles of a LAPACK array registered in place, TileMatrix::view: each starts where
/// the one above ends, all with one leading dimension), else a copy in `workspace` (per worker, grown
/// on demand and reused across panels: no page faults per task), which scatter() writes back.
template <class T>
struct CpuPanel {
    CpuPanel(void* buffers[], int64_t ntiles, std::vector<T>& workspace, int64_t row0 = 0, int64_t col0 = 0,
             int64_t width = -1)
        : buffers_(buffers), ntiles_(ntiles), row0_(row0), col0_(col0),
          cols(width < 0 ? tile_cols(buffers[0]) - col0 : width) {
        rows = -row0;
        for (int64_t t = 0; t < ntiles; ++t) rows += tile_rows(buffers[t]);
        const auto first = cpu_tile<T>(buffers[0]);
        for (int64_t t = 1, row = first.m; t < ntiles && stacked_; row += tile_rows(buffers[t]), ++t) {
            const auto A = cpu_tile<T>(buffers[t]);
            stacked_ = A.ld == first.ld && A.ptr == first.ptr + row;
        }
        ptr = first.ptr + row0 + col0 * first.ld, ld = first.ld;
        if (stacked_) return;
        ptr = codelets::workspace(workspace, size_t(rows * cols)), ld = rows;
        for (int64_t c = 0; c < cols; ++c) {
            T* dst = ptr + c * rows;
            for (int64_t t = 0; t < ntiles; ++t) {
                const auto A = cpu_tile<T>(buffers[t]);
                const T* col = A.ptr + (col0 + c) * A.ld;
                dst = std::copy(col + (t == 0 ? row0 : 0), col + A.m, dst);
            }
        }
    }
    /// The copy back into the tiles (nothing when they are the panel).
    void scatter() const {
        for (int64_t c = 0; c < cols && !stacked_; ++c) {
            const T* src = ptr + c * rows;
            for (int64_t t = 0; t < ntiles_; ++t) {
                const auto A = cpu_tile<T>(buffers_[t]);
                const int64_t r0 = t == 0 ? row0_ : 0;
                std::copy(src, src + A.m - r0, A.ptr + r0 + (col0_ + c) * A.ld);
                src += A.m - r0;
            }
        }
    }

private:
    void** buffers_;
    int64_t ntiles_, row0_, col0_;
    bool stacked_ = true;

public:
    int64_t rows = 0, cols;
    T* ptr = nullptr;
    int64_t ld = 0;
};

/// Number of buffers of the running task whose codelet has a variable number of them.
inline int task_nbuffers() { return int(STARPU_TASK_GET_NBUFFERS(starpu_task_get_current())); }

}  // namespace tessera::codelets
