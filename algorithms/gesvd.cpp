// gesdd / gesvd: the two-stage SVD (tessera/svd.hpp). Stage 1 is a task graph (ge2gb.hpp); the
// band is then copied to the host for the bulge chasing (kernels/cpu/band_bidiag.hpp) and xBDSDC /
// xBDSQR; the vectors come back through U2, V2 (CPU tasks) and Q1, P1 (tile GEMMs).
#include "kernels/cpu/cblas_lapacke.hpp"  // first: it sets up <cblas.h> and <lapacke.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "algorithms/common.hpp"
#include "algorithms/ge2gb.hpp"
#include "algorithms/host_tiles.hpp"
#include "algorithms/lq_lapack.hpp"
#include "codelets/tasks_eig.hpp"
#include "codelets/tasks_qr.hpp"
#include "kernels/cpu/band_bidiag.hpp"
#include "runtime/precisions.hpp"
#include "tessera/eig.hpp"
#include "tessera/norms.hpp"
#include "tessera/svd.hpp"

namespace tessera {

namespace {

enum class Bidiag { DivideAndConquer, QRIteration };  // xBDSDC (gesdd) or xBDSQR (gesvd)

// Bd = Ub·Σ·Vbᵀ for the n×n real upper bidiagonal (d, e): d becomes Σ (descending); ub and vbt (n×n,
// leading dimension n) are written when not null (both or neither for xBDSDC). Returns LAPACK's info.
template <class R>
int64_t bidiagonal_svd(Bidiag solver, int64_t n, R* d, R* e, R* ub, R* vbt) {
    const int in = int(n);
    R dummy = 0;
    int idummy = 0;
    const bool vec = ub || vbt;
    if (solver == Bidiag::DivideAndConquer) {
        if constexpr (std::is_same_v<R, float>)
            return vec ? LAPACKE_sbdsdc(LAPACK_COL_MAJOR, 'U', 'I', in, d, e, ub, in, vbt, in, &dummy, &idummy)
                       : LAPACKE_sbdsdc(LAPACK_COL_MAJOR, 'U', 'N', in, d, e, &dummy, 1, &dummy, 1, &dummy, &idummy);
        else
            return vec ? LAPACKE_dbdsdc(LAPACK_COL_MAJOR, 'U', 'I', in, d, e, ub, in, vbt, in, &dummy, &idummy)
                       : LAPACKE_dbdsdc(LAPACK_COL_MAJOR, 'U', 'N', in, d, e, &dummy, 1, &dummy, 1, &dummy, &idummy);
    }
    // xBDSQR multiplies what it is given: start from the identity.
    for (R* q : {ub, vbt})
        if (q) {
            std::fill(q, q + n * n, R(0));
            for (int64_t i = 0; i < n; ++i) q[i + i * n] = R(1);
        }
    const int ncvt = vbt ? in : 0, nru = ub ? in : 0;
    if constexpr (std::is_same_v<R, float>)
        return LAPACKE_sbdsqr(LAPACK_COL_MAJOR, 'U', in, ncvt, nru, 0, d, e, vbt ? vbt : &dummy, std::max(1, ncvt),
                              ub ? ub : &dummy, in, &dummy, 1);
    else
        return LAPACKE_dbdsqr(LAPACK_COL_MAJOR, 'U', in, ncvt, nru, 0, d, e, vbt ? vbt : &dummy, std::max(1, ncvt),
                              ub ? ub : &dummy, in, &dummy, 1);
}

// Y = Xᴴ tile by tile (Y: X's transposed shape, the same nb), waited for.
template <class T>
void conj_transpose_into(const TileMatrix<T>& X, TileMatrix<T>& Y) {
    Sequence seq;
    {
        detail::SubmitScope scope(seq);
        detail::conj_transpose_tiles(X, Y);
    }
    seq.wait();
}

// The SVD of the m×n A, m ≥ n: s (n values), L (m × c: U's first c columns, c = n or m) and V (n×n,
// V itself, not Vᴴ) when not null. A is destroyed.
template <class T>
int64_t svd_tall(TileMatrix<T>& A, std::vector<real_t<T>>& s, TileMatrix<T>* L, TileMatrix<T>* V, int64_t kd,
                 Bidiag solver, const char* func) {
    using R = real_t<T>;
    const int64_t m = A.m(), n = A.n(), nb = A.nb();
    s.assign(size_t(n), R(0));
    for (TileMatrix<T>* X : {L, V})
        if (X) X->keep_only_on_host();  // outputs: written on the host below
    if (n == 0) {
        if (L) detail::host_embed<T, real_t<T>>(nullptr, 1, 0, 0, *L);
        return 0;
    }

    // xGESDD's scaling into [SMLNUM, BIGNUM]; a NaN or an infinity is refused rather than reduced.
    const R anrm = lange(Norm::Max, A);
    if (!std::isfinite(anrm)) throw Error(std::string("tessera::") + func + ": A has a NaN or an infinite entry");
    const R smlnum = std::sqrt(std::numeric_limits<R>::min()) / std::numeric_limits<R>::epsilon(), bignum = 1 / smlnum;
    R sigma = 1;
    if (anrm > 0 && anrm < smlnum) sigma = smlnum / anrm;
    else if (anrm > bignum) sigma = bignum / anrm;
    if (sigma != 1) {
        A.keep_only_on_host();  // written on the host: no device may keep a copy
        const CallerBlasThreads host;
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < m; ++i) detail::host_at(A, i, j) *= sigma;
    }

