// Stage 1 of the two-stage Hermitian eigensolver (tessera/eig.hpp): the reduction of a Hermitian
// matrix to band form, A = Q1·B·Q1ᴴ, and the application of Q1. Internal header of heevd.cpp.
#pragma once

#include <cstdint>

#include "tessera/qr.hpp"

namespace tessera::detail {

/// Submit the reduction of the Hermitian n×n A (tiles of nb, mt = nt) to the Hermitian band B of
/// bandwidth nb (LAPACK xSYTRD_SY2SB / xHETRD_HE2HB's algorithm, one tile column per panel).
/// A's lower triangle must be complete and its diagonal tiles full (both triangles, Hermitian);
/// the upper tiles (i < j) are not read. For each k < nt−1: panel k, the QR of tile column k below
/// the diagonal tile (tasks::geqrf_panel: V_k below R's diagonal, T_k in F's tile (k, k)); then,
/// with V the panel's reflectors and A₂ the trailing tiles (k+1 .. nt−1)²,
///   X = A₂·V, W = X·T_k, M = −½·T_kᴴ·(Vᴴ·W), Y = W + V·M, A₂ −= Y·Vᴴ + V·Yᴴ,
/// which is Q_kᴴ·A₂·Q_k for Q_k = I − V·T_k·Vᴴ, on the lower tiles of A₂ and the whole of its
/// diagonal tiles (so they stay full). Tile GEMMs only, on CPU workers and OpenCL devices: 4n³/3
/// flops. Afterwards B is A's diagonal tiles' lower triangles and the upper triangles (R) of the
/// tiles (k+1, k); the V_k lie below R's diagonal. F: QRFactors of A in ColumnPanel form.
template <class T>
void he2hb(TileMatrix<T>& A, QRFactors<T>& F);

/// Submit Z = Q1·Z for he2hb's factors (A, F) and the n × Z.n() matrix Z tiled like A's rows:
/// Q1 = Q_0·Q_1·…·Q_{nt−2}, applied last factor first (xLARFB's GEMMs, tile column by tile column).
template <class T>
void unmqr_he2hb(const TileMatrix<T>& A, const QRFactors<T>& F, TileMatrix<T>& Z);

}  // namespace tessera::detail
