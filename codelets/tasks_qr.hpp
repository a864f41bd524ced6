// Typed task insertion for QR (the tile tree's geqrt, gemqrt, tpqrt, tpmqrt; the column panels'
// geqrf_panel, unit_lower; larft_panel and t_diagonal between them and LAPACK's tau) and the helpers the QR algorithms
// need: region copies, transposition, a zero-diagonal check and temporary tiles. Tile sizes come
// from the handles; `ib` is the inner block size of the T factors (clamped to the number of
// reflectors, as kernels/cpu/qr.hpp explains). Each function submits one StarPU task.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "codelets/tasks.hpp"
#include "tessera/tile_matrix.hpp"

namespace tessera::tasks {

/// QR of tile A (m×n): R on and above the diagonal, V below, T (ib×n tile) the block factors of the
/// min(m, n) reflectors (RW A, W T; CPU and OpenCL).
template <class T>
void geqrt(int64_t ib, TileHandle A, TileHandle Tf, int prio = 0);
/// C = op(Q)·C (Left) or C·op(Q) (Right) with geqrt's Q: V is the factored tile (k = min(rows, cols)
/// reflectors, only its strictly lower part read), C has V's row count as rows (Left) or columns
/// (Right) (R V, R T, RW C; CPU and OpenCL).
template <class T>
void gemqrt(Side side, Trans trans, int64_t ib, TileHandle V, TileHandle Tf, TileHandle C, int prio = 0);
/// QR of [R; B], R the upper triangle of A's leading n×n block, B m×n (n = columns of B): R updated,
/// B overwritten by the reflectors, T (ib×n) written (RW A, RW B, W T; CPU and OpenCL).
template <class T>
void tpqrt(int64_t ib, TileHandle A, TileHandle B, TileHandle Tf, int prio = 0);
/// Apply tpqrt's Q with V (m×k, k = columns of V): Left: [A1; A2] = op(Q)·[A1; A2] on A1's leading k
/// rows, A2 m×n; Right: [A1 A2] = [A1 A2]·op(Q) on A1's leading k columns, A2 with m columns
/// (R V, R T, RW A1, RW A2; CPU and OpenCL).
template <class T>
void tpmqrt(Side side, Trans trans, int64_t ib, TileHandle V, TileHandle Tf, TileHandle A1, TileHandle A2,
            int prio = 0);

/// QR of a whole column of tiles, top to bottom (QRForm::ColumnPanel; LAPACK xGEQRF's panel): R in
/// the upper trapezoid, the Householder vectors V below the diagonal (unit diagonal not stored), Tt
/// (the column's width squared) the upper triangular T of all min(rows, width) reflectors (zeros
/// elsewhere), Q = I − V·Tt·Vᴴ (RW every tile, W Tt; CPU and OpenCL, a variable number of buffers).
template <class T>
void geqrf_panel(const std::vector<TileHandle>& column, TileHandle Tt, int prio = 0);
/// V = the unit lower trapezoid of A's first k columns: A's entries below the diagonal, ones on it,
/// zeros above it and in columns ≥ k (R A, W V; V of A's shape; CPU and OpenCL).
template <class T>
void unit_lower(int64_t k, TileHandle A, TileHandle V, int prio = 0);

/// Tt (the column's width squared) = the upper triangular T (LAPACK xLARFT, forward, columnwise) of
/// the min(rows, width) Householder vectors stored below the diagonal of a whole column of tiles, top
/// to bottom (xGEQRF's layout: unit diagonal implied, the entries on and above it not read), with
/// scalars tau[0..min(rows, width)), zeros elsewhere: the factors geqrf_panel would have left
/// (R every tile, W Tt; CPU). tau must stay valid until the task has run.
template <class T>
void larft_panel(const std::vector<TileHandle>& column, const T* tau, TileHandle Tt, int prio = 0);
/// tau[i] = Tt(i, i) for i < k: xGEQRF's scalars from a ColumnPanel T (R Tt; CPU). tau must stay
/// valid until the task has run.
template <class T>
void t_diagonal(int64_t k, TileHandle Tt, T* tau, int prio = 0);

/// B's leading rows×cols region (or its uplo trapezoid) = A's; the rest of B is kept
/// (R A, RW B; CPU and OpenCL). Both tiles must hold at least rows×cols.
template <class T>
void lacpy_region(Uplo uplo, int64_t rows, int64_t cols, TileHandle A, TileHandle B, int prio = 0);
/// B = Aᴴ (Aᵀ for real T) (R A, W B; CPU and OpenCL). B must be A's transposed shape.
template <class T>
void conj_transpose(TileHandle A, TileHandle B, int prio = 0);
/// A's leading rows×cols region = 0, the rest kept (RW A; CPU and OpenCL); nothing when it is empty.
template <class T>
void zero_region(int64_t rows, int64_t cols, TileHandle A, int prio = 0);
/// *info = 1-based index of the first exact zero on the diagonal of A's leading k×k block, 0 if none
/// (R A; CPU). `info` must stay valid until the task has run.
template <class T>
void zero_diagonal(int64_t k, TileHandle A, int* info, int prio = 0);

}  // namespace tessera::tasks
