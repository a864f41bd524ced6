// GMRES-based iterative refinement (GMRES-IR; Carson and Higham, "Accelerating the solution of linear
// systems by iterative refinement in three precisions", SIAM J. Sci. Comput. 40(2), 2018), with the
// factorization in the low precision and everything else in the working one, as SLATE's
// gesv_mixed_gmres and posv_mixed_gmres: the refinement's correction equation A·d = r is solved by
// restarted GMRES preconditioned on the left by the low-precision factors, instead of by one solve
// with them (mixed.cpp), so that A too ill-conditioned for the classic refinement still converges.
#include "tessera/mixed.hpp"

#include <algorithm>

#include "algorithms/mixed_common.hpp"

namespace tessera {

namespace {

using namespace mixed;

constexpr int64_t kRestart = 30;               // GMRES(m)'s m (SLATE's restart)
constexpr int64_t kMaxIterations = 3 * kRestart;  // GMRES iterations in all before falling back
constexpr double kTau = 1e-4;     // GMRES's tolerance on ‖M⁻¹(r − A·d)‖₂ relative to ‖M⁻¹r‖₂: of 1e-2 … 1e-14,
                                  // the fewest iterations in all at κ = 1e9, 1e10 (dgesv, n = 300)

// The m×1 tile matrix v (waited for) in host memory.
template <class T>
std::vector<T> host_vector(const TileMatrix<T>& v) {
    std::vector<T> h(size_t(v.m()));
    v.to_lapack(h.data(), std::max<int64_t>(v.m(), 1));
    return h;
}

template <class T>
double norm2(const std::vector<T>& v) {
    double s = 0;
    for (const T& x : v) s += std::norm(x);
    return std::sqrt(s);
}

// The plane rotation G = [c s; −conj(s) c] with G·[a; b] = [r; 0] (LAPACK's xLARTG; a becomes r).
template <class T>
struct Givens {
    double c;
    T s;
    void apply(T& x, T& y) const {
        const T t = T(c) * x + s * y;
        y = -conjugate(s) * x + T(c) * y;
        x = t;
    }
    static Givens zeroing(T& a, T b) {
        const double na = std::abs(a), nb = std::abs(b);
        if (nb == 0) return {1.0, T(0)};
        if (na == 0) return a = b, Givens{0.0, T(1)};
        const double r = std::hypot(na, nb);
        const T phase = a / T(na);
        a = phase * T(r);
        return {na / r, phase * conjugate(b) / T(r)};
    }
};

// Restarted GMRES on M⁻¹·A·d = M⁻¹·r (M = LU or LLᴴ in the low precision) for one right-hand side.
// The Arnoldi basis V (n × (m+1), zero beyond its current columns) and the vectors are tile
// matrices: A·v, M⁻¹ and the block classical Gram–Schmidt with one reorthogonalization (CGS2) are
// tile tasks; the Hessenberg matrix, its Givens rotations and the small triangular solve are on the host.
template <class T>
struct Gmres {
    Uplo uplo;
    const TileMatrix<T>& A;
    LowFactor<T>& low;
    TileMatrix<low_t<T>>& Xs;  // n×1 in the low precision
    int64_t n, nb, m;
    TileMatrix<T> V{n, m + 1, nb}, w{n, 1, nb}, t{n, 1, nb}, h{m + 1, 1, nb}, h2{m + 1, 1, nb}, e{m + 1, 1, nb},
        y{m + 1, 1, nb};
    std::vector<T> eye = identity(m + 1);  // e_j, copied into e to select V's column j

    static std::vector<T> identity(int64_t k) {
        std::vector<T> a(size_t(k * k), T(0));
        for (int64_t i = 0; i < k; ++i) a[size_t(i + i * k)] = T(1);
        return a;
    }

    // dst = M⁻¹·src: rounded down (an overflow is reported in seq's info), solved with the low factors,
    // rounded up.
    void precondition_async(const TileMatrix<T>& src, TileMatrix<T>& dst, Sequence& seq) {
        low.to_low_async(src, Xs, seq);
        low.resolve_async(Xs, seq);
        convert_up_async(false, Xs, dst, seq);
    }

