// Flop count of one task from its codelet and its buffers' tile shapes (LAPACK Working Note 41's
// counts), for the Runtime's progress counters and traces. Internal: not installed.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

struct starpu_task;

namespace tessera::detail {

/// Shape of one task buffer: a matrix tile is rows × cols; an int vector (pivots) is entries × 1;
/// a data-less token is 0 × 0.
struct BufferShape {
    int64_t rows = 0, cols = 0;
    bool matrix = false;  ///< a matrix tile (rows × cols); false for vectors and tokens
};

/// Floating-point operations of one kernel: `codelet` is Tessera's codelet name, a precision letter
/// (s, d, c, z) then the operation ("dgemm", "zpotrf", "sgetrf_panel"); `flags` is the flags word
/// that starts every task argument (uplo, trans, side packed as characters: codelets/codelet.hpp);
/// `buffers` the task's buffers in codelet order. Real counts (multiplications + additions,
/// LAWN 41); c and z count 4× the real count. Data movement and host codelets (lacpy,
/// lacpy_region, laswp, conj_transpose, zero_diagonal, generate, scale) and unknown names count 0.
/// Never throws.
double codelet_flops(std::string_view codelet, uint32_t flags, const std::vector<BufferShape>& buffers) noexcept;

/// codelet_flops() of a task made by codelets::new_task (or built by StarPU-MPI and prepared by
/// it): name from its codelet, flags from the start of its argument, shapes from its handles.
/// 0 for a task without codelet. Never throws (allocation failure counts 0).
double task_flops(const starpu_task* task) noexcept;

/// LAWN 41 counts (real, multiplications + additions) used by the table, for the checks of tools
/// and tests: potrf of order n, getrf of m × n, geqrf of m × n.
double potrf_flops(double n) noexcept;
double getrf_flops(double m, double n) noexcept;
double geqrf_flops(double m, double n) noexcept;

}  // namespace tessera::detail
