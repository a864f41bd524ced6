// Host launchers of the LU family's OpenCL kernels (lu.cl), plus gemm/trsm from launch.hpp.
// StarPU-free; each enqueues on the in-order queue `q` and returns without waiting. Column-major
// tiles, offsets in elements. Pivot conventions are those of kernels/cpu/lu.hpp.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/opencl/launch.hpp"

namespace tessera::ocl {

/// Row interchanges (LAPACK xLASWP) on a column of tiles stacked vertically, all with `ncols`
/// columns: tiles[t] has rows[t] rows (all but the last rows[0]); the first row of tiles[0] is
/// global row row0. For i = k1..k2−1 (forward) or k2−1..k1 (backward), global row i is swapped with
/// global row ipiv[i]−1 (ipiv: host memory, 1-based global rows, read during the call only).
/// The permutation is composed on the host; the moved rows are gathered into a device workspace
/// and scattered to their places (two passes of tessera_lu_rowcopy per tile involved).
template <class T>
void laswp(const DeviceKernels& dk, cl_command_queue q, int64_t ncols, const std::vector<Mat>& tiles,
           const std::vector<int64_t>& rows, int64_t row0, const int64_t* ipiv, int64_t k1, int64_t k2, bool forward);

/// Partial-pivoting LU (LAPACK xGETRF semantics) of a panel: a column of tiles stacked vertically,
/// tiles[t] with rows[t] rows and ncols columns, m = Σ rows. The tiles are copied into one m×ncols
/// matrix (dk.scratch(Workspace::Panel)), factored there by the recursion of LAPACK's xGETRF2
/// (Toledo 1997; left half, trsm, gemm, right half) down to leaves of TESSERA_GETRF_LEAF (≤ 64)
/// columns (getrf.cl: one work-group, or one launch per column over a work-group per TESSERA_GETRF_STEP_ROWS (256) rows for
/// leaves of more than 1024 rows), whose interchanges swap whole rows of the panel as they pivot
/// (where xGETRF2 applies each half's to the other after it), and copied back. The kb = min(m, ncols) pivots, as 1-based rows of
/// the matrix whose row row0 is the panel's first (int64, LAPACK's ipiv shifted by row0), go to
/// element piv_off of the device buffer piv, and by non-blocking reads to host_ipiv[0..kb) and
/// *host_info (0, or the 1-based panel column of the first exactly zero pivot; the factorization
/// goes on past it, as LAPACK's does): both must stay valid until the queue has drained.
/// Throws tessera::Error for an OpenCL failure.
template <class T>
void getrf_panel(const DeviceKernels& dk, cl_command_queue q, const std::vector<Mat>& tiles,
                 const std::vector<int64_t>& rows, int64_t ncols, int64_t row0, cl_mem piv, size_t piv_off,
                 int64_t* host_ipiv, int* host_info);

/// gessm: A = L⁻¹·P·A on the m×n tile A, with the kb pivots (int, LAPACK's 1-based local rows) at
/// element `ipiv_off` of the device buffer `ipiv` and L the unit lower m×kb factor (first kb rows
/// solved with trsm, the rest updated with gemm).
template <class T>
void gessm(const DeviceKernels& dk, cl_command_queue q, int64_t m, int64_t n, int64_t kb, cl_mem ipiv, size_t ipiv_off,
           Mat L, Mat A);

/// ssssm: apply tstrf's transformation to the pair [A1; A2] (A1's first kb rows and A2's m2 rows,
/// n columns): per column block of ib, the interchanges (pair convention, int device buffer), then
/// A1_b = L1_b⁻¹·A1_b (trsm) and A2 −= L2_b·A1_b (gemm). L1 is the ib×kb tile, L2 the m2×kb tile.
template <class T>
void ssssm(const DeviceKernels& dk, cl_command_queue q, int64_t n, int64_t m2, int64_t kb, int64_t ib, Mat A1, Mat A2,
           Mat L1, Mat L2, cl_mem ipiv, size_t ipiv_off);

}  // namespace tessera::ocl
