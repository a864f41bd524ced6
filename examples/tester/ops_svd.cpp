// tessera-tester operations: gesdd and gesvd (s, d, c, z), the two-stage SVD (tessera/svd.hpp) of the
// m×n A (--m, --n; m < n too), with LAPACK's jobs: gesdd --jobz N|S|A|O (default S), gesvd --jobu and
// --jobvt N|S|A|O (default S, not both O).
//   tessera-tester gesdd --prec d --m 3000 --n 2000 --jobz S --check
// The input is the seeded random matrix of the other ops, or with --cond κ U·diag(σ)·Vᴴ with σ
// geometric from 1 to 1/κ and U, V from the QR of random matrices (check::matrix_with_singular_values,
// O(m³ + n³) on the host before the clock starts). Jobs N, S and A run the tile form (gesdd(A, s, U,
// VT)) end to end: the tiles are in host memory only when the clock starts, and it stops once every
// tile of U and VT is back in host memory. A job O runs the lapack:: form (the only one that has it)
// on a column-major copy of A, timed from array to array.
// Flops, LAPACK's working note 41 (the real counts; the tester counts a complex one as 4), for M ≥ N
// (M = max(m, n), N = min(m, n); m < n is the SVD of Aᴴ):
//   values only: the bidiagonal reduction xGEBRD, 4MN² − 4N³/3;
//   with vectors, in addition the back-transformations as xORMBR / xUNMBR count them: the long side's
//   c vectors (c = N, or M for all of them) 4·M·c·N − 2·c·N², the short side's N vectors 2N³
//   (thin vectors of a square matrix: 8n³ − 4n³/3 in all). The bidiagonal solver's own work is not
//   counted (LAWN 41 has no count for the iterative xBDSDC / xBDSQR), nor the two-stage method's extra.
// --check: the largest of |σ − σ_ref| / (max(m, n)·σ_ref,1·eps) (σ_ref: LAPACKE's xGESDD 'N'; σ in
// descending order), ‖I − UᴴU‖₁ / (m·eps), ‖I − VᴴV‖₁ / (n·eps) and ‖A − U·Σ·Vᴴ‖₁ / (max(m, n)·‖A‖₁·eps)
// (one side's vectors only: its one-sided residual, check::svd_left_residual / svd_right_residual).
// --check-random (large sizes, O(mn)): |Σσ² − ‖A‖_F²| / (‖A‖_F²·max(m, n)·eps), the sampled
// orthogonality ‖(UᴴU − I)·Z‖∞ / (‖Z‖∞·m·eps) (and V's) and, with both sides,
// ‖A·X − U·(Σ·(Vᴴ·X))‖∞ / (‖A‖∞·‖X‖∞·max(m, n)·eps) over 4 random vectors.
#include <cmath>
#include <memory>
#include <optional>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_svd.hpp"
#include "examples/tester/tester.hpp"
#include "tessera/tessera.hpp"

