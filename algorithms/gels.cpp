// Least squares and minimum-norm solutions through tile QR (LAPACK xGELS semantics).
//
// m ≥ n, A = Q·R:  NoTrans: X = R⁻¹·(Qᵀ·B)[0:n];   Trans: X = Q·[R⁻ᵀ·B[0:n]; 0].
// m < n: the same two formulas on Aᵀ = Q·R (n×m) with the transposition flipped, which gives what
// LAPACK computes through the LQ factorization of A (the solution is unique).
// The triangular solves run on the leading n rows of B. When n is not a multiple of nb, B's tile row
// nt−1 may be taller than R's last tile; that tile row is solved in temporary tiles of R's height
// and copied back.
#include "tessera/qr.hpp"

#include <algorithm>
#include <vector>

#include "algorithms/common.hpp"
#include "codelets/handles.hpp"
#include "codelets/tasks.hpp"
#include "codelets/tasks_qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

/// The leading n rows of B as tiles of R's heights: B's own tiles where the heights agree,
/// temporary copies where they do not.
template <class T>
class LeadingRows {
public:
    LeadingRows(const TileMatrix<T>& A, TileMatrix<T>& B) : A_(A), B_(B), nt_(A.nt()), bnt_(B.nt()) {
        tiles_.resize(size_t(nt_ * bnt_));
        for (int64_t k = 0; k < nt_; ++k)
            for (int64_t j = 0; j < bnt_; ++j) {
                TileHandle& t = tiles_[size_t(k * bnt_ + j)];
                if (temporary(k)) {
                    t = tasks::temp_tile<T>(A.tile_cols(k), B.tile_cols(j), B.owner(k, j));
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
                tasks::lacpy_region<T>(Uplo::General, A_.tile_cols(k), B_.tile_cols(j), (*this)(k, j), B_.handle(k, j));
                tasks::release_temp_tile((*this)(k, j));
            }
        if (zero_rest)
            for (int64_t i = nt_; i < B_.mt(); ++i)
                for (int64_t j = 0; j < bnt_; ++j) tasks::scale<T>(T(0), B_.handle(i, j));
    }

private:
    bool temporary(int64_t k) const { return A_.tile_cols(k) != B_.tile_rows(k); }
    const TileMatrix<T>& A_;
    TileMatrix<T>& B_;
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
        B.generate([](int64_t, int64_t, int64_t rows, int64_t cols, T* tile, int64_t ld) {
            for (int64_t j = 0; j < cols; ++j) std::fill(tile + j * ld, tile + j * ld + rows, T(0));
        });
        return seq.wait();
    }
    if (m >= n) {
        QRFactors<T> F(A, detail::resolve_ib<T>(opts, A.nb(), "geqrf", "gels"), opts.qr_form);
        gels_async(trans, A, F, B, seq);
        return seq.wait();
    }
    TileMatrix<T> At(n, m, A.nb());
    for (int64_t i = 0; i < A.mt(); ++i)
        for (int64_t j = 0; j < A.nt(); ++j) tasks::conj_transpose<T>(A.handle(i, j), At.handle(j, i));
    QRFactors<T> F(At, detail::resolve_ib<T>(opts, At.nb(), "geqrf", "gels"), opts.qr_form);
    gels_async(trans == Trans::NoTrans ? Trans::ConjTrans : Trans::NoTrans, At, F, B, seq);
    return seq.wait();
}

namespace lapack {

template <class T>
int64_t gels(char trans, int64_t m, int64_t n, int64_t nrhs, T* a, int64_t lda, T* b, int64_t ldb,
             const Options& opts) {
    const Trans t = trans_from_char(trans);
    check_dims("lapack::gels", m, n, nrhs);
    check_arg(ldb >= std::max<int64_t>({1, m, n}), "lapack::gels", "ldb", ldb, "must be >= max(1, m, n)");
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
