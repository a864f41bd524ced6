// Least squares and minimum-norm solutions through tile QR (LAPACK xGELS semantics).
//
// m ≥ n, A = Q·R:  NoTrans: X = R⁻¹·(Qᵀ·B)[0:n];   Trans: X = Q·[R⁻ᵀ·B[0:n]; 0].
// m < n, A = L·Q (tile LQ in place, gelqf.cpp):  NoTrans: X = Qᴴ·[L⁻¹·B[0:m]; 0];
// Trans: X = L⁻ᴴ·(Q·B)[0:m] (LAPACK xGELS's four cases).
// The triangular solves run on the leading min(m, n) rows of B. When that is not a multiple of nb,
// B's last tile row there may be taller than the triangle's last tile; that tile row is solved in
// temporary tiles of the triangle's height and copied back.
#include "tessera/qr.hpp"

#include <algorithm>
#include <vector>

#include "algorithms/common.hpp"
#include "algorithms/lq_lapack.hpp"
#include "codelets/handles.hpp"
#include "codelets/tasks.hpp"
#include "codelets/tasks_qr.hpp"
#include "tessera/lq.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

/// The leading min(m, n) rows of B as tiles of the triangle's heights (R's tile columns, or with
/// `lq` L's tile rows): B's own tiles where the heights agree, temporary copies where they do not.
template <class T>
class LeadingRows {
public:
    LeadingRows(const TileMatrix<T>& A, TileMatrix<T>& B, bool lq = false)
        : A_(A), B_(B), lq_(lq), nt_(lq ? A.mt() : A.nt()), bnt_(B.nt()) {
        tiles_.resize(size_t(nt_ * bnt_));
        for (int64_t k = 0; k < nt_; ++k)
            for (int64_t j = 0; j < bnt_; ++j) {
                TileHandle& t = tiles_[size_t(k * bnt_ + j)];
                if (temporary(k)) {
                    t = tasks::temp_tile<T>(height(k), B.tile_cols(j), B.owner(k, j));
                    tasks::lacpy<T>(Uplo::General, B.handle(k, j), t);
                } else {
                    t = B.handle(k, j);
                }
            }
    }
    TileHandle operator()(int64_t k, int64_t j) const { return tiles_[size_t(k * bnt_ + j)]; }
    /// Copy the temporary tiles back into B and release them. With `zero_rest`, first zero the rows of
    /// B's tiles below the leading n rows (and every tile row ≥ nt).
    void finish(bool zero_rest) {
        for (int64_t k = 0; k < nt_; ++k)
            for (int64_t j = 0; j < bnt_; ++j) {
                if (!temporary(k)) continue;
                if (zero_rest) tasks::scale<T>(T(0), B_.handle(k, j));
                tasks::lacpy_region<T>(Uplo::General, height(k), B_.tile_cols(j), (*this)(k, j), B_.handle(k, j));
                tasks::release_temp_tile((*this)(k, j));
            }
        if (zero_rest)
            for (int64_t i = nt_; i < B_.mt(); ++i)
                for (int64_t j = 0; j < bnt_; ++j) tasks::scale<T>(T(0), B_.handle(i, j));
    }

private:
    int64_t height(int64_t k) const { return lq_ ? A_.tile_rows(k) : A_.tile_cols(k); }
    bool temporary(int64_t k) const { return height(k) != B_.tile_rows(k); }
    const TileMatrix<T>& A_;
    TileMatrix<T>& B_;
    bool lq_;
    int64_t nt_, bnt_;
    std::vector<TileHandle> tiles_;
};

/// Solve op(R)·Y = Y in place, R the upper triangle of A's leading n×n block (tile trsm loop).
template <class T>
void solve_r(Trans trans, const TileMatrix<T>& A, const LeadingRows<T>& Y, int64_t bnt) {
    const int64_t nt = A.nt();
    const bool notrans = trans == Trans::NoTrans;
    for (int64_t s = 0; s < nt; ++s) {
        const int64_t k = notrans ? nt - 1 - s : s;  // R·Y: last tile row first; Rᵀ·Y: first
        const int prio = int(nt - s);
        for (int64_t j = 0; j < bnt; ++j)
            tasks::trsm<T>(Side::Left, Uplo::Upper, trans, Diag::NonUnit, T(1), A.handle(k, k), Y(k, j), prio + 1);
        for (int64_t i = notrans ? 0 : k + 1; i < (notrans ? k : nt); ++i)
            for (int64_t j = 0; j < bnt; ++j) {
                TileHandle r = notrans ? A.handle(i, k) : A.handle(k, i);
                tasks::gemm<T>(trans, Trans::NoTrans, T(-1), r, Y(k, j), T(1), Y(i, j), prio);
            }
    }
}

