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

// The kernel calls of one sweep, as xSYTRD_SB2ST numbers them (1-based sweep s, call id = 1, 2, …):
// id 1 is type 1 (make H(s, 0) and apply it to the diagonal block), even ids type 2 (apply the
// previous reflector to the block below from the right, make the next one from its first column and
// apply it from the left), odd ids ≥ 3 type 3 (the new reflector on its diagonal block, both sides).
// The sweep ends with the call whose block reaches row n − 1 (1-based); type-2 calls at the bottom
// (ed = n) do nothing in the kernel and are skipped.
struct KernelCall {
    int ttype;
    int64_t st, ed;
    bool last, skip;
};
KernelCall kernel_call(int64_t n, int64_t kd, int64_t s, int64_t id) {
    const int ttype = id == 1 ? 1 : int(id % 2) + 2;
    const int64_t colpt = (ttype == 2 ? id / 2 : (id + 1) / 2) * kd + s;
    const int64_t st = colpt - kd + 1, ed = std::min(colpt, n);
    const bool last = ttype == 2 ? colpt >= n - 1 : st >= ed - 1 && ed == n;
    return {ttype, st, ed, last, ttype == 2 && ed >= n};
}

[[noreturn]] void throw_oom(const char* what) {
    throw Error(std::string("tessera::cpu::hb2st: out of memory for ") + what);
}

}  // namespace

template <class T>
BandTridiagChase<T>::BandTridiagChase(int64_t n, int64_t kd, const T* ab, int64_t ldab, bool want_q)
    : n_(n), kd_(std::min(kd, std::max<int64_t>(n - 1, 0))), want_q_(want_q) {
    // The working band of xSYTRD_SB2ST (lower): lda = 2kd+1, B in rows 0 … kd, zeros below for the bulges.
    const int64_t lda = 2 * kd_ + 1, pad = 2 * n;
    try {
        a_.assign(size_t(lda * n), T(0));
        if (kd_ >= 2 && want_q) {
            // Sweep s (0-based) keeps its reflectors in slot s (rows s+1 … n−1); the kernel addresses
            // V and TAU by MOD(sweep − 1, 2)·n + row (1-based), so its base pointer is shifted per sweep.
            // pad keeps the shifted pointers inside the arrays. TAU is shared by kd consecutive
            // sweeps: sweep s's reflectors start at rows ≡ s+1 (mod kd), distinct within the kd.
            slot_.resize(size_t(n - 1));
            int64_t off = pad;  // = pad + s·(n−1) − s·(s−1)/2 (band_tridiag.hpp, reflectors())
            for (int64_t s = 0; s + 1 < n; ++s) slot_[size_t(s)] = off, off += n - 1 - s;
            v_.resize(size_t(off));
            tau_.assign(size_t(pad + ((n - 2) / kd_ + 1) * n), T(0));
        } else if (kd_ >= 2) {
            v_.resize(size_t(2 * n));  // LAPACK's own V and TAU: the last two sweeps' reflectors
            tau_.resize(size_t(2 * n));
        }
        calls_.assign(size_t(sweeps()), 0);
    } catch (const std::bad_alloc&) {
        throw_oom("the working band and the reflectors");
    }
    for (int64_t j = 0; j < n; ++j) {  // the diagonal made real (the kernels' xHEMV/xHER2 assume it)
        std::copy(ab + j * ldab, ab + j * ldab + std::min(kd_ + 1, n - j), &a_[size_t(j * lda)]);
        a_[size_t(j * lda)] = T(std::real(a_[size_t(j * lda)]));
    }
    for (int64_t s = 0; s < sweeps(); ++s) {
        int64_t id = 1;
        while (!kernel_call(n, kd_, s + 1, id).last) ++id;
        calls_[size_t(s)] = id;
    }
}

template <class T>
BandTridiagChase<T>::~BandTridiagChase() = default;

