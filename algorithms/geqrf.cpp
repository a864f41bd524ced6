// QR factorization geqrf in the form its factors ask for: the flat-tree tile QR here (Buttari et al.
// 2009, PLASMA's pdgeqrf, Chameleon's pzgeqrf), or column panels (qr_column.cpp).
#include "tessera/qr.hpp"

#include <algorithm>

#include "algorithms/common.hpp"
#include "algorithms/diagonal_reflectors.hpp"
#include "algorithms/qr_column.hpp"
#include "codelets/handles.hpp"
#include "codelets/tasks.hpp"
#include "codelets/tasks_qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera {

template <class T>
void geqrf_async(TileMatrix<T>& A, QRFactors<T>& F, Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime("geqrf");
    check_arg(F.matches(A), "geqrf", "F", F.m(), "must be built for A (QRFactors(A, ib))");
    if (F.form() == QRForm::ColumnPanel) return detail::geqrf_columns(A, F);
    const int64_t mt = A.mt(), nt = A.nt(), kt = std::min(mt, nt), ib = F.ib();
    // Critical path: the panel of step k (geqrt, then the chain of tpqrt down the column), then the
    // updates of column k+1 (which feed the next panel), then the rest of the trailing matrix.
    auto prio = [kt](int64_t k, int64_t dist) { return int(3 * (kt - k) - std::min<int64_t>(dist, 3)); };
    for (int64_t k = 0; k < kt; ++k) {
        tasks::geqrt<T>(ib, A.handle(k, k), F.handle(k, k), prio(k, 0));
        // step k's row update with the diagonal tile's reflectors (read from a copy while the chain runs)
        detail::DiagonalReflectors<T> v(A, k, Uplo::Lower, k + 1 < mt, prio(k, 0));
        for (int64_t n = k + 1; n < nt; ++n)
            tasks::gemqrt<T>(Side::Left, Trans::ConjTrans, ib, v.handle(), F.handle(k, k), A.handle(k, n),
                             prio(k, n - k));
        for (int64_t m = k + 1; m < mt; ++m) {
            // [A(k, k); A(m, k)] = Q(m, k)·[R; 0], then its Qᴴ on tile rows k and m (PLASMA's tsqrt, tsmqr).
            tasks::tpqrt<T>(ib, A.handle(k, k), A.handle(m, k), F.handle(m, k), prio(k, 0));
            for (int64_t n = k + 1; n < nt; ++n)
                tasks::tpmqrt<T>(Side::Left, Trans::ConjTrans, ib, A.handle(m, k), F.handle(m, k), A.handle(k, n),
                                 A.handle(m, n), prio(k, n - k));
        }
    }
}

template <class T>
QRFactors<T> geqrf(TileMatrix<T>& A, const Options& opts) {
    QRFactors<T> F(A, detail::resolve_ib<T>(opts, A.nb(), "geqrf", "geqrf"), opts.qr_form);
    Sequence seq;
    geqrf_async(A, F, seq);
    seq.wait();
    return F;
}

#define TESSERA_INSTANTIATE(T)                                          \
    template void geqrf_async(TileMatrix<T>&, QRFactors<T>&, Sequence&); \
    template QRFactors<T> geqrf(TileMatrix<T>&, const Options&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