/// Solve op(L)·Y = Y in place, L the lower triangle of A's leading m×m block (tile trsm loop).
template <class T>
void solve_l(Trans trans, const TileMatrix<T>& A, const LeadingRows<T>& Y, int64_t bnt) {
    const int64_t mt = A.mt();
    const bool notrans = trans == Trans::NoTrans;
    for (int64_t s = 0; s < mt; ++s) {
        const int64_t k = notrans ? s : mt - 1 - s;  // L·Y: first tile row first; Lᴴ·Y: last
        const int prio = int(mt - s);
        for (int64_t j = 0; j < bnt; ++j)
            tasks::trsm<T>(Side::Left, Uplo::Lower, trans, Diag::NonUnit, T(1), A.handle(k, k), Y(k, j), prio + 1);
        for (int64_t i = notrans ? k + 1 : 0; i < (notrans ? mt : k); ++i)
            for (int64_t j = 0; j < bnt; ++j) {
                TileHandle l = notrans ? A.handle(i, k) : A.handle(k, i);
                tasks::gemm<T>(trans, Trans::NoTrans, T(-1), l, Y(k, j), T(1), Y(i, j), prio);
            }
    }
}

/// gels for m < n through the tile LQ of A in place (F built for A).
template <class T>
void gels_lq(Trans trans, TileMatrix<T>& A, LQFactors<T>& F, TileMatrix<T>& B, Sequence& seq) {
    gelqf_async(A, F, seq);
    for (int64_t k = 0; k < A.mt(); ++k)
        tasks::zero_diagonal<T>(A.tile_rows(k), A.handle(k, k), detail::info_slot(k * A.nb()));
    if (trans == Trans::NoTrans) {  // X = Qᴴ·[L⁻¹·B[0:m]; 0]
        LeadingRows<T> Y(A, B, true);
        solve_l(Trans::NoTrans, A, Y, B.nt());
        Y.finish(true);
        unmlq_async(Side::Left, Trans::ConjTrans, A, F, B, seq);
    } else {  // X = L⁻ᴴ·(Q·B)[0:m]
        unmlq_async(Side::Left, Trans::NoTrans, A, F, B, seq);
        LeadingRows<T> Y(A, B, true);
        solve_l(Trans::ConjTrans, A, Y, B.nt());
        Y.finish(false);
    }
}

}  // namespace

template <class T>
void gels_async(Trans trans, TileMatrix<T>& A, QRFactors<T>& F, TileMatrix<T>& B, Sequence& seq) {
    detail::SubmitScope scope(seq);
    detail::require_runtime("gels");
    check_arg(A.m() >= A.n(), "gels_async", "A", A.m(), "rows must be >= columns (use gels for m < n)");
    check_trans<T>("gels", trans, true);
    check_arg(B.m() == A.m(), "gels", "B", B.m(), "rows must equal max(m, n) of A");
    check_arg(B.nb() == A.nb(), "gels", "nb", B.nb(), "must be the same for A and B");
    geqrf_async(A, F, seq);
    for (int64_t k = 0; k < A.nt(); ++k)
        tasks::zero_diagonal<T>(A.tile_cols(k), A.handle(k, k), detail::info_slot(k * A.nb()));
    if (trans == Trans::NoTrans) {
        unmqr_async(Side::Left, Trans::ConjTrans, A, F, B, seq);
        LeadingRows<T> Y(A, B);
        solve_r(Trans::NoTrans, A, Y, B.nt());
        Y.finish(false);
    } else {
        LeadingRows<T> Y(A, B);
        solve_r(Trans::ConjTrans, A, Y, B.nt());
        Y.finish(true);
        unmqr_async(Side::Left, Trans::NoTrans, A, F, B, seq);
    }
}

