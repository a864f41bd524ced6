// Form the explicit Q of a QR (Chameleon's pzungqr, flat tree; or the column panels' reflectors,
// qr_column.hpp).
//
// Q·I[:, 0:q] is built from the identity by applying Q = Q_0·…·Q_kt−1 from the left, last step
// first. While step k is applied, the tile columns j < k of the work matrix are still columns of the
// identity, zero in the rows the step touches (tile rows ≥ k), which the step leaves unchanged: only
// tile columns ≥ k are updated.
#include "tessera/qr.hpp"

#include <algorithm>
#include <memory>

#include "algorithms/common.hpp"
#include "algorithms/qr_column.hpp"
#include "codelets/tasks_qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera {

template <class T>
void ungqr_async(const TileMatrix<T>& A, const QRFactors<T>& F, TileMatrix<T>& Q, Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime("ungqr");
    check_arg(F.matches(A), "ungqr", "F", F.m(), "must be the factors of A (geqrf(A))");
    check_arg(Q.m() == A.m(), "ungqr", "Q", Q.m(), "rows must equal the rows of A");
    check_arg(Q.n() <= A.m(), "ungqr", "Q", Q.n(), "columns must not exceed the rows of A");
    check_arg(Q.nb() == A.nb(), "ungqr", "nb", Q.nb(), "must be the same for A and Q");
    detail::set_identity(Q);
    const int64_t mt = A.mt(), kt = std::min(A.mt(), A.nt()), qnt = Q.nt(), ib = F.ib();
    for (int64_t k = kt - 1; k >= 0; --k) {
        const int prio = int(k + 1);
        if (F.form() == QRForm::ColumnPanel) {  // Q_k·W, Q_k = I − V_k·T_k·V_kᴴ
            detail::ColumnReflectors<T> q(A, F, k, prio + 1);
            // Column k is still the identity's: V_kᴴ·Q(k:, k) reads tile row k only.
            for (int64_t j = k; j < qnt; ++j) q.left(Trans::NoTrans, Q, j, prio, j == k ? k + 1 : -1);
            continue;
        }
        // Q_k·W = G_k·(P_k,k+1·(…·(P_k,mt−1·W))).
        for (int64_t i = mt - 1; i > k; --i)
            for (int64_t j = k; j < qnt; ++j)
                tasks::tpmqrt<T>(Side::Left, Trans::NoTrans, ib, A.handle(i, k), F.handle(i, k), Q.handle(k, j),
                                 Q.handle(i, j), prio);
        for (int64_t j = k; j < qnt; ++j)
            tasks::gemqrt<T>(Side::Left, Trans::NoTrans, ib, A.handle(k, k), F.handle(k, k), Q.handle(k, j), prio + 1);
    }
}

template <class T>
void ungqr(const TileMatrix<T>& A, const QRFactors<T>& F, TileMatrix<T>& Q) {
    Sequence seq;
    ungqr_async(A, F, Q, seq);
    seq.wait();
}

#define TESSERA_INSTANTIATE(T)                                                                        \
    template void ungqr_async(const TileMatrix<T>&, const QRFactors<T>&, TileMatrix<T>&, Sequence&); \
    template void ungqr(const TileMatrix<T>&, const QRFactors<T>&, TileMatrix<T>&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
