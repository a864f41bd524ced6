// hb2st: Hermitian band → real symmetric tridiagonal by LAPACK 3.7's bulge-chasing kernels
// (xSB2ST_KERNELS / xHB2ST_KERNELS, called in xSYTRD_SB2ST's sequential order; Haidar, Ltaief,
// Dongarra, SC11), keeping every reflector. The driver loop, the working band and the extraction
// of D and E follow xSYTRD_SB2ST / xHETRD_HB2ST; the storage of the reflectors is ours, their
// grouping and application BandReflectors' (band_reflectors.hpp).
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

[[noreturn]] void throw_oom(const char* what) {
    throw Error(std::string("tessera::cpu::hb2st: out of memory for ") + what);
}

}  // namespace

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
    if (q2) *q2 = BandReflectors<T>();
    for (int64_t i = 0; i < n; ++i) d[i] = R(std::real(ab[i * ldab]));
    if (q2 && (kd == 0 || (kd == 1 && !is_complex_v<T>))) *q2 = BandReflectors<T>(std::vector<T>(size_t(n), T(1)));
    if (kd == 0) {  // diagonal: Q2 = I
        for (int64_t i = 0; i + 1 < n; ++i) e[i] = R(0);
        return 0;
    }
    if (kd == 1) {  // tridiagonal; complex: e_i = |B(i+1, i)|, B = P·Tri·Pᴴ with P = diag(p), p_{i+1} = p_i·B(i+1, i)/e_i
        if constexpr (is_complex_v<T>) {
            std::vector<T> phase;
            try {
                if (q2) phase.assign(size_t(n), T(1));
            } catch (const std::bad_alloc&) {
                throw_oom("the phases");
            }
            T p(1);
            for (int64_t i = 0; i + 1 < n; ++i) {
                const T b = ab[1 + i * ldab];
                const R a = std::abs(b);
                e[i] = a;
                if (a != R(0)) p *= b / a;
                if (q2) phase[size_t(i + 1)] = p;
            }
            if (q2) *q2 = BandReflectors<T>(std::move(phase));
        } else {
            for (int64_t i = 0; i + 1 < n; ++i) e[i] = ab[1 + i * ldab];
        }
        return 0;
    }

    // The working band of xSYTRD_SB2ST (lower): lda = 2kd+1, B in rows 0 … kd, zeros below for the bulges.
    const int64_t lda = 2 * kd + 1, pad = 2 * n;
    std::vector<T> a, work, vtmp, tau, v;
    std::vector<int64_t> slot;
    try {
        a.assign(size_t(lda * n), T(0));
        work.resize(size_t(kd));
        if (q2) {
            // Sweep s (0-based) keeps its reflectors in slot s (rows s+1 … n−1); the kernel addresses
            // V and TAU by MOD(sweep − 1, 2)·n + row (1-based), so its base pointer is shifted per sweep.
            // pad keeps the shifted pointers inside the arrays. TAU is shared by kd consecutive
            // sweeps: sweep s's reflectors start at rows ≡ s+1 (mod kd), distinct within the kd.
            slot.resize(size_t(n - 1));
            int64_t off = pad;
            for (int64_t s = 0; s + 1 < n; ++s) slot[size_t(s)] = off, off += n - 1 - s;
            v.resize(size_t(off));
            tau.assign(size_t(pad + ((n - 2) / kd + 1) * n), T(0));
        } else {
            vtmp.resize(size_t(2 * n));  // LAPACK's own V and TAU: the last two sweeps' reflectors
            tau.resize(size_t(2 * n));
        }
    } catch (const std::bad_alloc&) {
        throw_oom("the reflectors");
    }
    for (int64_t j = 0; j < n; ++j) {  // the diagonal made real (the kernels' xHEMV/xHER2 assume it)
        std::copy(ab + j * ldab, ab + j * ldab + std::min(kd + 1, n - j), &a[size_t(j * lda)]);
        a[size_t(j * lda)] = T(std::real(a[size_t(j * lda)]));
    }

    if (q2) {
        T* const v0 = v.data();
        T* const t0 = tau.data();
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
    if (q2) *q2 = BandReflectors<T>(n, kd, g, std::move(v), std::move(slot), tau.data() + pad);
    return 0;
}

#define TESSERA_INSTANTIATE(T) \
    template int hb2st<T>(int64_t, int64_t, const T*, int64_t, real_t<T>*, real_t<T>*, BandReflectors<T>*, int64_t);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::cpu
