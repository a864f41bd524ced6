// Conjugate-transposed copies, of LAPACK column-major arrays and of tile matrices: the LAPACK-layout
// LQ forms (lq_lapack.cpp) and lapack::gels for m < n run the LAPACK-layout QR forms on them; the SVD
// (gesvd.cpp) works on Aᴴ for m < n.
// Internal header.
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/tile_matrix.hpp"

namespace tessera::detail {

/// aᴴ (n×m, leading dimension n) of the m×n a (lda ≥ m); at least one element.
template <class T>
std::vector<T> conj_transposed(int64_t m, int64_t n, const T* a, int64_t lda);
/// a (m×n, lda ≥ m) = atᴴ, at n×m with leading dimension n (conj_transposed's inverse).
template <class T>
void store_conj_transposed(int64_t m, int64_t n, const std::vector<T>& at, T* a, int64_t lda);

/// Submit B(j, i) = A(i, j)ᴴ for every tile (tasks::conj_transpose; B is A's conjugate-transposed
/// shape with A's tile size).
template <class T>
void conj_transpose_tiles(const TileMatrix<T>& A, TileMatrix<T>& B);

}  // namespace tessera::detail
