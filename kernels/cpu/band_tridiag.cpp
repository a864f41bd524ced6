// hb2st: Hermitian band → real symmetric tridiagonal by LAPACK 3.7's bulge-chasing kernels
// (xSB2ST_KERNELS / xHB2ST_KERNELS, called in xSYTRD_SB2ST's sequential order; Haidar, Ltaief,
// Dongarra, SC11), keeping every reflector, and Q2's blocked application. The driver loop, the
// working band and the extraction of D and E follow xSYTRD_SB2ST / xHETRD_HB2ST; the storage of the
// reflectors and their grouping are ours (band_tridiag.hpp states the ordering). Each block's T is
// xLARFT's; its product I − V·T·Vᴴ is applied by gemm, trmm, gemm on V with its zeros and unit
// diagonal explicit rather than by xLARFB, whose reference form copies the window's rows transposed
// (strided by ldz) and multiplies V's triangle by trmm: measured 2× (kd = 128) to 2.6× (kd = 32)
// slower here, still 1.4× to 1.6× with Z cut into column chunks of 256.
#include "kernels/cpu/band_tridiag.hpp"

#include <algorithm>
#include <climits>
#include <complex>
#include <cstddef>
#include <new>
#include <string>
#include <utility>

#include "kernels/cpu/blas.hpp"
#include "runtime/precisions.hpp"

// The kernels as the LAPACK in OpenBLAS exports them (gfortran ABI: every argument by reference,
// LOGICAL as a 4-byte int, a hidden length per CHARACTER argument at the end).
extern "C" {
void ssb2st_kernels_(const char* uplo, const int* wantz, const int* ttype, const int* st, const int* ed,
                     const int* sweep, const int* n, const int* nb, const int* ib, float* a, const int* lda, float* v,
                     float* tau, const int* ldvt, float* work, size_t uplo_len);
void dsb2st_kernels_(const char* uplo, const int* wantz, const int* ttype, const int* st, const int* ed,
                     const int* sweep, const int* n, const int* nb, const int* ib, double* a, const int* lda, double* v,
                     double* tau, const int* ldvt, double* work, size_t uplo_len);
void chb2st_kernels_(const char* uplo, const int* wantz, const int* ttype, const int* st, const int* ed,
                     const int* sweep, const int* n, const int* nb, const int* ib, std::complex<float>* a,
                     const int* lda, std::complex<float>* v, std::complex<float>* tau, const int* ldvt,
                     std::complex<float>* work, size_t uplo_len);
void zhb2st_kernels_(const char* uplo, const int* wantz, const int* ttype, const int* st, const int* ed,
                     const int* sweep, const int* n, const int* nb, const int* ib, std::complex<double>* a,
                     const int* lda, std::complex<double>* v, std::complex<double>* tau, const int* ldvt,
                     std::complex<double>* work, size_t uplo_len);
}

