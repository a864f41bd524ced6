// LAPACK-layout LQ: xGELQF, xORMLQ/xUNMLQ and xORGLQ/xUNGLQ on column-major arrays, as the
// LAPACK-layout QR forms (qr_lapack.cpp, QRForm::ColumnPanel) on a conjugate-transposed copy:
// xGELQF's output is the conjugate transpose of xGEQRF's on Aᴴ with the same tau (xGELQ2 runs xLARFG
// on the conjugated row, a column of Aᴴ, and applies H_i from the right: H_i is the QR's H̃_i), and
// Q_LQ = H_kᴴ·…·H_1ᴴ = Q̃ᴴ (Q̃ the QR's), so op(Q_LQ) is Q̃ with the transposition flipped. The same helper serves
// lapack::gels for m < n (gels.cpp).
#include "algorithms/lq_lapack.hpp"

#include <algorithm>
#include <vector>

#include "algorithms/common.hpp"
#include "algorithms/qr_column.hpp"
#include "codelets/tasks_qr.hpp"
#include "runtime/mpi_internal.hpp"
#include "runtime/precisions.hpp"
#include "tessera/lq.hpp"

namespace tessera {
namespace detail {

namespace {
constexpr int64_t kBlock = 64;  // the host copies go by kBlock² blocks, cache-friendly both ways
}  // namespace

template <class T>
std::vector<T> conj_transposed(int64_t m, int64_t n, const T* a, int64_t lda) {
    std::vector<T> at(size_t(std::max<int64_t>(1, m * n)));
    for (int64_t j0 = 0; j0 < n; j0 += kBlock)
        for (int64_t i0 = 0; i0 < m; i0 += kBlock)
            for (int64_t j = j0; j < std::min(n, j0 + kBlock); ++j)
                for (int64_t i = i0; i < std::min(m, i0 + kBlock); ++i) at[size_t(j + i * n)] = conjugate(a[i + j * lda]);
    return at;
}

template <class T>
void store_conj_transposed(int64_t m, int64_t n, const std::vector<T>& at, T* a, int64_t lda) {
    for (int64_t j0 = 0; j0 < n; j0 += kBlock)
        for (int64_t i0 = 0; i0 < m; i0 += kBlock)
            for (int64_t j = j0; j < std::min(n, j0 + kBlock); ++j)
                for (int64_t i = i0; i < std::min(m, i0 + kBlock); ++i) a[i + j * lda] = conjugate(at[size_t(j + i * n)]);
}

template <class T>
void conj_transpose_tiles(const TileMatrix<T>& A, TileMatrix<T>& B) {
    for (int64_t j = 0; j < A.nt(); ++j)
        for (int64_t i = 0; i < A.mt(); ++i) tasks::conj_transpose<T>(A.handle(i, j), B.handle(j, i));
}

}  // namespace detail

namespace lapack {

template <class T>
int64_t gelqf(int64_t m, int64_t n, T* a, int64_t lda, T* tau, const Options& opts) {
    const char* f = "lapack::gelqf";
    detail::require_runtime(f);
    check_dims(f, m, n, 0);
    check_arg(lda >= std::max<int64_t>(1, m), f, "lda", lda, "must be >= max(1, m)");
    detail::check_tau(f, tau, std::min(m, n));
    const Options o = detail::with_tuned_nb<T>(opts, "geqrf", f, std::max(m, n));
    detail::require_one_process(f);
    if (std::min(m, n) == 0) return 0;
    auto A = detail::lapack_tiles(a, lda, m, n, o, f, "lda");
    TileMatrix<T> At(n, m, o.nb);
    QRFactors<T> F(At, 1, QRForm::ColumnPanel);
    Sequence seq;
    {
        detail::SubmitScope scope(seq);
        detail::conj_transpose_tiles(A, At);
    }
    detail::geqrf_tau(At, F, tau, seq);
    {
        detail::SubmitScope scope(seq);
        detail::conj_transpose_tiles(At, A);
    }
    seq.wait();
    detail::lapack_result(A, a, lda);
    return 0;
}

template <class T>
void unmlq(char side, char trans, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* tau, T* c,
           int64_t ldc, const Options& opts) {
    const char* f = "lapack::unmlq";
    detail::require_runtime(f);
    const Side s = side_from_char(side);
    const Trans t = trans_from_char(trans);
    check_trans<T>(f, t, true);
    check_dims(f, m, n, k);
    const bool left = s == Side::Left;
    const int64_t nq = left ? m : n;  // the order of Q
    check_arg(k <= nq, f, "k", k, left ? "must be <= m (side 'L')" : "must be <= n (side 'R')");
    check_arg(lda >= std::max<int64_t>(1, k), f, "lda", lda, "must be >= max(1, k)");
    check_arg(ldc >= std::max<int64_t>(1, m), f, "ldc", ldc, "must be >= max(1, m)");
    detail::check_tau(f, tau, k);
    if (m == 0 || n == 0 || k == 0) return;
    const std::vector<T> vt = detail::conj_transposed(k, nq, a, lda);
    unmqr(side, t == Trans::NoTrans ? 'C' : 'N', m, n, k, vt.data(), nq, tau, c, ldc, opts);
}

template <class T>
void unglq(int64_t m, int64_t n, int64_t k, T* a, int64_t lda, const T* tau, const Options& opts) {
    const char* f = "lapack::unglq";
    detail::require_runtime(f);
    check_dims(f, m, n, k);
    check_arg(m <= n, f, "m", m, "must be <= n");
    check_arg(k <= m, f, "k", k, "must be <= m");
    check_arg(lda >= std::max<int64_t>(1, m), f, "lda", lda, "must be >= max(1, m)");
    detail::check_tau(f, tau, k);
    if (m == 0) return;
    std::vector<T> at = detail::conj_transposed(m, n, a, lda);
    ungqr(n, m, k, at.data(), n, tau, opts);
    detail::store_conj_transposed(m, n, at, a, lda);
}

}  // namespace lapack

#define TESSERA_INSTANTIATE(T)                                                                                    \
    template std::vector<T> detail::conj_transposed(int64_t, int64_t, const T*, int64_t);                         \
    template void detail::store_conj_transposed(int64_t, int64_t, const std::vector<T>&, T*, int64_t);           \
    template void detail::conj_transpose_tiles(const TileMatrix<T>&, TileMatrix<T>&);                             \
    template int64_t lapack::gelqf(int64_t, int64_t, T*, int64_t, T*, const Options&);                           \
    template void lapack::unmlq(char, char, int64_t, int64_t, int64_t, const T*, int64_t, const T*, T*, int64_t,  \
                                const Options&);                                                                  \
    template void lapack::unglq(int64_t, int64_t, int64_t, T*, int64_t, const T*, const Options&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