namespace tessera::tester {
namespace {

/// The larger of two ratios, NaN if either is (a check that cannot be evaluated fails).
double worst(double a, double b) { return std::isnan(a) || a > b ? a : b; }

/// LAWN 41's flops of the SVD of an m×n matrix with ucols columns of U and vrows rows of Vᴴ (0: none).
double svd_flops(int64_t m, int64_t n, int64_t ucols, int64_t vrows) {
    const double big = double(std::max(m, n)), k = double(std::min(m, n));
    const double long_side = double(m >= n ? ucols : vrows), short_side = double(m >= n ? vrows : ucols);
    double f = 4 * big * k * k - 4 * k * k * k / 3;
    if (long_side > 0) f += 4 * big * long_side * k - 2 * long_side * k * k;
    if (short_side > 0) f += 2 * k * k * k;
    return f;
}

/// U's and Vᴴ's jobs of a run: gesdd's O overwrites A with the long side's leading vectors and
/// computes all of the other side's, as xGESDD.
std::pair<char, char> side_jobs(bool dc, const Params& p) {
    if (!dc) return {p.jobu, p.jobvt};
    if (p.svd_jobz != 'O') return {p.svd_jobz, p.svd_jobz};
    return p.m >= p.n ? std::pair{'O', 'A'} : std::pair{'A', 'O'};
}

template <class T, bool Dc>
Result run_svd(const Params& p) {
    using R = real_t<T>;
    const int64_t m = p.m, n = p.n, k = std::min(m, n), lda = std::max<int64_t>(m, 1);
    const auto jobs = side_jobs(Dc, p);  // not a structured binding: clang 14 cannot capture one in a lambda
    const char uj = jobs.first, vj = jobs.second;
    const int64_t ucols = uj == 'N' ? 0 : uj == 'A' ? m : k, vrows = vj == 'N' ? 0 : vj == 'A' ? n : k;
    TileMatrix<T> A(m, n, p.nb);
    if (p.cond > 0) {
        std::vector<T> a;
        {
            CallerBlasThreads blas;  // O(m³ + n³) on the host, every core, StarPU paused
            a = check::matrix_with_singular_values<T>(m, n, check::geometric_singular_values<R>(k, p.cond), p.seed);
        }
        A.fill_from_lapack(a.data(), lda);
        A.acquire_host();  // a is released on return
    } else {
        check::generate_random(A, p.seed);
    }
    Runtime::wait_all();
    // The check's inputs before A is overwritten: A·X and its norms (O(mn)), or a LAPACK copy.
    std::optional<check::SvdCheckRandom<T>> random;
    check::LapackArray<T> a;
    if (p.check && p.check_random) {
        A.acquire_host();
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        random.emplace(A);
    } else if (p.check) {
        a = check::lapack_copy(A);
    }
    std::unique_ptr<TileMatrix<T>> U, VT;  // the results, in tiles for the checks
    if (ucols > 0) U = std::make_unique<TileMatrix<T>>(m, ucols, p.nb);
    if (vrows > 0) VT = std::make_unique<TileMatrix<T>>(vrows, n, p.nb);
    std::vector<R> s;
    Result r{.m = m, .k = k};
    if (uj == 'O' || vj == 'O') {  // the lapack:: form on a column-major copy of A
        check::LapackArray<T> w = check::lapack_copy(A);
        const bool u_array = uj == 'S' || uj == 'A', vt_array = vj == 'S' || vj == 'A';
        const int64_t ldu = u_array ? lda : 1, ldvt = vt_array ? std::max<int64_t>(vrows, 1) : 1;
        std::vector<T> u(u_array ? size_t(ldu * std::max<int64_t>(ucols, 1)) : 1);
        std::vector<T> vt(vt_array ? size_t(ldvt * std::max<int64_t>(n, 1)) : 1);
        s.assign(size_t(k), R(0));
        if (p.kd != 0) throw Error("--kd does not apply to job O (the lapack:: form, the default band)");
        last_phases().staging = std::chrono::steady_clock::now();
        r.seconds = time_it([&] {
            r.info = Dc ? lapack::gesdd<T>(p.svd_jobz, m, n, w.data(), lda, s.data(), u.data(), ldu, vt.data(), ldvt,
                                           p.options())
                        : lapack::gesvd<T>(uj, vj, m, n, w.data(), lda, s.data(), u.data(), ldu, vt.data(), ldvt,
                                           p.options());
        });
        if (U) U->fill_from_lapack(uj == 'O' ? w.data() : u.data(), uj == 'O' ? lda : ldu);
        if (VT) VT->fill_from_lapack(vj == 'O' ? w.data() : vt.data(), vj == 'O' ? lda : ldvt);
        Runtime::wait_all();  // fill_from_lapack reads w, u and vt in tasks: done before they go
    } else {
        A.keep_only_on_host();
        last_phases().staging = std::chrono::steady_clock::now();
        r.seconds = time_it([&] {
            r.info = Dc ? gesdd(A, s, U.get(), VT.get(), p.kd) : gesvd(A, s, U.get(), VT.get(), p.kd);
            if (U) U->acquire_host();  // the singular vectors back in host memory
            if (VT) VT->acquire_host();
        });
    }
    r.flops = svd_flops(m, n, ucols, vrows);
    if (!p.check) return r;
    r.checked = true;
    if (int64_t(s.size()) != k) {
        r.error = NAN;
    } else if (random) {
        CallerBlasThreads blas;
        r.error = random->frobenius_error(s);
        if (U) r.error = worst(r.error, check::orthogonality_random(*U, true));
        if (VT) r.error = worst(r.error, check::orthogonality_random(*VT, false));
        if (U && VT) r.error = worst(r.error, random->residual(*U, *VT, s));
    } else {
        check::LapackArray<T> u, vt;
        if (U) u = check::lapack_copy(*U);
        if (VT) vt = check::lapack_copy(*VT);
        CallerBlasThreads blas;
        r.error = check::svd_error<T>(m, n, a.data(), lda, s.data(), U ? u.data() : nullptr, lda, ucols,
                                      VT ? vt.data() : nullptr, std::max<int64_t>(vrows, 1), vrows);
    }
    return r;
}

template <class T>
Result run_gesdd(const Params& p) { return run_svd<T, true>(p); }
template <class T>
Result run_gesvd(const Params& p) { return run_svd<T, false>(p); }

// A; the k×k tile matrix of stage 1's LQ reflectors, and Aᴴ for m < n; with vectors U and VT, the
// k×k V (or W) of the long side's solve, and about k² scalars each for the bidiagonal's vectors and
// stage 2's reflectors on the host (counted as tiles).
template <bool Dc>
std::vector<Operand> svd_operands(const Params& p) {
    const int64_t k = std::min(p.m, p.n);
    const char* kf = p.m >= p.n ? "--n" : "--m";
    std::vector<Operand> ops{{p.m, p.n, "--m", "--n"}, {k, k, kf, kf, 0, true}};
    if (p.m < p.n) ops.push_back({p.n, p.m, "--n", "--m", 0, true});
    const auto [ju, jv] = side_jobs(Dc, p);
    if (ju != 'N' || jv != 'N') {
        if (ju != 'N') ops.push_back({p.m, ju == 'A' ? p.m : k, "--m", ju == 'A' ? "--m" : kf});
        if (jv != 'N') ops.push_back({jv == 'A' ? p.n : k, p.n, jv == 'A' ? "--n" : kf, "--n"});
        for (int i = 0; i < 3; ++i) ops.push_back({k, k, kf, kf, 0, true});
    }
    return ops;
}

// One process only (gesdd throws on a distributed Runtime): distributed = false.
const Register reg_gesdd{{"gesdd", "geqrf", TESSERA_RUNS(run_gesdd), kM | kCond | kJobz | kKd, svd_operands<true>, false}};
const Register reg_gesvd{{"gesvd", "geqrf", TESSERA_RUNS(run_gesvd), kM | kCond | kJobuvt | kKd, svd_operands<false>, false}};

}  // namespace
}  // namespace tessera::tester