namespace tessera::cpu {
namespace {

// One kernel call, lower band; 1-based st, ed, sweep as LAPACK's. ib and ldvt are unused by the kernels.
template <class T>
void sb2st_kernel(bool wantz, int ttype, int64_t st, int64_t ed, int64_t sweep, int64_t n, int64_t kd, T* a,
                  int64_t lda, T* v, T* tau, T* work) {
    const int wz = wantz, ty = ttype, ist = int(st), ied = int(ed), isw = int(sweep), in = int(n), ikd = int(kd),
              ib = 1, ilda = int(lda), ldvt = int(kd) + 1;
    const char uplo = 'L';
    if constexpr (std::is_same_v<T, float>)
        ssb2st_kernels_(&uplo, &wz, &ty, &ist, &ied, &isw, &in, &ikd, &ib, a, &ilda, v, tau, &ldvt, work, 1);
    else if constexpr (std::is_same_v<T, double>)
        dsb2st_kernels_(&uplo, &wz, &ty, &ist, &ied, &isw, &in, &ikd, &ib, a, &ilda, v, tau, &ldvt, work, 1);
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        chb2st_kernels_(&uplo, &wz, &ty, &ist, &ied, &isw, &in, &ikd, &ib, a, &ilda, v, tau, &ldvt, work, 1);
    else
        zhb2st_kernels_(&uplo, &wz, &ty, &ist, &ied, &isw, &in, &ikd, &ib, a, &ilda, v, tau, &ldvt, work, 1);
}

// T (k×k) of H(0)…H(k−1) = I − V·T·Vᴴ (xLARFT, forward, columnwise), V m×k.
template <class T>
void larft_fc(int64_t m, int64_t k, const T* V, int64_t ldv, const T* tau, T* Tf, int64_t ldt) {
    const int im = int(m), ik = int(k), iv = int(ldv), it = int(ldt);
    if constexpr (std::is_same_v<T, float>) LAPACKE_slarft_work(LAPACK_COL_MAJOR, 'F', 'C', im, ik, V, iv, tau, Tf, it);
    else if constexpr (std::is_same_v<T, double>) LAPACKE_dlarft_work(LAPACK_COL_MAJOR, 'F', 'C', im, ik, V, iv, tau, Tf, it);
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        LAPACKE_clarft_work(LAPACK_COL_MAJOR, 'F', 'C', im, ik, V, iv, tau, Tf, it);
    else LAPACKE_zlarft_work(LAPACK_COL_MAJOR, 'F', 'C', im, ik, V, iv, tau, Tf, it);
}

// xSYTRD_SB2ST's main loop, sequential: at step i every active sweep s (first ≤ s ≤ i) runs its next
// three tasks; task id of sweep s is 1 (type 1: make H(s, 0) and apply it to the diagonal block),
// even (type 2: apply the previous reflector to the block below from the right, make the next one
// from its first column and apply it from the left), odd ≥ 3 (type 3: the new reflector on its
// diagonal block, both sides). A sweep ends when its block reaches row n − 1 (1-based). base(s)
// gives the kernel's V and TAU arrays for 1-based sweep s. Type-2 tasks at the bottom (ed = n) do
// nothing in the kernel and are skipped.
template <class T, class Base>
void chase(int64_t n, int64_t kd, T* a, int64_t lda, bool wantz, Base base, T* work) {
    int64_t first = 1;
    for (int64_t i = 1; i <= n - 1 && first <= i; ++i)
        for (int64_t m = 1; m <= 3; ++m) {
            const int64_t lo = first;
            for (int64_t s = lo; s <= i; ++s) {
                const int64_t id = 3 * (i - s) + m;
                const int ttype = id == 1 ? 1 : int(id % 2) + 2;
                const int64_t colpt = (ttype == 2 ? id / 2 : (id + 1) / 2) * kd + s;
                const int64_t st = colpt - kd + 1, ed = std::min(colpt, n);
                const bool last = ttype == 2 ? colpt >= n - 1 : st >= ed - 1 && ed == n;
                if (ttype != 2 || ed < n) {
                    const auto [v, tau] = base(s);
                    sb2st_kernel<T>(wantz, ttype, st, ed, s, n, kd, a, lda, v, tau, work);
                }
                if (last) ++first;
            }
        }
}

[[noreturn]] void throw_oom(const char* func, const char* what) {
    throw Error(std::string("tessera::cpu::") + func + ": out of memory for " + what);
}

}  // namespace

// A block costs 4·(kd+g−1)·g flops per column of Z for g reflectors worth 4·kd·g: larger g wastes
// flops on the parallelogram's zeros, smaller g makes thinner gemm. Measured (2-core Xeon, OpenBLAS
// 0.3.21, double, n = 4096, 1024 to 4096 columns), seconds of apply_left against g:
//   kd = 8: g 8/16/32/64 → 54.6/31.0/17.6/20.6 (1024 columns);  kd = 16: g 16/32/64 → 17.6/11.7/10.7
//   kd = 32: g 16/32/64 → 11.5/9.1/8.1;  kd = 64: g 32/64/128 → 6.2/5.2/5.2;  kd = 128: g 64/128/256 → 3.4/3.6/4.5
int64_t default_group(int64_t kd) { return std::clamp<int64_t>(4 * kd, 1, 64); }

template <class T>
void BandReflectors<T>::window(const Block& b, T* vw) const {
    const int64_t j_kd = b.row - b.sweep - 1;  // j·kd: the reflector's offset in its sweep's slot
    for (int64_t t = 0; t < b.k; ++t) {
        const int64_t len = std::min(kd_, b.m - t);
        const T* src = v_.data() + slot_[size_t(b.sweep + t)] + j_kd;
        std::copy(src, src + len, vw + t * b.m + t);
    }
}

template <class T>
void BandReflectors<T>::apply_left(int64_t ncols, T* z, int64_t ldz) const {
    if (ncols < 0) throw Error("tessera::cpu::BandReflectors::apply_left: argument 'ncols' = " + std::to_string(ncols) +
                               " must be >= 0");
    if (ldz < std::max<int64_t>(1, n_))
        throw Error("tessera::cpu::BandReflectors::apply_left: argument 'ldz' = " + std::to_string(ldz) +
                    " must be >= max(1, n) = " + std::to_string(std::max<int64_t>(1, n_)));
    if (ncols == 0 || n_ <= 1) return;
    if (!phase_.empty()) {  // Q2 = diag(phase): row i scaled by phase_[i]
        for (int64_t c = 0; c < ncols; ++c)
            for (int64_t i = 0; i < n_; ++i) z[i + c * ldz] *= phase_[size_t(i)];
        return;
    }
    if (blocks_.empty()) return;
    std::vector<T> vw, work;
    try {
        vw.assign(size_t((kd_ + g_ - 1) * g_), T(0));
        work.resize(size_t(ncols * g_));
    } catch (const std::bad_alloc&) {
        throw_oom("BandReflectors::apply_left", "the workspace");
    }
    int64_t m_prev = -1, k_prev = -1;
    for (const Block& b : blocks_) {
        // V's zeros outside the parallelogram depend on (m, k) only: cleared when the shape changes.
        if (b.m != m_prev || b.k != k_prev) std::fill(vw.begin(), vw.end(), T(0));
        m_prev = b.m, k_prev = b.k;
        window(b, vw.data());
        // Z(window) −= V·(T·(Vᴴ·Z(window))): xLARFB's product, as two gemm and a trmm on the explicit V.
        T* zw = z + b.row;
        gemm<T>(Trans::ConjTrans, Trans::NoTrans, b.k, ncols, b.m, T(1), vw.data(), b.m, zw, ldz, T(0), work.data(), b.k);
        trmm<T>(Side::Left, Uplo::Upper, Trans::NoTrans, Diag::NonUnit, b.k, ncols, T(1), t_.data() + b.t_off, b.k,
                work.data(), b.k);
        gemm<T>(Trans::NoTrans, Trans::NoTrans, b.m, ncols, b.k, T(-1), vw.data(), b.m, work.data(), b.k, T(1), zw, ldz);
    }
}

template <class T>
int hb2st(int64_t n, int64_t kd, const T* ab, int64_t ldab, real_t<T>* d, real_t<T>* e, BandReflectors<T>* q2,
          int64_t group) {
    using R = real_t<T>;
    if (n < 0) return -1;
    if (kd < 0) return -2;
    if (ldab < kd + 1) return -4;
    if (group < 0) return -8;
    if (n > INT_MAX / 4) throw Error("tessera::cpu::hb2st: n = " + std::to_string(n) + " exceeds LAPACK's 32-bit indices");
    kd = std::min(kd, std::max<int64_t>(n - 1, 0));
    const int64_t g = group > 0 ? group : default_group(kd);
    if (q2) {
        *q2 = BandReflectors<T>();
        q2->n_ = n, q2->kd_ = kd, q2->g_ = g;
    }
    for (int64_t i = 0; i < n; ++i) d[i] = R(std::real(ab[i * ldab]));
    if (kd == 0) {  // diagonal
        for (int64_t i = 0; i + 1 < n; ++i) e[i] = R(0);
        return 0;
    }
    if (kd == 1) {  // tridiagonal; complex: e_i = |B(i+1, i)|, B = P·Tri·Pᴴ with P = diag(p), p_{i+1} = p_i·B(i+1, i)/e_i
        if constexpr (is_complex_v<T>) {
            try {
                if (q2) q2->phase_.assign(size_t(n), T(1));
            } catch (const std::bad_alloc&) {
                *q2 = BandReflectors<T>();
                throw_oom("hb2st", "the phases");
            }
            T p(1);
            for (int64_t i = 0; i + 1 < n; ++i) {
                const T b = ab[1 + i * ldab];
                const R a = std::abs(b);
                e[i] = a;
                if (a != R(0)) p *= b / a;
                if (q2) q2->phase_[size_t(i + 1)] = p;
            }
        } else {
            for (int64_t i = 0; i + 1 < n; ++i) e[i] = ab[1 + i * ldab];
        }
        return 0;
    }

    // The working band of xSYTRD_SB2ST (lower): lda = 2kd+1, B in rows 0 … kd, zeros below for the bulges.
    const int64_t lda = 2 * kd + 1, pad = 2 * n;
    std::vector<T> a, work, vtmp, tau;
    try {
        a.assign(size_t(lda * n), T(0));
        work.resize(size_t(kd));
        if (q2) {
            // Sweep s (0-based) keeps its reflectors in slot s (rows s+1 … n−1); the kernel addresses
            // V and TAU by MOD(sweep − 1, 2)·n + row (1-based), so its base pointer is shifted per sweep.
            // pad keeps the shifted pointers inside the arrays. TAU is shared by kd consecutive
            // sweeps: sweep s's reflectors start at rows ≡ s+1 (mod kd), distinct within the kd.
            q2->slot_.resize(size_t(n - 1));
            int64_t off = pad;
            for (int64_t s = 0; s + 1 < n; ++s) q2->slot_[size_t(s)] = off, off += n - 1 - s;
            q2->v_.resize(size_t(off));
            tau.assign(size_t(pad + ((n - 2) / kd + 1) * n), T(0));
        } else {
            vtmp.resize(size_t(2 * n));  // LAPACK's own V and TAU: the last two sweeps' reflectors
            tau.resize(size_t(2 * n));
        }
    } catch (const std::bad_alloc&) {
        if (q2) *q2 = BandReflectors<T>();
        throw_oom("hb2st", "the reflectors");
    }
    for (int64_t j = 0; j < n; ++j) {  // the diagonal made real (the kernels' xHEMV/xHER2 assume it)
        std::copy(ab + j * ldab, ab + j * ldab + std::min(kd + 1, n - j), &a[size_t(j * lda)]);
        a[size_t(j * lda)] = T(std::real(a[size_t(j * lda)]));
    }

    if (q2) {
        T* const v0 = q2->v_.data();
        T* const t0 = tau.data();
        const auto& slot = q2->slot_;
        chase<T>(n, kd, a.data(), lda, true,
                 [&](int64_t s) {
                     const int64_t mod = (s - 1) % 2;
                     return std::pair<T*, T*>(v0 + slot[size_t(s - 1)] - s - mod * n,
                                              t0 + pad + ((s - 1) / kd) * n - mod * n);
                 },
                 work.data());
    } else {
        chase<T>(n, kd, a.data(), lda, false, [&](int64_t) { return std::pair<T*, T*>(vtmp.data(), tau.data()); },
                 work.data());
    }
    for (int64_t i = 0; i < n; ++i) d[i] = R(std::real(a[size_t(i * lda)]));
    for (int64_t i = 0; i + 1 < n; ++i) e[i] = R(std::real(a[size_t(1 + i * lda)]));
    if (!q2) return 0;

    // The block reflectors G(s0, j), in apply_left's order, with their T factors.
    BandReflectors<T>& q = *q2;
    std::vector<T> vw, taus(static_cast<size_t>(g));
    try {
        vw.resize(size_t((kd + g - 1) * g));
        size_t t_size = 0;  // an upper bound of the T factors' size, to allocate them once
        for (int64_t s0 = 0; s0 + 1 < n; s0 += g)
            for (int64_t row = s0 + 1; row <= n - 1; row += kd) {
                const int64_t k = std::min({g, n - 1 - s0, n - row});
                t_size += size_t(k * k);
            }
        q.t_.reserve(t_size);
        for (int64_t s0 = ((n - 2) / g) * g; s0 >= 0; s0 -= g) {
            const int64_t gc = std::min(g, n - 1 - s0);
            for (int64_t row = s0 + 1; row <= n - 1; row += kd) {
                const int64_t k = std::min(gc, n - row), m = std::min(kd + k - 1, n - row);
                bool any = false;
                for (int64_t t = 0; t < k; ++t) {
                    taus[size_t(t)] = tau[size_t(pad + ((s0 + t) / kd) * n + row + t)];
                    any = any || taus[size_t(t)] != T(0);
                }
                if (!any) continue;  // identity
                const typename BandReflectors<T>::Block b{s0, row, m, k, int64_t(q.t_.size())};
                std::fill(vw.begin(), vw.end(), T(0));
                q.window(b, vw.data());
                q.t_.resize(q.t_.size() + size_t(k * k));
                larft_fc<T>(m, k, vw.data(), m, taus.data(), q.t_.data() + b.t_off, k);
                q.blocks_.push_back(b);
            }
        }
    } catch (const std::bad_alloc&) {
        *q2 = BandReflectors<T>();
        throw_oom("hb2st", "the block reflectors");
    }
    return 0;
}

#define TESSERA_INSTANTIATE(T)                                                                                   \
    template class BandReflectors<T>;                                                                            \
    template int hb2st<T>(int64_t, int64_t, const T*, int64_t, real_t<T>*, real_t<T>*, BandReflectors<T>*, int64_t);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::cpu
