// Stage 1 of the two-stage SVD (tessera/svd.hpp): the reduction of a general matrix to upper band
// form, A = Q1·B·P1ᴴ, and the application of Q1 and P1. Internal header of gesvd.cpp.
#pragma once

#include <cstdint>

#include "tessera/qr.hpp"

namespace tessera::detail {

/// Submit the reduction of the m×n A (m ≥ n, tiles of nb) to the n×n upper band B of bandwidth nb
/// (PLASMA's zgebrd_ge2gb; LAPACK xGEBRD's order of QR and LQ steps, a tile column / row per step).
/// For each k < nt: the QR of tile column k from the diagonal tile down (tasks::geqrf_panel: R in
/// A(k, k)'s upper triangle, V below, T in FA's tile (k, k)) and Q_kᴴ on the tiles to its right;
/// then, for k < nt−1, the LQ of tile row k right of the diagonal tile: P's tile column k gets that
/// row conjugate-transposed (P(j, k) = A(k, j)ᴴ), is factored by geqrf_panel from tile row k+1 (T
/// in FP's tile (k, k)), its R comes back conjugate-transposed into A(k, k+1) (L, lower triangular)
/// and the tiles below get A(k+1:, k+1:)·P_k. Tile GEMMs (xLARFB's products) on CPU workers and
/// OpenCL devices, 4mn² − 4n³/3 flops. Afterwards B is A's diagonal tiles' upper triangles and
/// the lower triangles of the tiles (k, k+1); the other entries of A and P hold the reflectors.
/// FA: QRFactors of A, FP of P (n×n, nb), both in ColumnPanel form.
template <class T>
void ge2gb(TileMatrix<T>& A, QRFactors<T>& FA, TileMatrix<T>& P, QRFactors<T>& FP);

/// Submit U = Q1·U for ge2gb's factors (A, FA) and the m × U.n() matrix U tiled like A's rows:
/// Q1 = Q_0·Q_1·…, applied last factor first (xLARFB's GEMMs, tile column by tile column).
template <class T>
void unmqr_ge2gb_left(const TileMatrix<T>& A, const QRFactors<T>& FA, TileMatrix<T>& U);

/// Submit V = P1·V for ge2gb's factors (P, FP) and the n × V.n() matrix V tiled like P's rows:
/// P1 = P_0·P_1·…·P_{nt−2}, applied last factor first.
template <class T>
void unmqr_ge2gb_right(const TileMatrix<T>& P, const QRFactors<T>& FP, TileMatrix<T>& V);

}  // namespace tessera::detail
