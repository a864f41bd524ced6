// Form the explicit Q of an LQ (Chameleon's pzunglq, flat tree).
//
// I[0:q, :]·Q is built from the identity by applying Q = Q_kt−1·…·Q_0 from the right, last step
// first (the conjugate transpose of ungqr.cpp's product on Aᴴ). While step k is applied, the tile
// rows i < k of the work matrix are still rows of the identity, zero in the columns the step touches
// (tile columns ≥ k), which the step leaves unchanged: only tile rows ≥ k are updated.
#include <algorithm>

#include "algorithms/common.hpp"
#include "codelets/tasks_lq.hpp"
#include "runtime/precisions.hpp"
#include "tessera/lq.hpp"

namespace tessera {

template <class T>
void unglq_async(const TileMatrix<T>& A, const LQFactors<T>& F, TileMatrix<T>& Q, Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime("unglq");
    check_arg(F.matches(A), "unglq", "F", F.m(), "must be the factors of A (gelqf(A))");
    check_arg(Q.n() == A.n(), "unglq", "Q", Q.n(), "columns must equal the columns of A");
    check_arg(Q.m() <= A.n(), "unglq", "Q", Q.m(), "rows must not exceed the columns of A");
    check_arg(Q.nb() == A.nb(), "unglq", "nb", Q.nb(), "must be the same for A and Q");
    detail::set_identity(Q);
    const int64_t nt = A.nt(), kt = std::min(A.mt(), A.nt()), qmt = Q.mt(), ib = F.ib();
    for (int64_t k = kt - 1; k >= 0; --k) {
        const int prio = int(k + 1);
        // W·Q_k = ((W·P_k,nt−1)·…·P_k,k+1)·G_k.
        for (int64_t j = nt - 1; j > k; --j)
            for (int64_t i = k; i < qmt; ++i)
                tasks::tpmlqt<T>(Side::Right, Trans::NoTrans, ib, A.handle(k, j), F.handle(k, j), Q.handle(i, k),
                                 Q.handle(i, j), prio);
        for (int64_t i = k; i < qmt; ++i)
            tasks::gemlqt<T>(Side::Right, Trans::NoTrans, ib, A.handle(k, k), F.handle(k, k), Q.handle(i, k), prio + 1);
    }
}

template <class T>
void unglq(const TileMatrix<T>& A, const LQFactors<T>& F, TileMatrix<T>& Q) {
    Sequence seq;
    unglq_async(A, F, Q, seq);
    seq.wait();
}

#define TESSERA_INSTANTIATE(T)                                                                        \
    template void unglq_async(const TileMatrix<T>&, const LQFactors<T>&, TileMatrix<T>&, Sequence&); \
    template void unglq(const TileMatrix<T>&, const LQFactors<T>&, TileMatrix<T>&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
