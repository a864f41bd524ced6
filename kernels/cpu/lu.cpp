// CPU tile kernels of the LU family: getrf, getrf_nopiv, laswp on a column of tiles, and the
// incremental-pivoting kernels gessm, tstrf, ssssm (written from Buttari et al. 2009, section 4).
#include "kernels/cpu/lu.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "kernels/cpu/blas.hpp"
#include "runtime/precisions.hpp"

namespace tessera::cpu {
namespace {

template <class T>
void swap_rows(int64_t n, T* x, int64_t incx, T* y, int64_t incy) {
    if constexpr (std::is_same_v<T, float>) cblas_sswap(int(n), x, int(incx), y, int(incy));
    else if constexpr (std::is_same_v<T, double>) cblas_dswap(int(n), x, int(incx), y, int(incy));
    else if constexpr (std::is_same_v<T, std::complex<float>>) cblas_cswap(int(n), x, int(incx), y, int(incy));
    else cblas_zswap(int(n), x, int(incx), y, int(incy));
}

template <class T>
void ger(int64_t m, int64_t n, T alpha, const T* x, const T* y, int64_t incy, T* A, int64_t lda) {
    if constexpr (std::is_same_v<T, float>) cblas_sger(CblasColMajor, int(m), int(n), alpha, x, 1, y, int(incy), A, int(lda));
    else if constexpr (std::is_same_v<T, double>) cblas_dger(CblasColMajor, int(m), int(n), alpha, x, 1, y, int(incy), A, int(lda));
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        cblas_cgeru(CblasColMajor, int(m), int(n), &alpha, x, 1, y, int(incy), A, int(lda));
    else cblas_zgeru(CblasColMajor, int(m), int(n), &alpha, x, 1, y, int(incy), A, int(lda));
}

// One column block of ssssm: interchanges of block ii..ii+sb, then A1_b = L1_b⁻¹·A1_b and A2 −= L2_b·A1_b.
template <class T>
void ssssm_block(int64_t ii, int64_t sb, int64_t n, int64_t m2, T* A1, int64_t lda1, T* A2, int64_t lda2, const T* L1,
                 int64_t ldl1, const T* L2, int64_t ldl2, const int* ipiv) {
    if (n == 0) return;
    for (int64_t t = 0; t < sb; ++t) {
        const int64_t r = ii + t, v = ipiv[r];
        if (v < 0) swap_rows<T>(n, A1 + r, lda1, A2 + (-v - 1), lda2);
        else if (v - 1 != r) swap_rows<T>(n, A1 + r, lda1, A1 + (v - 1), lda1);
    }
    trsm<T>(Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, sb, n, T(1), L1 + ii * ldl1, ldl1, A1 + ii, lda1);
    if (m2 > 0) gemm<T>(Trans::NoTrans, Trans::NoTrans, m2, n, sb, T(-1), L2 + ii * ldl2, ldl2, A1 + ii, lda1, T(1), A2, lda2);
}

}  // namespace

template <class T>
int getrf(int64_t m, int64_t n, T* A, int64_t lda, int* ipiv) {
    if (m == 0 || n == 0) return 0;
    if constexpr (std::is_same_v<T, float>) return LAPACKE_sgetrf_work(LAPACK_COL_MAJOR, int(m), int(n), A, int(lda), ipiv);
    else if constexpr (std::is_same_v<T, double>) return LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, int(m), int(n), A, int(lda), ipiv);
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        return LAPACKE_cgetrf_work(LAPACK_COL_MAJOR, int(m), int(n), A, int(lda), ipiv);
    else return LAPACKE_zgetrf_work(LAPACK_COL_MAJOR, int(m), int(n), A, int(lda), ipiv);
}

