// Stage 2 of the two-stage Hermitian eigensolver on the host (no StarPU): hb2st reduces a Hermitian
// (real symmetric for s, d) band matrix B to a real symmetric tridiagonal matrix by bulge chasing,
// B = Q2·Tri·Q2ᴴ, and keeps Q2 as BandReflectors (band_reflectors.hpp), so that the eigenvectors of B are Q2·Ztri for the eigenvectors Ztri of Tri (xSTEDC).
//
// The bulge chasing is LAPACK 3.7's: the kernels xSB2ST_KERNELS / xHB2ST_KERNELS of xSYTRD_SB2ST /
// xHETRD_HB2ST (linked from the LAPACK in OpenBLAS), called in xSYTRD_SB2ST's sequential order; the
// algorithm is Haidar, Ltaief, Dongarra, "Parallel reduction to condensed forms for symmetric
// eigenvalue problems using aggregated fine-grained and memory-aware kernels", SC11. LAPACK keeps the
// reflectors of the last two sweeps only; hb2st keeps every one.
//
// Reflectors: sweep s (0-based, s = 0 … n−2) chases one column, its step j making H(s, j) on rows
// s+1+j·kd … (band_reflectors.hpp states the layout and why the grouping is valid).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/cpu/band_reflectors.hpp"
#include "tessera/types.hpp"

namespace tessera::cpu {

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

/// hb2st's reduction as separately runnable steps (one LAPACK kernel call each), for a caller that
/// runs sweeps concurrently (a task graph): sweep s (0 … sweeps()−1) has steps(s) steps, run in
/// order; step t of sweep s may run once sweep s−1 has run its step min(t + kLag, steps(s−1) − 1)
/// (LAPACK xSYTRD_SB2ST's OpenMP dependencies, SHIFT = 3); steps that satisfy this touch disjoint
/// entries. hb2st runs them all in order on the calling thread.
template <class T>
class BandTridiagChase {
public:
    static constexpr int64_t kLag = 2;
    /// The working copy of B; arguments as hb2st's, valid (n ≥ 0, kd ≥ 0, ldab ≥ kd+1, n ≤ 2³¹/4).
    /// want_q: keep every reflector for Q2. Throws tessera::Error when memory runs out.
    BandTridiagChase(int64_t n, int64_t kd, const T* ab, int64_t ldab, bool want_q);
    ~BandTridiagChase();
    BandTridiagChase(const BandTridiagChase&) = delete;
    BandTridiagChase& operator=(const BandTridiagChase&) = delete;

    int64_t n() const { return n_; }
    int64_t kd() const { return kd_; }  ///< the bandwidth, clamped to n − 1
    /// About what one step costs (one LAPACK kernel call on a kd×kd block), for the size of a task.
    double step_flops() const { return 4.0 * double(kd_) * double(kd_); }
    /// Sweeps of bulge chasing (none for kd ≤ 1: B is already tridiagonal).
    int64_t sweeps() const { return kd_ >= 2 ? n_ - 1 : 0; }
    int64_t steps(int64_t s) const { return calls_[size_t(s)]; }
    /// Steps t0 … t1−1 of sweep s (0 ≤ t0 ≤ t1 ≤ steps(s)), in order on the calling thread.
    void run(int64_t s, int64_t t0, int64_t t1);
    /// The working band and the reflectors' storage, for a device that runs every step in their place
    /// (ocl::band_chase, tasks::band_chase_device) before finish(): band() is (2·kd+1)×n with leading
    /// dimension band_ld(); reflectors() and taus() hold reflector_count() and tau_count() elements,
    /// sweep s's vector starting at row r at reflectors()[reflector_offset() + s·(n−1) − s·(s−1)/2 +
    /// r − (s+1)], its τ at taus()[reflector_offset() + (s / kd)·n + r]. Kept only when keeps_reflectors().
    T* band() { return a_.data(); }
    int64_t band_ld() const { return 2 * kd_ + 1; }
    bool keeps_reflectors() const { return want_q_ && kd_ >= 2; }
    T* reflectors() { return v_.data(); }
    T* taus() { return tau_.data(); }
    int64_t reflector_count() const { return int64_t(v_.size()); }
    int64_t tau_count() const { return int64_t(tau_.size()); }
    int64_t reflector_offset() const { return 2 * n_; }
    /// After every step: Tri's d and e, and Q2 (when wanted at construction and not null) as hb2st
    /// gives them, its T factors formed through for_each (left to a device with form_t false:
    /// BandReflectors' form_t). Throws tessera::Error when memory runs out.
    void finish(real_t<T>* d, real_t<T>* e, BandReflectors<T>* q2, int64_t group, const ParallelFor& for_each = {},
                bool form_t = true);

private:
    int64_t n_, kd_;
    bool want_q_;
    std::vector<T> a_;              ///< the working band, lda = 2kd+1
    std::vector<T> v_, tau_;        ///< the reflectors (want_q: per sweep, else LAPACK's two sweeps)
    std::vector<int64_t> slot_;     ///< want_q: sweep s's reflectors at v_[slot_[s] + r − (s+1)]
    std::vector<int64_t> calls_;    ///< steps(s)
};

}  // namespace tessera::cpu
