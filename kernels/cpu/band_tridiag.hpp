// Stage 2 of the two-stage Hermitian eigensolver on the host (no StarPU): hb2st reduces a Hermitian
// (real symmetric for s, d) band matrix B to a real symmetric tridiagonal matrix by bulge chasing,
// B = Q2·Tri·Q2ᴴ, and keeps Q2 as BandReflectors, which applies it to a block of vectors with
// block reflectors (T by xLARFT; I − V·T·Vᴴ applied as xLARFB's product, by gemm, trmm, gemm), so
// that the eigenvectors of B are Q2·Ztri for the eigenvectors Ztri of Tri (xSTEDC).
//
// The bulge chasing is LAPACK 3.7's: the kernels xSB2ST_KERNELS / xHB2ST_KERNELS of xSYTRD_SB2ST /
// xHETRD_HB2ST (linked from the LAPACK in OpenBLAS), called in xSYTRD_SB2ST's sequential order; the
// algorithm is Haidar, Ltaief, Dongarra, "Parallel reduction to condensed forms for symmetric
// eigenvalue problems using aggregated fine-grained and memory-aware kernels", SC11. LAPACK keeps the
// reflectors of the last two sweeps only; hb2st keeps every one.
//
// Reflectors. Sweep s (0-based, s = 0 … n−2) chases one column: its step j (j = 0, 1, …) makes
// the reflector H(s, j) = I − τ·v·vᴴ (v(0) = 1, xLARFG's convention) on rows r = s+1+j·kd …
// min(r+kd, n)−1; every H(s, j) with r ≤ n−1 exists (length 1 at the last row: τ = 0 for real T, a
// unit-modulus phase 1−τ for complex T). Two reflectors of different sweeps that share rows are made
// lower sweep first, and reflectors of one sweep have disjoint rows, so with the sweeps cut into
// groups of g consecutive ones, Q2 = ∏_{groups ascending} ∏_{j descending} G(s0, j), where
// G(s0, j) = H(s0, j)·H(s0+1, j)·…·H(s0+g−1, j) is a block reflector I − V·T·Vᴴ on the kd+g−1 rows
// from s0+1+j·kd, V a parallelogram (column t on rows t … t+kd−1 of the window). apply_left applies
// the blocks in reverse: groups descending, j ascending.
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/types.hpp"

namespace tessera::cpu {

template <class T>
class BandReflectors;

/// Reduce the n×n Hermitian band matrix B to the real symmetric tridiagonal Tri = Q2ᴴ·B·Q2.
///
/// ab: B's lower band, ab[(i − j) + j·ldab] = B(i, j) for j ≤ i ≤ min(n−1, j+kd), ldab ≥ kd+1; only
///     read (the imaginary parts of the diagonal are ignored). kd ≥ n−1 is clamped to n−1.
/// d:  Tri's diagonal (n); e: its subdiagonal (n−1), real also for complex T.
/// q2: nullptr for values only (LAPACK's xSYTRD_SB2ST work and workspace: (2·kd+1)·n + 4·n + kd
///     elements); else replaced by Q2, with B = Q2·Tri·Q2ᴴ exactly (up to rounding). For complex T
///     with kd = 1, e_i = |B(i+1, i)| and Q2 is the diagonal unitary of the phases (xHETRD_HB2ST
///     computes the same E but discards the phases); for kd ≥ 2 the kernels' reflectors already give
///     a real e (xLARFG's β is real; each sweep's last reflector, of length 1 at row n−1, is a pure
///     phase 1 − τ) and all of them are in Q2. Q2 holds about n²/2 + n²·g/(2·kd) elements (the
///     reflectors, the T factors); hb2st needs (2·kd+1)·n + n²/kd more while it runs.
/// group: the g of the blocked application (consecutive sweeps per block reflector); 0 picks
///     default_group(kd). Any g ≥ 1 is valid.
///
/// Returns 0, or −1 (n < 0), −2 (kd < 0), −4 (ldab < kd+1), −8 (group < 0); d, e and q2 are then
/// untouched. Throws tessera::Error when n is beyond LAPACK's 32-bit indices (n > 2³¹/4) or memory
/// runs out (q2 is then left empty, of order 0).
/// The values (d, e) do not depend on q2 or group: the same kernels run on the same data.
template <class T>
int hb2st(int64_t n, int64_t kd, const T* ab, int64_t ldab, real_t<T>* d, real_t<T>* e, BandReflectors<T>* q2,
          int64_t group = 0);

/// The g hb2st uses for bandwidth kd when asked for 0 (see band_tridiag.cpp for the measurements).
int64_t default_group(int64_t kd);

/// Q2 of hb2st: every reflector of the bulge chasing, grouped for blocked application. Made by
/// hb2st; a default-constructed one is the identity of order 0. Immutable after hb2st, so concurrent
/// apply_left calls on disjoint blocks are safe.
template <class T>
class BandReflectors {
public:
    /// Z = Q2·Z for the n × ncols column-major block z, ldz ≥ max(1, n). Thread-safe for concurrent
    /// calls on disjoint blocks (workspace is per call: about ncols·g + (kd+g)·g elements). ncols = 0
    /// does nothing. Throws tessera::Error for ncols < 0 or ldz < max(1, n).
    void apply_left(int64_t ncols, T* z, int64_t ldz) const;

    int64_t n() const { return n_; }
    /// The bandwidth the reduction used (kd clamped to n − 1).
    int64_t kd() const { return kd_; }
    /// Sweeps per block reflector (g).
    int64_t group() const { return g_; }
    /// Number of block reflectors G(s0, j) apply_left applies (those with every τ = 0 are dropped).
    int64_t blocks() const { return int64_t(blocks_.size()); }

private:
    template <class U>
    friend int hb2st(int64_t, int64_t, const U*, int64_t, real_t<U>*, real_t<U>*, BandReflectors<U>*, int64_t);

    struct Block {
        int64_t sweep;  ///< s0, the first sweep of the group
        int64_t row;    ///< first row of the window, s0 + 1 + j·kd
        int64_t m, k;   ///< window rows and reflectors (columns of V)
        int64_t t_off;  ///< T (k×k, ldt = k) at t_[t_off]
    };
    /// V of the block's column t into vw (m×k, ldv = m, zeros outside the parallelogram).
    void window(const Block& b, T* vw) const;

    int64_t n_ = 0, kd_ = 0, g_ = 1;
    std::vector<T> v_;           ///< v_[slot_[s] + r − (s+1)]: sweep s's reflectors on rows r = s+1 … n−1
    std::vector<int64_t> slot_;  ///< slot_[s], s = 0 … n−2
    std::vector<T> t_;           ///< the blocks' T factors
    std::vector<Block> blocks_;  ///< in the order apply_left applies them (groups descending, j ascending)
    std::vector<T> phase_;       ///< kd = 1, complex T: Q2 = diag(phase_)
};

}  // namespace tessera::cpu
