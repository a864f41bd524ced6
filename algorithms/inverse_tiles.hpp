// The tile loops the inverses share (algorithms/inverse.cpp, algorithms/getri.cpp). Internal header.
#pragma once

#include <vector>

#include "tessera/tile_matrix.hpp"

namespace tessera::detail {

/// Submit zero_diagonal tasks (CPU) on A's diagonal tiles into the current sequence's info slots:
/// info = the 1-based index of the first exactly zero A(i, i).
template <class T>
void check_diagonal(const TileMatrix<T>& A);
/// check_diagonal in a sequence of its own, waited for: the synchronous forms' check before anything
/// changes A (LAPACK's xTRTRI, xGETRI). Returns its info.
template <class T>
int64_t diagonal_info(const TileMatrix<T>& A);

/// Submit Chameleon's pztrtri tile loop: A := A⁻¹ on the uplo triangle of the square A. With
/// `inverses`, the diagonal tiles are inverted out of place instead, tile k's inverse into
/// (*inverses)[k] (temporary tiles, written in full with zeros in the other triangle; the caller
/// releases them) and A(k, k) left as it was.
template <class T>
void trtri_tiles(Uplo uplo, Diag diag, TileMatrix<T>& A, std::vector<TileHandle>* inverses = nullptr);

}  // namespace tessera::detail