template <class T>
void BandTridiagChase<T>::run(int64_t s, int64_t t0, int64_t t1) {
    const int64_t n = n_, kd = kd_, sweep = s + 1, mod = s % 2;
    thread_local std::vector<T> work;
    if (int64_t(work.size()) < kd) work.resize(size_t(kd));
    T* v = v_.data();
    T* tau = tau_.data();
    if (want_q_) {  // this sweep's own slot, shifted as the kernel indexes it
        const int64_t pad = 2 * n;
        v += slot_[size_t(s)] - sweep - mod * n;
        tau += pad + (s / kd) * n - mod * n;
    }
    for (int64_t id = t0 + 1; id <= t1; ++id) {
        const KernelCall k = kernel_call(n, kd, sweep, id);
        if (!k.skip) sb2st_kernel<T>(want_q_, k.ttype, k.st, k.ed, sweep, n, kd, a_.data(), 2 * kd + 1, v, tau, work.data());
    }
}

template <class T>
void BandTridiagChase<T>::finish(real_t<T>* d, real_t<T>* e, BandReflectors<T>* q2, int64_t group,
                                 const ParallelFor& for_each, bool form_t) {
    using R = real_t<T>;
    const int64_t n = n_, kd = kd_, lda = 2 * kd + 1;
    if (q2) *q2 = BandReflectors<T>();
    for (int64_t i = 0; i < n; ++i) d[i] = R(std::real(a_[size_t(i * lda)]));
    if (kd == 0 || (kd == 1 && !is_complex_v<T>)) {  // diagonal or real tridiagonal: Q2 = I
        for (int64_t i = 0; i + 1 < n; ++i) e[i] = kd == 0 ? R(0) : R(std::real(a_[size_t(1 + i * lda)]));
        if (q2) *q2 = BandReflectors<T>(std::vector<T>(size_t(n), T(1)));
        return;
    }
    if (kd == 1) {  // complex tridiagonal: e_i = |B(i+1, i)|, B = P·Tri·Pᴴ with P = diag(p), p_{i+1} = p_i·B(i+1, i)/e_i
        std::vector<T> phase;
        try {
            if (q2) phase.assign(size_t(n), T(1));
        } catch (const std::bad_alloc&) {
            throw_oom("the phases");
        }
        T p(1);
        for (int64_t i = 0; i + 1 < n; ++i) {
            const T b = a_[size_t(1 + i * lda)];
            const R a = std::abs(b);
            e[i] = a;
            if (a != R(0)) p *= b / a;
            if (q2) phase[size_t(i + 1)] = p;
        }
        if (q2) *q2 = BandReflectors<T>(std::move(phase));
        return;
    }
    for (int64_t i = 0; i + 1 < n; ++i) e[i] = R(std::real(a_[size_t(1 + i * lda)]));
    if (q2 && want_q_)
        *q2 = BandReflectors<T>(n, kd, group > 0 ? group : default_group(kd), std::move(v_), std::move(slot_),
                                tau_.data() + 2 * n, {}, for_each, form_t);
}

template <class T>
int hb2st(int64_t n, int64_t kd, const T* ab, int64_t ldab, real_t<T>* d, real_t<T>* e, BandReflectors<T>* q2,
          int64_t group) {
    if (n < 0) return -1;
    if (kd < 0) return -2;
    if (ldab < kd + 1) return -4;
    if (group < 0) return -8;
    if (n > INT_MAX / 4) throw Error("tessera::cpu::hb2st: n = " + std::to_string(n) + " exceeds LAPACK's 32-bit indices");
    if (q2) *q2 = BandReflectors<T>();
    BandTridiagChase<T> chase(n, kd, ab, ldab, q2 != nullptr);
    for (int64_t s = 0; s < chase.sweeps(); ++s) chase.run(s, 0, chase.steps(s));
    chase.finish(d, e, q2, group);
    return 0;
}

#define TESSERA_INSTANTIATE(T)         \
    template class BandTridiagChase<T>; \
    template int hb2st<T>(int64_t, int64_t, const T*, int64_t, real_t<T>*, real_t<T>*, BandReflectors<T>*, int64_t);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::cpu