    // V(:, j) = alpha·w, V(:, j) being zero: V's tile column += alpha·w·e_jᵀ (a rank-1 tile gemm).
    void insert_async(int64_t j, T alpha, Sequence& seq) {
        e.fill_from_lapack(eye.data() + j * (m + 1), m + 1);
        detail::SubmitScope scope(seq);
        for (int64_t i = 0; i < V.mt(); ++i)
            tasks::gemm<T>(Trans::NoTrans, Trans::Trans, alpha, w.handle(i, 0), e.handle(j / nb, 0), T(1),
                           V.handle(i, j / nb));
    }

    // hc = Vᴴ·w, then w −= V·hc, over V's tile columns 0..jt (one Gram–Schmidt pass).
    void orthogonalize_async(TileMatrix<T>& hc, int64_t jt, Sequence& seq) {
        detail::SubmitScope scope(seq);
        for (int64_t c = 0; c <= jt; ++c)
            for (int64_t k = 0; k < V.mt(); ++k)
                tasks::gemm<T>(Trans::ConjTrans, Trans::NoTrans, T(1), V.handle(k, c), w.handle(k, 0),
                               k == 0 ? T(0) : T(1), hc.handle(c, 0));
        for (int64_t i = 0; i < V.mt(); ++i)
            for (int64_t c = 0; c <= jt; ++c)
                tasks::gemm<T>(Trans::NoTrans, Trans::NoTrans, T(-1), V.handle(i, c), hc.handle(c, 0), T(1),
                               w.handle(i, 0));
    }