    // Stage 1: A = Q1·B·P1ᴴ, B of bandwidth kd. P: the LQ panels' scratch, its tile columns A's tile rows.
    kd = detail::band_width(kd, nb, n, kHeevdBand);
    detail::BandPanels q1, p1;
    {
        TileMatrix<T> P(n, std::min(m, A.nt() * nb), nb);
        Sequence seq;
        {
            detail::SubmitScope scope(seq);
            detail::ge2gb(A, kd, P, L ? &q1 : nullptr, V ? &p1 : nullptr);
        }
        seq.wait();
    }
    A.acquire_host();

    // Stage 2: the bulge chasing as CPU tasks, sweeps pipelined over the workers.
    std::vector<R> e(size_t(std::max<int64_t>(n - 1, 1)));
    std::shared_ptr<cpu::BandReflectors<T>> u2, v2;
    if (L) u2 = std::make_shared<cpu::BandReflectors<T>>();
    if (V) v2 = std::make_shared<cpu::BandReflectors<T>>();
    {
        std::vector<T> ab(size_t((kd + 1) * n), T(0));  // the upper band, ldab = kd + 1
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = std::max<int64_t>(0, j - kd); i <= j; ++i)
                ab[size_t(kd + i - j + j * (kd + 1))] = detail::host_at(A, i, j);
        cpu::BandBidiagChase<T> chase(n, kd, ab.data(), kd + 1, L != nullptr, V != nullptr);
        tasks::run_chase(
            chase.sweeps(), [&](int64_t s) { return chase.steps(s); }, cpu::BandBidiagChase<T>::kLag,
            chase.step_flops(),
            [&](int64_t s, int64_t t0, int64_t t1) { chase.run(s, t0, t1); });
        const CallerBlasThreads host;  // the T factors of U2, V2 (xLARFT)
        chase.finish(s.data(), e.data(), u2.get(), v2.get(), 0);
    }

    // The bidiagonal SVD on the host (the caller's BLAS threads).
    int64_t info = 0;
    {
        const CallerBlasThreads host;
        const bool vec = L || V;
        std::vector<R> ub(vec ? size_t(n * n) : 0), vbt(vec ? size_t(n * n) : 0);
        info = bidiagonal_svd<R>(solver, n, s.data(), e.data(), vec ? ub.data() : nullptr, vec ? vbt.data() : nullptr);
        if (info == 0 && L) detail::host_embed<T>(ub.data(), n, n, n, *L);
        if (info == 0 && V) {  // V = Vbᵀ's transpose
            for (int64_t j = 0; j < n; ++j)
                for (int64_t i = 0; i < j; ++i) std::swap(vbt[size_t(i + j * n)], vbt[size_t(j + i * n)]);
            detail::host_embed<T>(vbt.data(), n, n, n, *V);
        }
    }
    if (info == 0 && (L || V)) {
        // L = Q1·U2·Ub, V = P1·V2·Vb: U2, V2 by CPU tasks per tile column, then Q1, P1 as tile GEMMs.
        Sequence seq;
        {
            detail::SubmitScope scope(seq);
            auto apply = [&](const std::shared_ptr<cpu::BandReflectors<T>>& q, TileMatrix<T>& X) {
                for (int64_t o = 0; o < X.nt() && o * nb < n; ++o) {  // columns ≥ n: zero in the first n rows
                    std::vector<TileHandle> column;
                    for (int64_t i = 0; i < X.mt(); ++i) column.push_back(X.handle(i, o));
                    tasks::apply_band_reflectors<T>(q, column, 1);
                }
            };
            if (L) {
                apply(u2, *L);
                detail::apply_band_panels<T>(q1, *L);
            }
            if (V) {
                apply(v2, *V);
                detail::apply_band_panels<T>(p1, *V);
            }
        }
        seq.wait();
    }
    if (sigma != 1)
        for (R& x : s) x /= sigma;
    return info;
}

