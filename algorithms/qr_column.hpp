// The column-panel form of QR (QRForm::ColumnPanel; LAPACK xGEQRF's blocking, as MAGMA's and
// cuSOLVER's GPU geqrf): panel k is one task on the whole tile column k (tasks::geqrf_panel), and its
// Q_k = I − V_k·T_k·V_kᴴ reaches every other tile through GEMMs only. Internal header of geqrf.cpp,
// unmqr.cpp, ungqr.cpp and the LAPACK-layout QR and LQ forms.
#pragma once

#include <cstdint>

#include "tessera/qr.hpp"

namespace tessera::detail {

/// Q_k of panel k of a ColumnPanel QR of A (F its factors), applied to tile columns or rows of a
/// matrix C tiled like A's rows. V_k is A's tile column k from tile row r = k down (r = k+1 for the
/// panels of he2hb, which start below the diagonal tile): tile (r, k)'s V as a dense copy (unit
/// diagonal, zeros above: tasks::unit_lower, made by the constructor), the tiles below as they are.
/// Each application to one tile column (row) of C is, with W an nb × C.tile_cols(o) temporary:
///   W = V_kᴴ·C(r:, o) (a chain of GEMMs down the column), W = op(T_k)·W, C(r:, o) −= V_k·W
/// (LAPACK xLARFB's products, one GEMM per tile).
template <class T>
class ColumnReflectors {
public:
    ColumnReflectors(const TileMatrix<T>& A, const QRFactors<T>& F, int64_t k, int prio)
        : ColumnReflectors(A, F.handle(k, k), k, k, prio) {}
    /// The reflectors in tile column k of A from tile row r down, with T factor `t` (a
    /// tile_cols(k)² tile, zero beyond the min(rows below r, tile_cols(k)) reflectors).
    ColumnReflectors(const TileMatrix<T>& A, TileHandle t, int64_t k, int64_t r, int prio);
    ~ColumnReflectors();
    ColumnReflectors(const ColumnReflectors&) = delete;
    ColumnReflectors& operator=(const ColumnReflectors&) = delete;

    /// C(r:, o) = op(Q_k)·C(r:, o) (tile rows r .. mt−1 of tile column o; op: NoTrans or ConjTrans).
    /// zero_from (> r): C's tiles in rows zero_from .. mt−1 of column o are zero on entry, so W's chain
    /// stops above them (ungqr's diagonal column, still the identity's); −1: none known to be zero.
    void left(Trans trans, TileMatrix<T>& C, int64_t o, int prio, int64_t zero_from = -1);
    /// C(o, r:) = C(o, r:)·op(Q_k) (tile columns r .. mt−1 of tile row o).
    void right(Trans trans, TileMatrix<T>& C, int64_t o, int prio);

    TileHandle v(int64_t m) const;  ///< V_k's tile in tile row m ≥ r
    TileHandle t() const { return t_; }  ///< T_k

private:
    const TileMatrix<T>& A_;
    const int64_t k_, r_;
    TileHandle t_ = nullptr, vkk_ = nullptr;
};

/// Submit the ColumnPanel geqrf of A into F (F.form() == ColumnPanel, F built for A): for each tile
/// column k, the panel, then Q_kᴴ on every tile column right of it; priorities along the critical
/// path (the panel, then the next column's update).
template <class T>
void geqrf_columns(TileMatrix<T>& A, QRFactors<T>& F);

/// Submit the ColumnPanel geqrf of A into F (built for A with QRForm::ColumnPanel) and xGEQRF's tau
/// (min(m, n) scalars, valid until seq is waited for) from the panels' T diagonals: lapack::geqrf's
/// work (qr_lapack.cpp), shared with lapack::gelqf on Aᴴ.
template <class T>
void geqrf_tau(TileMatrix<T>& A, QRFactors<T>& F, T* tau, Sequence& seq);

}  // namespace tessera::detail
