// The reflectors of a bulge-chasing reduction of a band matrix (hb2st in band_tridiag.hpp, gb2bd in
// band_bidiag.hpp), kept for the vectors and applied to a block of them with block reflectors
// (T by xLARFT; I − V·T·Vᴴ applied as xLARFB's product, by gemm, trmm, gemm). StarPU-free.
//
// Layout. Sweep s (0-based, s = 0 … n−2) has the reflectors H(s, j) = I − τ·v·vᴴ (j = 0, 1, …;
// v(0) = 1, xLARFG's convention) on rows r = s+1+j·kd … min(r+kd, n)−1, one for every r ≤ n−1
// (τ = 0 where a reduction made none). Q = diag(phase)·∏_s ∏_j H(s, j), the product in creation
// order: two reflectors of different sweeps that share rows are made lower sweep first, and
// reflectors of one sweep have disjoint rows, so with the sweeps cut into groups of g consecutive
// ones, ∏_s ∏_j H(s, j) = ∏_{groups ascending} ∏_{j descending} G(s0, j), where
// G(s0, j) = H(s0, j)·H(s0+1, j)·…·H(s0+g−1, j) is a block reflector I − V·T·Vᴴ on the kd+g−1
// rows from s0+1+j·kd, V a parallelogram (column t on rows t … t+kd−1 of the window). apply_left
// applies the blocks in reverse (groups descending, j ascending), then the phases.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "tessera/types.hpp"

namespace tessera::cpu {

/// The g (sweeps per block reflector) for bandwidth kd when a reduction is asked for 0 (see
/// band_reflectors.cpp for the measurements).
int64_t default_group(int64_t kd);

/// How BandReflectors runs its independent per-block loops: for_each(count, body) calls body(0) …
/// body(count − 1), in any order or concurrently, and returns when all have run (a caller's CPU
/// tasks: heevd's tasks::run_host_tasks). Empty: in order on the calling thread.
using ParallelFor = std::function<void(int64_t count, const std::function<void(int64_t)>& body)>;

/// Q of a bulge-chasing reduction (see the top of this header); a default-constructed one is the
/// identity of order 0. Immutable once made, so concurrent apply_left calls on disjoint blocks are safe.
template <class T>
class BandReflectors {
public:
    BandReflectors() = default;
    /// Q of order n, bandwidth kd ≥ 1, from every reflector: sweep s's vectors at
    /// v[slot[s] + r − (s+1)] for rows r = s+1 … n−1 (slot has n−1 entries), τ of H(s, j) starting at
    /// row r at tau[(s / kd)·n + r] (kd consecutive sweeps share a row of n: their reflectors start
    /// at distinct rows), phase empty or n unit-modulus scalars. g ≥ 1 sweeps per block reflector.
    /// Forms every block's T (xLARFT), the blocks through for_each; with form_t false leaves them to a
    /// device, from the windows and block_taus() (ocl::larft_blocks): then only windows() may be used. Throws tessera::Error when memory runs out.
    BandReflectors(int64_t n, int64_t kd, int64_t g, std::vector<T> v, std::vector<int64_t> slot, const T* tau,
                   std::vector<T> phase = {}, const ParallelFor& for_each = {}, bool form_t = true);
    /// Q = diag(phase) only (a band of width 1), n = phase.size().
    explicit BandReflectors(std::vector<T> phase);

    /// Z = Q·Z for the n × ncols column-major block z, ldz ≥ max(1, n). Thread-safe for concurrent
    /// calls on disjoint blocks (workspace is per call: about ncols·g + (kd+g)·g elements). ncols = 0
    /// does nothing. Throws tessera::Error for ncols < 0 or ldz < max(1, n).
    void apply_left(int64_t ncols, T* z, int64_t ldz) const;

    /// One block reflector I − V·T·Vᴴ on rows row … row+m−1 (k reflectors), as a device applies it:
    /// V (m×k, leading dimension m, zeros outside its parallelogram) at v_off of the windows,
    /// T (k×k upper triangular, zeros below, leading dimension k) at t_off of t_factors().
    struct Window {
        int64_t row, m, k, v_off, t_off, tau_off;  ///< the block's k τs at tau_off of block_taus()
    };
    /// The scalars of the windows: Σ m·k over the blocks, about n²·(kd+g)/(2·kd).
    int64_t window_size() const;
    /// Every block reflector in the order apply_left applies them, their V windows written to v
    /// (window_size() scalars, the caller's: pinned host memory where a device reads them), through
    /// for_each; then diag(phase) when has_phase(). Throws tessera::Error when memory runs out.
    std::vector<Window> windows(T* v, const ParallelFor& for_each = {}) const;
    /// The T factors the windows' t_off index (upper triangles, zeros below); empty when made with
    /// form_t false.
    const std::vector<T>& t_factors() const { return t_; }
    /// The T factors' size in scalars (formed or not).
    int64_t t_size() const { return t_size_; }
    /// The blocks' τs, k for each block in apply_left's order.
    const std::vector<T>& block_taus() const { return taus_; }
    /// Whether Q has a diagonal factor of phases after the blocks (a complex band of width 1).
    bool has_phase() const { return !phase_.empty(); }

    int64_t n() const { return n_; }
    /// The bandwidth of the reduction (the longest reflector).
    int64_t kd() const { return kd_; }
    /// Sweeps per block reflector (g).
    int64_t group() const { return g_; }
    /// Number of block reflectors G(s0, j) apply_left applies (those with every τ = 0 are dropped).
    int64_t blocks() const { return int64_t(blocks_.size()); }

private:
    struct Block {
        int64_t sweep;  ///< s0, the first sweep of the group
        int64_t row;    ///< first row of the window, s0 + 1 + j·kd
        int64_t m, k;   ///< window rows and reflectors (columns of V)
        int64_t t_off;  ///< T (k×k, ldt = k) at t_[t_off]
        int64_t tau_off;  ///< its τs at taus_[tau_off]
    };
    /// V of the block's column t into vw (m×k, ldv = m, zeros outside the parallelogram).
    void window(const Block& b, T* vw) const;
    void make_blocks(const T* tau, const ParallelFor& for_each, bool form_t);

    int64_t n_ = 0, kd_ = 0, g_ = 1, t_size_ = 0;
    std::vector<T> v_;           ///< v_[slot_[s] + r − (s+1)]: sweep s's reflectors on rows r = s+1 … n−1
    std::vector<int64_t> slot_;  ///< slot_[s], s = 0 … n−2
    std::vector<T> t_;           ///< the blocks' T factors
    std::vector<T> taus_;        ///< the blocks' τs
    std::vector<Block> blocks_;  ///< in the order apply_left applies them (groups descending, j ascending)
    std::vector<T> phase_;       ///< empty, or Q's diagonal factor, applied after the blocks
};

}  // namespace tessera::cpu