    // One cycle of at most min(m, budget) iterations from d₀ = 0, then X += d. Returns the iterations
    // done, or −1 when a vector overflowed the low precision.
    int64_t cycle(const TileMatrix<T>& R, TileMatrix<T>& X, int64_t budget) {
        detail::set_zero(V);
        {
            Sequence seq;
            precondition_async(R, w, seq);
            if (seq.wait() != 0) return -1;
        }
        const double beta0 = norm2(host_vector(w));
        if (!(beta0 > 0) || !std::isfinite(beta0)) return 0;
        std::vector<T> H(size_t((m + 1) * m), T(0)), g(size_t(m + 1), T(0));
        std::vector<Givens<T>> rot;
        g[0] = T(beta0);
        double beta = beta0;
        int64_t j = 0;
        while (j < std::min(m, budget)) {
            Sequence seq;
            insert_async(j, T(1 / beta), seq);                      // v_j = w / β
            multiply_async(uplo, T(1 / beta), A, w, T(0), t, seq);  // t = A·v_j
            precondition_async(t, w, seq);                          // w = M⁻¹·A·v_j
            orthogonalize_async(h, j / nb, seq);
            orthogonalize_async(h2, j / nb, seq);
            if (seq.wait() != 0) return -1;
            const std::vector<T> h1 = host_vector(h), h12 = host_vector(h2);
            T* col = H.data() + j * (m + 1);
            for (int64_t i = 0; i <= j; ++i) col[i] = h1[size_t(i)] + h12[size_t(i)];
            beta = norm2(host_vector(w));
            col[j + 1] = T(beta);
            for (int64_t i = 0; i < j; ++i) rot[size_t(i)].apply(col[i], col[i + 1]);
            rot.push_back(Givens<T>::zeroing(col[j], col[j + 1]));
            col[j + 1] = T(0);
            rot.back().apply(g[size_t(j)], g[size_t(j + 1)]);
            ++j;
            // Stop at the tolerance, or at a breakdown (w in the basis' span: the solution is in it).
            if (std::abs(g[size_t(j)]) <= kTau * beta0 || !(beta > 0) || !std::isfinite(beta)) break;
        }
        // d = V·y with y = H⁻¹·g (H's leading j×j upper triangle after the rotations).
        std::vector<T> yh(size_t(m + 1), T(0));
        for (int64_t i = j - 1; i >= 0; --i) {
            T s = g[size_t(i)];
            for (int64_t k = i + 1; k < j; ++k) s -= H[size_t(i + k * (m + 1))] * yh[size_t(k)];
            yh[size_t(i)] = s / H[size_t(i + i * (m + 1))];
        }
        y.fill_from_lapack(yh.data(), m + 1);
        Sequence seq;
        {
            detail::SubmitScope scope(seq);
            for (int64_t i = 0; i < V.mt(); ++i)
                for (int64_t c = 0; c <= (j - 1) / nb; ++c)
                    tasks::gemm<T>(Trans::NoTrans, Trans::NoTrans, T(1), V.handle(i, c), y.handle(c, 0), T(1),
                                   X.handle(i, 0));
        }
        seq.wait();
        return j;
    }
};

// GMRES-IR with uplo General for LU. iter counts GMRES iterations (each one A·v and one low solve), as
// SLATE's, at most kMaxIterations in all (SLATE: 30; at n = 1000, κ = 1e10 took 22 to 30 depending on nb,
// so three restart cycles); without convergence iter is the classic refinement's −31.
template <class T>
int64_t refine_gmres(Uplo uplo, TileMatrix<T>& A, std::vector<int64_t>& ipiv, const TileMatrix<T>& B,
                     TileMatrix<T>& X, int64_t& iter, LowFactorization how) {
    iter = 0;
    const int64_t n = A.n(), nb = A.nb();
    if (n == 0) return 0;
    LowFactor<T> low{uplo, TileMatrix<low_t<T>>::workspace(n, n, nb), {}, how, {}};  // no host storage: written where converted
    TileMatrix<low_t<T>> Xs(n, 1, nb);
    TileMatrix<T> R(n, 1, nb);
    double cte = 0;
    iter = start(low, A, B, X, Xs, R, cte);
    if (iter < 0) return fallback(uplo, A, ipiv, B, X);
    Gmres<T> gmres{uplo, A, low, Xs, n, nb, std::min(kRestart, n)};
    for (int64_t its = 0;;) {
        if (converged(R, X, cte)) {
            if (uplo == Uplo::General) ipiv = low.ipiv;
            return iter = its, 0;
        }
        if (its >= kMaxIterations) break;
        const int64_t done = gmres.cycle(R, X, kMaxIterations - its);
        if (done < 0) return iter = -2, fallback(uplo, A, ipiv, B, X);
        if (done == 0) break;  // M⁻¹r is zero or not finite, yet r is not small: no progress possible
        its += done;
        Sequence seq;
        residual_async(uplo, A, B, X, R, seq);
        seq.wait();
    }
    iter = -kItermax - 1;
    return fallback(uplo, A, ipiv, B, X);
}

void check_nrhs(const char* func, int64_t nrhs) {
    check_arg(nrhs == 1, func, "nrhs", nrhs, "must be 1 (GMRES-IR solves one right-hand side)");
}

}  // namespace

template <class T>
int64_t posv_mixed_gmres(Uplo uplo, TileMatrix<T>& A, const TileMatrix<T>& B, TileMatrix<T>& X, int64_t& iter,
                         LowFactorization how) {
    check_factorization("posv_mixed_gmres", how, true);
    check_arg(uplo != Uplo::General, "posv_mixed_gmres", "uplo", 'G', "must be Lower or Upper");
    check_mixed_args("posv_mixed_gmres", A.n(), A.m(), A.nb(), B.m(), B.n(), B.nb(), X.m(), X.n(), X.nb());
    check_nrhs("posv_mixed_gmres", B.n());
    std::vector<int64_t> unused;
    return refine_gmres(uplo, A, unused, B, X, iter, how);
}

template <class T>
int64_t gesv_mixed_gmres(TileMatrix<T>& A, std::vector<int64_t>& ipiv, const TileMatrix<T>& B, TileMatrix<T>& X,
                         int64_t& iter, LowFactorization how) {
    check_factorization("gesv_mixed_gmres", how, false);
    check_mixed_args("gesv_mixed_gmres", A.n(), A.m(), A.nb(), B.m(), B.n(), B.nb(), X.m(), X.n(), X.nb());
    check_nrhs("gesv_mixed_gmres", B.n());
    ipiv.assign(size_t(A.n()), 0);
    return refine_gmres(Uplo::General, A, ipiv, B, X, iter, how);
}

#define TESSERA_INSTANTIATE(T)                                                                                  \
    template int64_t posv_mixed_gmres(Uplo, TileMatrix<T>&, const TileMatrix<T>&, TileMatrix<T>&, int64_t&,     \
                                      LowFactorization);                                                        \
    template int64_t gesv_mixed_gmres(TileMatrix<T>&, std::vector<int64_t>&, const TileMatrix<T>&,              \
                                      TileMatrix<T>&, int64_t&, LowFactorization);
TESSERA_INSTANTIATE(double)
TESSERA_INSTANTIATE(std::complex<double>)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
