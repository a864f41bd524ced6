// BandReflectors (band_reflectors.hpp): the block reflectors of a bulge-chasing reduction and their
// application. Each block's T is xLARFT's; its product I − V·T·Vᴴ is applied by gemm, trmm, gemm on
// V with its zeros and unit diagonal explicit rather than by xLARFB, whose reference form copies the
// window's rows transposed (strided by ldz) and multiplies V's triangle by trmm: measured 2×
// (kd = 128) to 2.6× (kd = 32) slower here, still 1.4× to 1.6× with Z cut into column chunks of 256.
#include "kernels/cpu/band_reflectors.hpp"

#include <algorithm>
#include <complex>
#include <new>
#include <string>
#include <utility>

#include "kernels/cpu/blas.hpp"
#include "runtime/precisions.hpp"

namespace tessera::cpu {
namespace {

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

[[noreturn]] void throw_oom(const char* what) {
    throw Error(std::string("tessera::cpu::BandReflectors: out of memory for ") + what);
}

// body(i) for i = 0 … count−1 in chunks through for_each (64 chunks, each at least 16 items), or on
// the calling thread.
void for_chunks(int64_t count, const ParallelFor& for_each, const std::function<void(int64_t, int64_t)>& body) {
    if (!for_each || count < 32) {
        body(0, count);
        return;
    }
    const int64_t per = std::max<int64_t>(16, (count + 63) / 64), chunks = (count + per - 1) / per;
    for_each(chunks, [&](int64_t c) { body(c * per, std::min(count, (c + 1) * per)); });
}

}  // namespace

// A block costs 4·(kd+g−1)·g flops per column of Z for g reflectors worth 4·kd·g: larger g wastes
// flops on the parallelogram's zeros, smaller g makes thinner gemm. Measured (2-core Xeon, OpenBLAS
// 0.3.21, double, n = 4096, 1024 to 4096 columns, hb2st's reflectors), seconds of apply_left against g:
//   kd = 8: g 8/16/32/64 → 54.6/31.0/17.6/20.6 (1024 columns);  kd = 16: g 16/32/64 → 17.6/11.7/10.7
//   kd = 32: g 16/32/64 → 11.5/9.1/8.1;  kd = 64: g 32/64/128 → 6.2/5.2/5.2;  kd = 128: g 64/128/256 → 3.4/3.6/4.5
int64_t default_group(int64_t kd) { return std::clamp<int64_t>(4 * kd, 1, 64); }

template <class T>
BandReflectors<T>::BandReflectors(std::vector<T> phase)
    : n_(int64_t(phase.size())), kd_(1), phase_(std::move(phase)) {}

template <class T>
BandReflectors<T>::BandReflectors(int64_t n, int64_t kd, int64_t g, std::vector<T> v, std::vector<int64_t> slot,
                                  const T* tau, std::vector<T> phase, const ParallelFor& for_each, bool form_t)
    : n_(n), kd_(kd), g_(g), v_(std::move(v)), slot_(std::move(slot)), phase_(std::move(phase)) {
    try {
        make_blocks(tau, for_each, form_t);
    } catch (const std::bad_alloc&) {
        throw_oom("the block reflectors");
    }
}

template <class T>
void BandReflectors<T>::make_blocks(const T* tau, const ParallelFor& for_each, bool form_t) {
    const int64_t n = n_, kd = kd_, g = g_;
    size_t t_size = 0;
    for (int64_t s0 = ((n - 2) / g) * g; s0 >= 0; s0 -= g) {
        const int64_t gc = std::min(g, n - 1 - s0);
        for (int64_t row = s0 + 1; row <= n - 1; row += kd) {
            const int64_t k = std::min(gc, n - row), m = std::min(kd + k - 1, n - row);
            const Block b{s0, row, m, k, int64_t(t_size), int64_t(taus_.size())};
            bool any = false;
            for (int64_t t = 0; t < k; ++t) {
                taus_.push_back(tau[size_t(((s0 + t) / kd) * n + row + t)]);
                any = any || taus_.back() != T(0);
            }
            if (!any) {  // identity
                taus_.resize(size_t(b.tau_off));
                continue;
            }
            blocks_.push_back(b);
            t_size += size_t(k * k);
        }
    }
    t_size_ = int64_t(t_size);
    if (!form_t) return;
    t_.resize(t_size);
    for_chunks(int64_t(blocks_.size()), for_each, [&](int64_t b0, int64_t b1) {
        std::vector<T> vw(size_t((kd + g - 1) * g));
        for (int64_t i = b0; i < b1; ++i) {
            const Block& b = blocks_[size_t(i)];
            std::fill(vw.begin(), vw.end(), T(0));
            window(b, vw.data());
            larft_fc<T>(b.m, b.k, vw.data(), b.m, taus_.data() + b.tau_off, t_.data() + b.t_off, b.k);
        }
    });
}

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
int64_t BandReflectors<T>::window_size() const {
    int64_t total = 0;
    for (const Block& b : blocks_) total += b.m * b.k;
    return total;
}

template <class T>
std::vector<typename BandReflectors<T>::Window> BandReflectors<T>::windows(T* v, const ParallelFor& for_each) const {
    std::vector<Window> out;
    try {
        out.reserve(blocks_.size());
        int64_t total = 0;
        for (const Block& b : blocks_) {
            out.push_back({b.row, b.m, b.k, total, b.t_off, b.tau_off});
            total += b.m * b.k;
        }
    } catch (const std::bad_alloc&) {
        throw_oom("the block reflectors' windows");
    }
    for_chunks(int64_t(blocks_.size()), for_each, [&](int64_t b0, int64_t b1) {
        for (int64_t i = b0; i < b1; ++i) {
            T* vw = v + out[size_t(i)].v_off;
            std::fill(vw, vw + blocks_[size_t(i)].m * blocks_[size_t(i)].k, T(0));
            window(blocks_[size_t(i)], vw);
        }
    });
    return out;
}

template <class T>
void BandReflectors<T>::apply_left(int64_t ncols, T* z, int64_t ldz) const {
    if (ncols < 0) throw Error("tessera::cpu::BandReflectors::apply_left: argument 'ncols' = " + std::to_string(ncols) +
                               " must be >= 0");
    if (ldz < std::max<int64_t>(1, n_))
        throw Error("tessera::cpu::BandReflectors::apply_left: argument 'ldz' = " + std::to_string(ldz) +
                    " must be >= max(1, n) = " + std::to_string(std::max<int64_t>(1, n_)));
    if (ncols == 0 || n_ < 1) return;
    if (!blocks_.empty()) {
        std::vector<T> vw, work;
        try {
            vw.assign(size_t((kd_ + g_ - 1) * g_), T(0));
            work.resize(size_t(ncols * g_));
        } catch (const std::bad_alloc&) {
            throw_oom("the workspace of apply_left");
        }
        int64_t m_prev = -1, k_prev = -1;
        for (const Block& b : blocks_) {
            // V's zeros outside the parallelogram depend on (m, k) only: cleared when the shape changes.
            if (b.m != m_prev || b.k != k_prev) std::fill(vw.begin(), vw.end(), T(0));
            m_prev = b.m, k_prev = b.k;
            window(b, vw.data());
            // Z(window) −= V·(T·(Vᴴ·Z(window))): xLARFB's product, as two gemm and a trmm on the explicit V.
            T* zw = z + b.row;
            gemm<T>(Trans::ConjTrans, Trans::NoTrans, b.k, ncols, b.m, T(1), vw.data(), b.m, zw, ldz, T(0), work.data(),
                    b.k);
            trmm<T>(Side::Left, Uplo::Upper, Trans::NoTrans, Diag::NonUnit, b.k, ncols, T(1), t_.data() + b.t_off, b.k,
                    work.data(), b.k);
            gemm<T>(Trans::NoTrans, Trans::NoTrans, b.m, ncols, b.k, T(-1), vw.data(), b.m, work.data(), b.k, T(1), zw,
                    ldz);
        }
    }
    if (!phase_.empty())  // row i scaled by phase_[i]
        for (int64_t c = 0; c < ncols; ++c)
            for (int64_t i = 0; i < n_; ++i) z[i + c * ldz] *= phase_[size_t(i)];
}

#define TESSERA_INSTANTIATE(T) template class BandReflectors<T>;
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::cpu