template <class T>
int64_t svd(TileMatrix<T>& A, std::vector<real_t<T>>& s, TileMatrix<T>* U, TileMatrix<T>* VT, int64_t kd,
            Bidiag solver, const char* func) {
    const int64_t m = A.m(), n = A.n(), k = std::min(m, n), nb = A.nb();
    check_arg(kd >= 0 && (kd == 0 || nb % kd == 0), func, "kd", kd, "must be 0 or a divisor of the tile size nb");
    detail::require_runtime(func);
    if (detail::distributed())
        throw Error(std::string("tessera::") + func + ": distributed matrices are not supported (one process only)");
    if (U) {
        check_arg(U->m() == m && (U->n() == k || U->n() == m), func, "U", U->n(),
                  "must be m × min(m, n) or m × m (columns given)");
        check_arg(U->nb() == nb, func, "U", U->nb(), "must have A's tile size (nb given)");
    }
    if (VT) {
        check_arg(VT->n() == n && (VT->m() == k || VT->m() == n), func, "VT", VT->m(),
                  "must be min(m, n) × n or n × n (rows given)");
        check_arg(VT->nb() == nb, func, "VT", VT->nb(), "must have A's tile size (nb given)");
    }
    if (m >= n) {  // V, then VT = Vᴴ (n×n whether thin or full: k = n)
        std::unique_ptr<TileMatrix<T>> V;
        if (VT) V = std::make_unique<TileMatrix<T>>(n, n, nb);
        const int64_t info = svd_tall(A, s, U, V.get(), kd, solver, func);
        if (VT && info == 0) conj_transpose_into(*V, *VT);
        return info;
    }
    // m < n: Aᴴ = W·Σ·Zᴴ gives U = Z (m×m, thin or full alike) and VT = Wᴴ.
    TileMatrix<T> At(n, m, nb);
    conj_transpose_into(A, At);
    std::unique_ptr<TileMatrix<T>> W;
    if (VT) W = std::make_unique<TileMatrix<T>>(n, VT->m(), nb);
    const int64_t info = svd_tall(At, s, W.get(), U, kd, solver, func);
    if (VT && info == 0) conj_transpose_into(*W, *VT);
    return info;
}

}  // namespace

template <class T>
int64_t gesdd(TileMatrix<T>& A, std::vector<real_t<T>>& s, TileMatrix<T>* U, TileMatrix<T>* VT, int64_t kd) {
    return svd(A, s, U, VT, kd, Bidiag::DivideAndConquer, "gesdd");
}

template <class T>
int64_t gesvd(TileMatrix<T>& A, std::vector<real_t<T>>& s, TileMatrix<T>* U, TileMatrix<T>* VT, int64_t kd) {
    return svd(A, s, U, VT, kd, Bidiag::QRIteration, "gesvd");
}

template <class T>
int64_t gesvd_nb(int64_t m, int64_t n) {
    return heevd_nb<T>(std::min(m, n));
}

#define TESSERA_INSTANTIATE(T)                                                                         \
    template int64_t gesdd(TileMatrix<T>&, std::vector<real_t<T>>&, TileMatrix<T>*, TileMatrix<T>*, int64_t); \
    template int64_t gesvd(TileMatrix<T>&, std::vector<real_t<T>>&, TileMatrix<T>*, TileMatrix<T>*, int64_t); \
    template int64_t gesvd_nb<T>(int64_t, int64_t);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
