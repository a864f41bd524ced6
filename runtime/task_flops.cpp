// One table of kernel flop counts (LAPACK Working Note 41, "Installation Guide for LAPACK", appendix:
// multiplications + additions of each routine, the formulas PLASMA's and MAGMA's flops.h carry).
// The tile kernels LAWN 41 does not cover (tpqrt, tpmqrt, tstrf, ssssm) count their leading term,
// the work of the eliminations they perform, without the inner-blocking overhead (ib).
#include "runtime/task_flops.hpp"

#include <starpu.h>

#include <algorithm>
#include <cstring>
#include <new>

namespace tessera::detail {

double potrf_flops(double n) noexcept {
    const double mults = n * ((1. / 6. * n + 0.5) * n + 1. / 3.), adds = n * ((1. / 6. * n) * n - 1. / 6.);
    return mults + adds;
}

double getrf_flops(double m, double n) noexcept {
    const double mults = m < n ? 0.5 * m * (m * (n - 1. / 3. * m - 1.) + n) + 2. / 3. * m
                               : 0.5 * n * (n * (m - 1. / 3. * n - 1.) + m) + 2. / 3. * n;
    const double adds = m < n ? 0.5 * m * (m * (n - 1. / 3. * m) - n) + 1. / 6. * m
                              : 0.5 * n * (n * (m - 1. / 3. * n) - m) + 1. / 6. * n;
    return mults + adds;
}

double geqrf_flops(double m, double n) noexcept {
    const double mults = m > n ? n * (n * (0.5 - 1. / 3. * n + m) + m + 23. / 6.)
                               : m * (m * (-0.5 - 1. / 3. * m + n) + 2. * n + 23. / 6.);
    const double adds = m > n ? n * (n * (0.5 - 1. / 3. * n + m) + 5. / 6.)
                              : m * (m * (-0.5 - 1. / 3. * m + n) + n + 5. / 6.);
    return mults + adds;
}

namespace {

double trtri_flops(double n) { return n * (n * (1. / 6. * n + 0.5) + 1. / 3.) + n * (n * (1. / 6. * n - 0.5) + 1. / 3.); }

// xUNMQR / xGEMQRT: C (m × n) times Q of k reflectors, from the left or the right.
double unmqr_flops(bool left, double m, double n, double k) {
    const double mults = left ? 2. * n * m * k - n * k * k + 2. * n * k
                              : 2. * n * m * k - m * k * k + m * k + n * k - 0.5 * k * k + 0.5 * k;
    const double adds = left ? 2. * n * m * k - n * k * k + n * k : 2. * n * m * k - m * k * k + m * k;
    return mults + adds;
}

// xTRSM / xTRMM on B (m × n): A is m × m from the left, n × n from the right.
double triangular_flops(bool left, double m, double n) { return left ? n * m * m : m * n * n; }

using Buffers = std::vector<BufferShape>;
char flag(uint32_t flags, int byte) { return char((flags >> (8 * byte)) & 0xFF); }
double rows(const Buffers& b, size_t i) { return i < b.size() ? double(b[i].rows) : 0.; }
double cols(const Buffers& b, size_t i) { return i < b.size() ? double(b[i].cols) : 0.; }
/// Rows of a panel's column of tiles: every matrix buffer but the last (the panel's pivots or T).
double column_rows(const Buffers& b) {
    double m = 0;
    for (size_t t = 0; t + 1 < b.size(); ++t)
        if (b[t].matrix) m += double(b[t].rows);
    return m;
}

// Real flops of operation `op` (the codelet name without its precision letter).
double op_flops(std::string_view op, uint32_t f, const Buffers& b) {
    if (op == "gemm") {  // A, B, C; flags: transA, transB
        const double k = flag(f, 0) == 'N' ? cols(b, 0) : rows(b, 0);
        return 2. * rows(b, 2) * cols(b, 2) * k;
    }
    if (op == "gemm_pair") return 4. * rows(b, 0) * cols(b, 0) * cols(b, 3);  // A (m × k), B1, B2, C1 (m × n), C2
    if (op == "syrk" || op == "herk") {  // A, C; flags: uplo, trans
        const double k = flag(f, 1) == 'N' ? cols(b, 0) : rows(b, 0), n = cols(b, 1);
        return k * n * (n + 1.);
    }
    if (op == "symm") {  // A, B, C; flags: 'S'/'H', side, uplo
        const bool left = flag(f, 1) == 'L';
        return 2. * rows(b, 2) * cols(b, 2) * (left ? rows(b, 2) : cols(b, 2));
    }
    if (op == "syr2k") {  // A, B, C; flags: 'S'/'H', uplo, trans
        const double k = flag(f, 2) == 'N' ? cols(b, 0) : rows(b, 0), n = cols(b, 2);
        return 2. * k * n * (n + 1.);
    }
    if (op == "trsm" || op == "trmm") return triangular_flops(flag(f, 0) == 'L', rows(b, 1), cols(b, 1));  // A, B; side
    if (op == "potrf") return potrf_flops(cols(b, 0));
    if (op == "potrf_inverse" || op == "potrf_inverse_panel")  // A, W = L⁻¹ (the panel: on a panel queue)
        return potrf_flops(cols(b, 0)) + trtri_flops(cols(b, 0));
    if (op == "trtri") return trtri_flops(cols(b, 1));  // A, W = A⁻¹
    if (op == "trtri_inplace") return trtri_flops(cols(b, 0));  // A, workspace
    if (op == "lauum") return potrf_flops(cols(b, 0));  // LAWN 41: xLAUUM counts as xPOTRF
    if (op == "getrf_nopiv" || op == "getrf_incpiv") return getrf_flops(rows(b, 0), cols(b, 0));
    // The panels: the column's tiles stacked, then one more buffer (LU's pivots, QR's T).
    if (op == "getrf_panel") return getrf_flops(column_rows(b), cols(b, 0));
    if (op == "geqrf_panel") return geqrf_flops(column_rows(b), cols(b, 0));
    if (op == "gessm") {  // ipiv (kb), L, A: unit lower solve on A's first k rows, update of the rest
        const double m = rows(b, 2), n = cols(b, 2), k = std::min(rows(b, 0), m);
        return triangular_flops(true, k, n) + 2. * (m - k) * n * k;
    }
    if (op == "tstrf") return rows(b, 1) * cols(b, 1) * cols(b, 1);               // U, A (m × n): eliminate A
    if (op == "ssssm") return 2. * rows(b, 1) * cols(b, 1) * cols(b, 3);          // A1, A2 (m × n), L, V (m × k)
    if (op == "geqrt") return geqrf_flops(rows(b, 0), cols(b, 0));
    if (op == "gemqrt")  // V, T, C; flags: side, trans
        return unmqr_flops(flag(f, 0) == 'L', rows(b, 2), cols(b, 2), std::min(rows(b, 0), cols(b, 0)));
    if (op == "tpqrt") return 2. * rows(b, 1) * cols(b, 1) * cols(b, 1);          // A (R), B (m × n), T
    if (op == "tpmqrt") return 4. * rows(b, 3) * cols(b, 3) * cols(b, 0);         // V (· × k), T, A1, A2 (m × n)
    // d, e, w (n each): xSTERF's implicit QL/QR, about 30·n² (two sweeps of ~15 flops a row per
    // eigenvalue); the OpenCL bisection does more, in parallel. Counted so that the placement prior
    // keeps an n = 16384 task off a CPU core (about 4 s there, 0.11 s on an H200) while StarPU has
    // no history of it on the CPUs (bench/gpu_notes.md, "The bulge chasing on the device").
    if (op == "tridiag_values") return 30. * rows(b, 0) * rows(b, 0);
    // vec (3k), lam (k), q2 (n1·n12 + n2·n23), q (n × k), scratch: xLAED3's two products, and xLAED4's
    // roots at about 20·k² (the device's bisection does more, in parallel).
    if (op == "secular_merge") return 2. * rows(b, 2) * rows(b, 1) + 20. * rows(b, 1) * rows(b, 1);
    return 0;  // norm_tile (memory-bound), lacpy, lacpy_region, laswp, laswp_columns, conj_transpose, zero_diagonal, unit_lower, generate, scale, unknown
}

}  // namespace

double codelet_flops(std::string_view codelet, uint32_t flags, const std::vector<BufferShape>& buffers) noexcept {
    if (codelet.size() < 2) return 0;
    const char prec = codelet[0];
    if (prec != 's' && prec != 'd' && prec != 'c' && prec != 'z') return 0;
    const double real = op_flops(codelet.substr(1), flags, buffers);
    return prec == 'c' || prec == 'z' ? 4. * real : real;
}

double task_flops(const starpu_task* task) noexcept {
    if (!task || !task->cl || !task->cl->name) return 0;
    uint32_t flags = 0;
    if (task->cl_arg && task->cl_arg_size >= sizeof flags) std::memcpy(&flags, task->cl_arg, sizeof flags);
    try {
        const unsigned n = STARPU_TASK_GET_NBUFFERS(task);
        std::vector<BufferShape> shapes(n);
        for (unsigned i = 0; i < n; ++i) {
            starpu_data_handle_t h = STARPU_TASK_GET_HANDLE(task, i);
            switch (starpu_data_get_interface_id(h)) {
                case STARPU_MATRIX_INTERFACE_ID:
                    shapes[i] = {int64_t(starpu_matrix_get_nx(h)), int64_t(starpu_matrix_get_ny(h)), true};
                    break;
                case STARPU_VECTOR_INTERFACE_ID:
                    shapes[i] = {int64_t(starpu_vector_get_nx(h)), 1, false};
                    break;
                default:
                    break;
            }
        }
        return codelet_flops(task->cl->name, flags, shapes);
    } catch (const std::bad_alloc&) {
        return 0;
    }
}

}  // namespace tessera::detail
