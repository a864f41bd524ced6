// LAPACK-layout QR: xGEQRF, xORMQR/xUNMQR and xORGQR/xUNGQR on column-major arrays, through
// QRForm::ColumnPanel, whose Householder vectors are xGEQRF's (one per column, below the diagonal).
// geqrf reads tau off the diagonals of the panels' T factors (xLARFT's T(i, i) = tau_i); unmqr and
// ungqr, given only the vectors and tau, form each panel's T again (tasks::larft_panel) and run the
// tile unmqr / ungqr. A panel is an nb-wide group of reflectors, whatever blocking made them.
#include <algorithm>

#include "algorithms/common.hpp"
#include "algorithms/qr_column.hpp"
#include "codelets/tasks_qr.hpp"
#include "runtime/precisions.hpp"
#include "tessera/qr.hpp"

namespace tessera {
namespace {

/// Submit the T factor of every tile column of F (ColumnPanel, built for V) from the Householder
/// vectors below V's diagonal and tau (one scalar per column of V). `backward`: the consumer takes
/// the panels last to first (ungqr, and unmqr's Left·Q and Right·Qᴴ), which sets the priorities.
template <class T>
void form_t(const TileMatrix<T>& V, const T* tau, QRFactors<T>& F, bool backward) {
    const int64_t kt = std::min(V.mt(), V.nt());
    for (int64_t k = 0; k < kt; ++k) {
        std::vector<TileHandle> column;
        for (int64_t i = k; i < V.mt(); ++i) column.push_back(V.handle(i, k));
        const int prio = int(backward ? k + 3 : kt - k + 2);  // ahead of the step that applies panel k
        tasks::larft_panel<T>(column, tau + k * V.nb(), F.handle(k, k), prio);
    }
}

}  // namespace

template <class T>
void detail::geqrf_tau(TileMatrix<T>& A, QRFactors<T>& F, T* tau, Sequence& seq) {
    geqrf_async(A, F, seq);
    detail::SubmitScope scope(seq);
    for (int64_t k = 0; k < std::min(A.mt(), A.nt()); ++k)
        tasks::t_diagonal<T>(std::min(A.m() - k * A.nb(), A.tile_cols(k)), F.handle(k, k), tau + k * A.nb());
}

namespace lapack {

template <class T>
int64_t geqrf(int64_t m, int64_t n, T* a, int64_t lda, T* tau, const Options& opts) {
    const char* f = "lapack::geqrf";
    check_dims(f, m, n, 0);
    check_arg(lda >= std::max<int64_t>(1, m), f, "lda", lda, "must be >= max(1, m)");
    detail::check_tau(f, tau, std::min(m, n));
    const Options o = detail::with_tuned_nb<T>(opts, "geqrf", f, std::max(m, n));
    detail::require_one_process(f);
    if (std::min(m, n) == 0) return 0;
    auto A = detail::lapack_tiles(a, lda, m, n, o, f, "lda");
    QRFactors<T> F(A, 1, QRForm::ColumnPanel);
    Sequence seq;
    detail::geqrf_tau(A, F, tau, seq);
    seq.wait();
    detail::lapack_result(A, a, lda);
    return 0;
}

template <class T>
void unmqr(char side, char trans, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* tau, T* c,
           int64_t ldc, const Options& opts) {
    const char* f = "lapack::unmqr";
    const Side s = side_from_char(side);
    const Trans t = trans_from_char(trans);
    check_trans<T>(f, t, true);
    check_dims(f, m, n, k);
    const bool left = s == Side::Left;
    const int64_t nq = left ? m : n;  // the order of Q
    check_arg(k <= nq, f, "k", k, left ? "must be <= m (side 'L')" : "must be <= n (side 'R')");
    check_arg(lda >= std::max<int64_t>(1, nq), f, "lda", lda, left ? "must be >= max(1, m)" : "must be >= max(1, n)");
    check_arg(ldc >= std::max<int64_t>(1, m), f, "ldc", ldc, "must be >= max(1, m)");
    detail::check_tau(f, tau, k);
    const Options o = detail::with_tuned_nb<T>(opts, "geqrf", f, std::max(m, n));
    detail::require_one_process(f);
    if (m == 0 || n == 0 || k == 0) return;
    auto A = detail::lapack_tiles(a, lda, nq, k, o, f, "lda");  // read only
    auto C = detail::lapack_tiles(c, ldc, m, n, o, f, "ldc");
    QRFactors<T> F(A, 1, QRForm::ColumnPanel);
    Sequence seq;
    {
        detail::SubmitScope scope(seq);
        form_t(A, tau, F, left == (t == Trans::NoTrans));
    }
    unmqr_async(s, t, A, F, C, seq);
    seq.wait();
    detail::lapack_result(C, c, ldc);
}

template <class T>
void ungqr(int64_t m, int64_t n, int64_t k, T* a, int64_t lda, const T* tau, const Options& opts) {
    const char* f = "lapack::ungqr";
    check_dims(f, m, n, k);
    check_arg(n <= m, f, "n", n, "must be <= m");
    check_arg(k <= n, f, "k", k, "must be <= n");
    check_arg(lda >= std::max<int64_t>(1, m), f, "lda", lda, "must be >= max(1, m)");
    detail::check_tau(f, tau, k);
    const Options o = detail::with_tuned_nb<T>(opts, "geqrf", f, m);
    detail::require_one_process(f);
    if (n == 0) return;
    Sequence seq;
    if (k == 0) {  // Q = the identity's first n columns
        auto Q = detail::lapack_tiles(a, lda, m, n, o, f, "lda");
        {
            detail::SubmitScope scope(seq);
            detail::set_identity(Q);
        }
        seq.wait();
        return detail::lapack_result(Q, a, lda);
    }
    // The vectors are copied out first: Q overwrites them (LAPACK works in place, panel by panel).
    TileMatrix<T> V(m, k, o.nb);
    V.fill_from_lapack(a, lda);
    seq.wait();  // the copy tasks read `a` itself, which the tasks on Q's tiles then overwrite
    auto Q = detail::lapack_output_tiles(a, lda, m, n, o, f, "lda");  // ungqr starts from the identity
    QRFactors<T> F(V, 1, QRForm::ColumnPanel);
    {
        detail::SubmitScope scope(seq);
        form_t(V, tau, F, true);
    }
    ungqr_async(V, F, Q, seq);
    seq.wait();
    detail::lapack_result(Q, a, lda);
}

}  // namespace lapack

#define TESSERA_INSTANTIATE(T)                                                                                    \
    template void detail::geqrf_tau(TileMatrix<T>&, QRFactors<T>&, T*, Sequence&);                               \
    template int64_t lapack::geqrf(int64_t, int64_t, T*, int64_t, T*, const Options&);                           \
    template void lapack::unmqr(char, char, int64_t, int64_t, int64_t, const T*, int64_t, const T*, T*, int64_t,  \
                                const Options&);                                                                  \
    template void lapack::ungqr(int64_t, int64_t, int64_t, T*, int64_t, const T*, const Options&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
