// Stage 2 of the two-stage SVD on the host (no StarPU): gb2bd reduces an upper band matrix B to a
// real upper bidiagonal matrix by bulge chasing with Householder reflectors, B = U2·Bd·V2ᴴ, and
// keeps U2 and V2 as BandReflectors (band_reflectors.hpp), so that the singular vectors of B are
// U2·Ub and V2·Vb for those of Bd (xBDSDC, xBDSQR).
//
// The algorithm is the bidiagonal bulge chasing of Haidar, Ltaief, Luszczek and Dongarra, "A
// comprehensive study of task coalescing for selecting parallelism granularity in a two-stage
// bidiagonal reduction", IPDPS 2012 (PLASMA's zgbbrd kernels), run sweep after sweep. Sweep s
// (s = 0 … n−2) annihilates row s beyond the superdiagonal; its step j works on the kd columns
// c = s+1+j·kd … min(c+kd, n)−1:
//   - a right reflector (xLARFG on the conjugated row) annihilates row r's entries in those columns
//     but the first (r = s for j = 0, else the row the previous step filled, c − kd), applied to the
//     rows r+1 … below it that reach those columns (xLARF); it fills the diagonal block below its
//     diagonal;
//   - a left reflector annihilates column c below the diagonal, applied to the columns of those rows
//     up to c+2kd−1 (xLARF); it fills row c beyond the band, which the next step chases.
// The other entries of each fill are annihilated by later sweeps. The working band holds kd rows
// below the diagonal and 2kd above. U2's reflectors are the left ones, V2's the right ones; both
// follow BandReflectors' layout (sweep s, step j on rows / columns s+1+j·kd …), so they are applied
// with block reflectors as hb2st's Q2 is. Cost: about 4·kd·n² flops in xLARF (BLAS-2), on one core.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/cpu/band_reflectors.hpp"
#include "tessera/types.hpp"

namespace tessera::cpu {

/// Reduce the n×n upper band matrix B of bandwidth kd to the real upper bidiagonal Bd = U2ᴴ·B·V2.
///
/// ab: B's band in LAPACK's upper band storage, ab[(kd + i − j) + j·ldab] = B(i, j) for
///     max(0, j−kd) ≤ i ≤ j, ldab ≥ kd+1; only read. kd ≥ n−1 is clamped to n−1.
/// d:  Bd's diagonal (n); e: its superdiagonal (n−1); real also for complex T.
/// u2, v2: nullptr (not wanted), else replaced by U2 or V2, with B = U2·Bd·V2ᴴ exactly (up to
///     rounding). For complex T, U2 carries the phase of B(0, 0) as its diagonal factor.
/// group: the g of the blocked application (consecutive sweeps per block reflector); 0 picks
///     default_group(kd). Any g ≥ 1 is valid.
///
/// Returns 0, or −1 (n < 0), −2 (kd < 0), −4 (ldab < kd+1), −9 (group < 0); d, e, u2 and v2 are
/// then untouched. Throws tessera::Error when n is beyond LAPACK's 32-bit indices (n > 2³¹/4) or
/// memory runs out (u2 and v2 are then left of order 0). Workspace: the working band, (3·kd+1)·n
/// elements, and about n²/2 elements per side kept.
/// The values (d, e) do not depend on u2, v2 or group: the same reflectors are made either way.
template <class T>
int gb2bd(int64_t n, int64_t kd, const T* ab, int64_t ldab, real_t<T>* d, real_t<T>* e, BandReflectors<T>* u2,
          BandReflectors<T>* v2, int64_t group = 0);

/// gb2bd's reduction as separately runnable steps, for a caller that runs sweeps concurrently (a
/// task graph): sweep s (0 … sweeps()−1) has steps(s) steps, run in order; step t of sweep s may run
/// once sweep s−1 has run its step min(t + kLag, steps(s−1) − 1) (steps that satisfy this touch
/// disjoint entries, so they may run at the same time on different threads). gb2bd runs them all
/// in order on the calling thread.
template <class T>
class BandBidiagChase {
public:
    /// How far sweep s−1 must be ahead of sweep s (in steps).
    static constexpr int64_t kLag = 2;
    /// The working copy of B; arguments as gb2bd's, valid (n ≥ 0, 0 ≤ kd, ldab ≥ kd+1, n ≤ 2³¹/4).
    /// want_u, want_v: keep the left (U2) or right (V2) reflectors. Throws tessera::Error when memory
    /// runs out.
    BandBidiagChase(int64_t n, int64_t kd, const T* ab, int64_t ldab, bool want_u, bool want_v);
    ~BandBidiagChase();
    BandBidiagChase(const BandBidiagChase&) = delete;
    BandBidiagChase& operator=(const BandBidiagChase&) = delete;

    int64_t n() const { return n_; }
    int64_t kd() const { return kd_; }  ///< the bandwidth, clamped to n − 1
    /// About what one step costs (two xLARF on kd×2kd blocks), for the size of a task.
    double step_flops() const { return 16.0 * double(kd_) * double(kd_); }
    int64_t sweeps() const { return kd_ > 0 ? n_ - 1 : 0; }
    /// Steps of sweep s: one per column block s+1+t·kd ≤ n−1, the last two blocks of one column
    /// excepted (nothing left to chase there).
    int64_t steps(int64_t s) const;
    /// Steps t0 … t1−1 of sweep s (0 ≤ t0 ≤ t1 ≤ steps(s)), in order on the calling thread.
    void run(int64_t s, int64_t t0, int64_t t1);
    /// After every step: Bd's d and e, and U2, V2 (when wanted at construction and not null) as
    /// gb2bd gives them. Throws tessera::Error when memory runs out.
    void finish(real_t<T>* d, real_t<T>* e, BandReflectors<T>* u2, BandReflectors<T>* v2, int64_t group);

private:
    struct Kept;
    T* at(int64_t i, int64_t j) { return w_.data() + (2 * kd_ + i - j) + j * (3 * kd_ + 1); }
    int64_t n_, kd_;
    T p0_;                ///< B(0, 0)'s phase (complex), moved into U2
    std::vector<T> w_;    ///< the working band: W(i, j) at w_[2kd + i − j + j·(3kd+1)]
    std::unique_ptr<Kept> left_, right_;
};

}  // namespace tessera::cpu