template <class T>
int64_t gels(Trans trans, TileMatrix<T>& A, TileMatrix<T>& B, const Options& opts) {
    detail::require_runtime("gels");
    const int64_t m = A.m(), n = A.n();
    check_trans<T>("gels", trans, true);
    check_arg(B.m() == std::max(m, n), "gels", "B", B.m(), "rows must equal max(m, n) of A");
    check_arg(B.nb() == A.nb(), "gels", "nb", B.nb(), "must be the same for A and B");
    Sequence seq;
    detail::SubmitScope scope(seq);  // gels submits tasks itself (zero fill, transposition)
    if (std::min(m, n) == 0) {  // LAPACK: X = 0
        detail::set_zero(B);
        return seq.wait();
    }
    if (m >= n) {
        QRFactors<T> F(A, detail::resolve_ib<T>(opts, A.nb(), "geqrf", "gels"), opts.qr_form);
        gels_async(trans, A, F, B, seq);
        return seq.wait();
    }
    LQFactors<T> F(A, detail::resolve_ib<T>(opts, A.nb(), "geqrf", "gels"));
    gels_lq(trans, A, F, B, seq);
    return seq.wait();
}

namespace lapack {

template <class T>
int64_t gels(char trans, int64_t m, int64_t n, int64_t nrhs, T* a, int64_t lda, T* b, int64_t ldb,
             const Options& opts) {
    const Trans t = trans_from_char(trans);
    check_dims("lapack::gels", m, n, nrhs);
    check_arg(ldb >= std::max<int64_t>({1, m, n}), "lapack::gels", "ldb", ldb, "must be >= max(1, m, n)");
    if (m < n && m > 0) {  // xGELQF's layout in a: xGEQRF's of Aᴴ, conjugate-transposed
        detail::require_runtime("lapack::gels");
        check_trans<T>("lapack::gels", t, true);
        check_arg(lda >= std::max<int64_t>(1, m), "lapack::gels", "lda", lda, "must be >= max(1, m)");
        const Options o = detail::with_tuned_nb<T>(opts, "geqrf", "lapack::gels", std::max({m, n, nrhs}));
        auto A = detail::lapack_tiles(a, lda, m, n, o, "lapack::gels", "lda");
        auto B = detail::lapack_tiles(b, ldb, n, nrhs, o, "lapack::gels", "ldb");
        TileMatrix<T> At(n, m, o.nb);
        Sequence seq;
        {
            detail::SubmitScope scope(seq);
            detail::conj_transpose_tiles(A, At);
        }
        QRFactors<T> F(At, 1, QRForm::ColumnPanel);
        gels_async(t == Trans::NoTrans ? Trans::ConjTrans : Trans::NoTrans, At, F, B, seq);
        {
            detail::SubmitScope scope(seq);
            detail::conj_transpose_tiles(At, A);
        }
        const int64_t info = seq.wait();
        detail::lapack_result(A, a, lda);
        detail::lapack_result(B, b, ldb);
        return info;
    }
    const Options o = detail::with_tuned_nb<T>(opts, "geqrf", "lapack::gels", std::max({m, n, nrhs}));
    auto A = detail::lapack_tiles(a, lda, m, n, o, "lapack::gels", "lda");
    auto B = detail::lapack_tiles(b, ldb, std::max(m, n), nrhs, o, "lapack::gels", "ldb");
    Options form = opts;  // m >= n: xGEQRF's layout left in a
    if (m >= n) form.qr_form = QRForm::ColumnPanel;
    const int64_t info = tessera::gels(t, A, B, form);
    if (m >= n) detail::lapack_result(A, a, lda);
    detail::lapack_result(B, b, ldb);
    return info;
}

}  // namespace lapack

#define TESSERA_INSTANTIATE(T)                                                                 \
    template void gels_async(Trans, TileMatrix<T>&, QRFactors<T>&, TileMatrix<T>&, Sequence&); \
    template int64_t gels(Trans, TileMatrix<T>&, TileMatrix<T>&, const Options&);              \
    template int64_t lapack::gels(char, int64_t, int64_t, int64_t, T*, int64_t, T*, int64_t, const Options&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