template <class T>
int getrf_nopiv(int64_t m, int64_t n, T* A, int64_t lda) {
    constexpr int64_t bs = 32;
    const int64_t kmin = std::min(m, n);
    int info = 0;
    for (int64_t jj = 0; jj < kmin; jj += bs) {
        const int64_t sb = std::min(bs, kmin - jj);
        for (int64_t j = jj; j < jj + sb; ++j) {  // unblocked LU of the block column A(jj:m, jj:jj+sb)
            const T piv = A[j + j * lda];
            T* col = A + (j + 1) + j * lda;
            if (piv == T(0)) {
                if (info == 0) info = int(j + 1);
            } else if (std::abs(piv) >= std::numeric_limits<real_t<T>>::min()) {
                const T r = T(1) / piv;
                for (int64_t i = 0; i < m - j - 1; ++i) col[i] *= r;
            } else {
                for (int64_t i = 0; i < m - j - 1; ++i) col[i] /= piv;
            }
            if (j + 1 < jj + sb && j + 1 < m)
                ger<T>(m - j - 1, jj + sb - j - 1, T(-1), col, A + j + (j + 1) * lda, lda, A + (j + 1) + (j + 1) * lda, lda);
        }
        if (jj + sb < n) {
            T* top = A + jj + (jj + sb) * lda;
            trsm<T>(Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, sb, n - jj - sb, T(1), A + jj + jj * lda, lda, top, lda);
            if (jj + sb < m)
                gemm<T>(Trans::NoTrans, Trans::NoTrans, m - jj - sb, n - jj - sb, sb, T(-1), A + (jj + sb) + jj * lda, lda,
                        top, lda, T(1), A + (jj + sb) + (jj + sb) * lda, lda);
        }
    }
    return info;
}

template <class T>
void laswp_tiles(int64_t ncols, int64_t ntiles, T* const* tiles, const int64_t* rows, const int64_t* ld, int64_t row0,
                 const int64_t* ipiv, int64_t k1, int64_t k2, bool forward) {
    if (ncols == 0 || k2 <= k1 || ntiles == 0) return;
    // (tile, local row) of each relative row: all tiles but the last have rows[0] rows.
    const int64_t nb = rows[0];
    auto locate = [&](int64_t r) {
        const int64_t t = std::min(r / nb, ntiles - 1);
        return std::pair<int64_t, int64_t>(t, r - t * nb);
    };
    struct Swap { T* a; T* b; int64_t lda, ldb; };
    std::vector<Swap> swaps;
    swaps.reserve(size_t(k2 - k1));
    for (int64_t s = 0; s < k2 - k1; ++s) {
        const int64_t i = forward ? k1 + s : k2 - 1 - s;
        const int64_t r = i - row0, p = ipiv[i] - 1 - row0;
        if (p == r) continue;
        auto [tr, lr] = locate(r);
        auto [tp, lp] = locate(p);
        swaps.push_back({tiles[tr] + lr, tiles[tp] + lp, ld[tr], ld[tp]});
    }
    // Tile storage (columns a few KiB apart): in blocks of 32 columns, interchange by interchange
    // (LAPACK xLASWP's order), each row's 32 entries a constant stride apart, which the hardware
    // prefetcher follows. Tiles of a LAPACK array in place (columns lda apart, each in pages of its
    // own): column by column, so that the interchanges of a column stay within its few pages; the
    // 32-column order missed the TLB on every entry there (getrf n = 4096: laswp 230 ms against 55).
    const bool far_columns = *std::max_element(ld, ld + ntiles) * int64_t(sizeof(T)) > 8192;
    const int64_t block = far_columns ? 1 : 32;
    for (int64_t c0 = 0; c0 < ncols; c0 += block) {
        const int64_t c1 = std::min(ncols, c0 + block);
        for (const Swap& s : swaps)
            for (int64_t c = c0; c < c1; ++c) std::swap(s.a[c * s.lda], s.b[c * s.ldb]);
    }
}

