// Typed task insertion for the LU family. Tile sizes come from the handles; each function submits
// one StarPU task with the given priority. Pivot conventions are those of kernels/cpu/lu.hpp.
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/tile_matrix.hpp"

namespace tessera::tasks {

/// Partial-pivoting panel (CPU and OpenCL): LU with partial pivoting of the column of tiles `column`
/// (stacked top to bottom, all but the last nb rows; RW), gathered into a contiguous buffer and
/// factored with LAPACK xGETRF (CPU) or ocl::getrf_panel (same pivots). ipiv[0..kb) receives 1-based *global* rows (local + row0), kb = min(rows,
/// cols); *info the local LAPACK info. `pivots` (W) is ipiv[0..kb)'s handle (tasks::pivot_handle), which
/// the laswp tasks of this step read.
/// ipiv and info must stay valid until the task has run.
template <class T>
void getrf_panel(const std::vector<TileHandle>& column, int64_t row0, int64_t* ipiv, int* info, TileHandle pivots,
                 int prio = 0);

/// Row interchanges on a column of tiles (RW; CPU and OpenCL): for i = k1..k2−1 (forward) or
/// backward, global row i ↔ global row ipiv[i]−1; the first row of column[0] is global row row0.
/// `deps` are extra handles read (R) only to order the task after their writers (e.g. the panel's
/// token). ipiv is host memory read when the task runs.
template <class T>
void laswp(const std::vector<TileHandle>& column, int64_t row0, const int64_t* ipiv, int64_t k1, int64_t k2,
           bool forward, const std::vector<TileHandle>& deps, int prio = 0);

/// LU without pivoting of a tile (RW; CPU); *info = 0 or the 1-based local first zero pivot.
template <class T>
void getrf_nopiv(TileHandle A, int* info, int prio = 0);

/// LU with partial pivoting of a diagonal tile (RW A, W ipiv: int vector of min(rows, cols)
/// entries, LAPACK's 1-based local rows; CPU). *info = the local info (info may be null).
template <class T>
void getrf_incpiv(TileHandle A, TileHandle ipiv, int* info, int prio = 0);

/// gessm: A = L⁻¹·P·A with the diagonal tile's factor L (R) and pivots (R) (RW A; CPU and OpenCL).
template <class T>
void gessm(TileHandle ipiv, TileHandle L, TileHandle A, int prio = 0);

/// tstrf: factor [U; A] with U the upper triangle of the diagonal tile (RW U, RW A, W L (ib×kb),
/// W ipiv (int, kb)) (CPU). *info = first zero pivot (1-based local) when info is non-null.
template <class T>
void tstrf(int64_t ib, TileHandle U, TileHandle A, TileHandle L, TileHandle ipiv, int* info, int prio = 0);

/// ssssm: apply tstrf(U, Amk)'s transformation to [A1; A2] (RW A1, RW A2, R L, R Amk, R ipiv;
/// CPU and OpenCL).
template <class T>
void ssssm(int64_t ib, TileHandle A1, TileHandle A2, TileHandle L, TileHandle Amk, TileHandle ipiv, int prio = 0);

}  // namespace tessera::tasks
