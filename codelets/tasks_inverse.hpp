// Typed task insertion for the inverses (algorithms/inverse.cpp, algorithms/getri.cpp). Tile sizes
// come from the handles; each function submits one StarPU task with the given priority.
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/tile_matrix.hpp"

namespace tessera::tasks {

/// A := A⁻¹ in place on the uplo triangle of the square tile A (LAPACK xTRTRI; with diag Unit the
/// diagonal is neither read nor written), RW A, W W (a square tile of A's order, workspace: the
/// OpenCL implementation inverts into it with ocl::trtri and copies the triangle back). The tile's
/// diagonal must have been checked (tasks::zero_diagonal): a zero gives Inf/NaN. CPU and OpenCL.
template <class T>
void trtri_inplace(Uplo uplo, Diag diag, TileHandle A, TileHandle W, int prio = 0);

/// A := Lᴴ·L (Lower) or U·Uᴴ (Upper) on the uplo triangle of the square tile A (LAPACK xLAUUM),
/// RW A. CPU and OpenCL (the triangle copied to scratch with zeros in the other one, then herk).
template <class T>
void lauum(Uplo uplo, TileHandle A, int prio = 0);

/// Column interchanges on a row of tiles (RW; left to right, all tiles but the last of one width):
/// for j = k2−1 down to k1, global column j ↔ global column ipiv[j]−1 (LAPACK xGETRI's final
/// interchanges; the row's first column is global column 0). ipiv is host memory read when the task
/// runs (1-based, as getrf leaves it). CPU and OpenCL.
template <class T>
void laswp_columns(const std::vector<TileHandle>& row, const int64_t* ipiv, int64_t k1, int64_t k2, int prio = 0);

}  // namespace tessera::tasks