template <class T>
void gessm(int64_t m, int64_t n, int64_t kb, const int* ipiv, const T* L, int64_t ldl, T* A, int64_t lda) {
    if (m == 0 || n == 0 || kb == 0) return;
    if constexpr (std::is_same_v<T, float>) LAPACKE_slaswp_work(LAPACK_COL_MAJOR, int(n), A, int(lda), 1, int(kb), ipiv, 1);
    else if constexpr (std::is_same_v<T, double>) LAPACKE_dlaswp_work(LAPACK_COL_MAJOR, int(n), A, int(lda), 1, int(kb), ipiv, 1);
    else if constexpr (std::is_same_v<T, std::complex<float>>)
        LAPACKE_claswp_work(LAPACK_COL_MAJOR, int(n), A, int(lda), 1, int(kb), ipiv, 1);
    else LAPACKE_zlaswp_work(LAPACK_COL_MAJOR, int(n), A, int(lda), 1, int(kb), ipiv, 1);
    trsm<T>(Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, kb, n, T(1), L, ldl, A, lda);
    if (m > kb) gemm<T>(Trans::NoTrans, Trans::NoTrans, m - kb, n, kb, T(-1), L + kb, ldl, A, lda, T(1), A + kb, lda);
}

template <class T>
int tstrf(int64_t m2, int64_t kb, int64_t ib, T* U, int64_t ldu, T* A2, int64_t lda2, T* L, int64_t ldl, int* ipiv,
          T* work) {
    int info = 0;
    std::vector<int> piv(static_cast<size_t>(ib));
    for (int64_t ii = 0; ii < kb; ii += ib) {
        const int64_t sb = std::min(ib, kb - ii), ldw = sb + m2;
        // W = [upper triangle of U(ii:ii+sb, ii:ii+sb); A2(:, ii:ii+sb)]
        for (int64_t t = 0; t < sb; ++t) {
            T* w = work + t * ldw;
            const T* u = U + ii + (ii + t) * ldu;
            for (int64_t r = 0; r < sb; ++r) w[r] = r <= t ? u[r] : T(0);
            std::copy(A2 + (ii + t) * lda2, A2 + (ii + t) * lda2 + m2, w + sb);
        }
        const int iinfo = getrf<T>(ldw, sb, work, ldw, piv.data());
        if (iinfo > 0 && info == 0) info = int(ii + iinfo);
        for (int64_t t = 0; t < sb; ++t) {
            const T* w = work + t * ldw;
            T* u = U + ii + (ii + t) * ldu;
            T* l = L + (ii + t) * ldl;
            for (int64_t r = 0; r < sb; ++r) {
                if (r <= t) u[r] = w[r];
                l[r] = r < t ? T(0) : r == t ? T(1) : w[r];
            }
            std::copy(w + sb, w + sb + m2, A2 + (ii + t) * lda2);
            const int64_t p = piv[size_t(t)] - 1;
            ipiv[ii + t] = p < sb ? int(ii + p + 1) : -int(p - sb + 1);
        }
        if (ii + sb < kb)
            ssssm_block<T>(ii, sb, kb - ii - sb, m2, U + (ii + sb) * ldu, ldu, A2 + (ii + sb) * lda2, lda2, L, ldl, A2,
                           lda2, ipiv);
    }
    return info;
}

template <class T>
void ssssm(int64_t n, int64_t m2, int64_t kb, int64_t ib, T* A1, int64_t lda1, T* A2, int64_t lda2, const T* L1,
           int64_t ldl1, const T* L2, int64_t ldl2, const int* ipiv) {
    for (int64_t ii = 0; ii < kb; ii += ib)
        ssssm_block<T>(ii, std::min(ib, kb - ii), n, m2, A1, lda1, A2, lda2, L1, ldl1, L2, ldl2, ipiv);
}

#define TESSERA_INSTANTIATE(T)                                                                                   \
    template int getrf<T>(int64_t, int64_t, T*, int64_t, int*);                                                  \
    template int getrf_nopiv<T>(int64_t, int64_t, T*, int64_t);                                                  \
    template void laswp_tiles<T>(int64_t, int64_t, T* const*, const int64_t*, const int64_t*, int64_t,           \
                                 const int64_t*, int64_t, int64_t, bool);                                        \
    template void gessm<T>(int64_t, int64_t, int64_t, const int*, const T*, int64_t, T*, int64_t);               \
    template int tstrf<T>(int64_t, int64_t, int64_t, T*, int64_t, T*, int64_t, T*, int64_t, int*, T*);           \
    template void ssssm<T>(int64_t, int64_t, int64_t, int64_t, T*, int64_t, T*, int64_t, const T*, int64_t,      \
                           const T*, int64_t, const int*);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::cpu
