// tessera-tester operations: geqrf, unmqr, ungqr, gels (tile forms, timed without the layout
// conversions). Residuals of docs/architecture.md#numerical-checks; gels is also compared with
// LAPACKE's xGELS.
//   tessera-tester geqrf --prec d --m 4000 --n 1500 --nb 250 --ib 50 --check
//   tessera-tester gels --prec s --m 3000 --n 1000 --nrhs 3 --nb 256 --check
#include <algorithm>
#include <optional>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_qr.hpp"
#include "examples/common/checks_random.hpp"
#include "examples/tester/tester.hpp"
#include "tessera/tessera.hpp"

namespace tessera::tester {
namespace {

/// Flops of a QR of an m×n matrix (LAPACK's xGEQRF count; xORGQR's for the thin Q is the same).
double qr_flops(double m, double n) {
    return m >= n ? 2 * m * n * n - 2 * n * n * n / 3 : 2 * n * m * m - 2 * m * m * m / 3;
}

/// The random m×n matrix of the run generated in its tiles, with its factors; `a` is a LAPACK copy
/// of the original (leading dimension max(1, m)) when `copy`, empty otherwise.
template <class T>
struct Factored {
    check::LapackArray<T> a;
    TileMatrix<T> A;
    QRFactors<T> F;
    Factored(const Params& p, bool copy) : A(p.m, p.n, p.nb) {
        check::generate_random(A, p.seed);
        if (copy) a = check::lapack_copy(A);
    }
};

/// Explicit Q (m×q) of the factorization, leading dimension max(1, m).
template <class T>
check::LapackArray<T> explicit_q(const TileMatrix<T>& A, const QRFactors<T>& F, int64_t q) {
    TileMatrix<T> Q(A.m(), q, A.nb());
    ungqr(A, F, Q);
    return check::lapack_copy(Q);
}

template <class T>
Result run_geqrf(const Params& p) {
    const bool random_check = p.check && p.check_random && p.m >= p.n;
    Factored<T> f(p, p.check && !random_check);
    Runtime::wait_all();
    // The randomized check's inputs, before A is overwritten: Aᵀ·A·X and the norms of A (O(n²)).
    std::optional<check::GeqrfCheckRandom<T>> random;
    if (random_check) {
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        random.emplace(f.A);
    }
    Result r;
    f.F = QRFactors<T>(f.A, p.options().ib);
    r.seconds = time_op(p, r.info, [&](Sequence& s) { geqrf_async(f.A, f.F, s); }, f.A);
    r.flops = qr_flops(double(p.m), double(p.n));
    if (random) {
        f.A.acquire_host();
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = random->residual(f.A);
        r.checked = true;
    } else if (p.check) {
        const int64_t k = std::min(p.m, p.n), lda = std::max<int64_t>(p.m, 1);
        auto q = explicit_q(f.A, f.F, k);
        const auto fa = check::lapack_copy(f.A);
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = std::max(check::qr_residual(p.m, p.n, f.a.data(), lda, q.data(), lda, fa.data(), lda),
                           check::orthogonality_residual(p.m, k, q.data(), lda));
        r.checked = true;
    }
    return r;
}

template <class T>
Result run_ungqr(const Params& p) {
    Factored<T> f(p, p.check);
    f.F = geqrf(f.A, p.options());
    const int64_t k = std::min(p.m, p.n), lda = std::max<int64_t>(p.m, 1);
    TileMatrix<T> Q(p.m, k, p.nb);
    Runtime::wait_all();
    Result r{.k = 0};
    r.seconds = time_it([&] { ungqr(f.A, f.F, Q); });
    r.flops = qr_flops(double(p.m), double(k));
    if (p.check) {
        const auto q = check::lapack_copy(Q), fa = check::lapack_copy(f.A);
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = std::max(check::qr_residual(p.m, p.n, f.a.data(), lda, q.data(), lda, fa.data(), lda),
                           check::orthogonality_residual(p.m, k, q.data(), lda));
        r.checked = true;
    }
    return r;
}

// C is m×nrhs (Left) or nrhs×m (Right); A is m×n.
template <class T>
Result run_unmqr(const Params& p) {
    Factored<T> f(p, false);
    f.F = geqrf(f.A, p.options());
    const bool left = p.side == Side::Left;
    const int64_t rows = left ? p.m : p.nrhs, cols = left ? p.nrhs : p.m, ldc = std::max<int64_t>(rows, 1);
    TileMatrix<T> C(rows, cols, p.nb);
    check::generate_random(C, p.seed + 1);
    check::LapackArray<T> c0;
    if (p.check) c0 = check::lapack_copy(C);
    Runtime::wait_all();
    Result r{.k = p.nrhs};
    r.seconds = time_it([&] { unmqr(p.side, p.trans, f.A, f.F, C); });
    const double k = double(std::min(p.m, p.n));
    r.flops = 2 * double(p.nrhs) * k * (2 * double(p.m) - k);
    if (p.check) {
        const auto c = check::lapack_copy(C);
        auto q = explicit_q(f.A, f.F, p.m);
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = check::unmqr_residual(p.side, p.trans, p.m, q.data(), std::max<int64_t>(p.m, 1), rows, cols,
                                        c0.data(), c.data(), ldc);
        r.checked = true;
    }
    return r;
}

template <class T>
Result run_gels(const Params& p) {
    const int64_t m = p.m, n = p.n, lda = std::max<int64_t>(m, 1), ldb = std::max<int64_t>({m, n, 1});
    const bool nt = p.trans == Trans::NoTrans;
    const int64_t in_rows = nt ? m : n, out_rows = nt ? n : m;
    TileMatrix<T> A(m, n, p.nb), B(std::max(m, n), p.nrhs, p.nb);
    check::generate_random(A, p.seed);
    check::generate_random(B, p.seed + 1, in_rows);  // the right-hand sides, zero below
    check::LapackArray<T> a, b;
    if (p.check) a = check::lapack_copy(A), b = check::lapack_copy(B);
    Runtime::wait_all();
    Result r{.k = p.nrhs};
    r.seconds = time_it([&] { r.info = gels(p.trans, A, B, p.options()); });
    const double k = double(std::min(m, n)), big = double(std::max(m, n));
    r.flops = qr_flops(double(m), double(n)) + double(p.nrhs) * (2 * k * (2 * big - k) + k * k);
    if (p.check) {
        const auto x = check::lapack_copy(B);
        // Least squares when op(A) is tall, a consistent (minimum-norm) system otherwise.
        const bool least_squares = in_rows > out_rows;
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = least_squares
                      ? check::least_squares_residual(p.trans, m, n, p.nrhs, a.data(), lda, x.data(), ldb, b.data(), ldb)
                      : check::solve_residual(p.trans, m, n, p.nrhs, a.data(), lda, x.data(), ldb, b.data(), ldb);
        int info = 0;
        auto ref = check::lapacke_gels(p.trans, m, n, p.nrhs, a.data(), lda, b.data(), ldb, &info);
        r.error = std::max(r.error, check::agreement(out_rows, p.nrhs, x.data(), ldb, ref.data(), ldb, std::max(m, n)));
        if (info != 0) r.error = INFINITY;
        r.checked = true;
    }
    return r;
}

// A (m×n) and its T factors (an ib×nb tile per tile of A).
std::vector<Operand> geqrf_operands(const Params& p) {
    return {{p.m, p.n, "--m", "--n"}, {p.m, p.n, "--m", "--n", p.ib, true}};
}
// The factors and the thin Q (m×min(m, n)).
std::vector<Operand> ungqr_operands(const Params& p) {
    std::vector<Operand> ops = geqrf_operands(p);
    ops.push_back({p.m, std::min(p.m, p.n), "--m", p.m < p.n ? "--m" : "--n"});
    return ops;
}
// The factors, C (m×nrhs or nrhs×m) and, for the full check, the explicit m×m Q.
std::vector<Operand> unmqr_operands(const Params& p) {
    std::vector<Operand> ops = geqrf_operands(p);
    const bool left = p.side == Side::Left;
    ops.push_back({left ? p.m : p.nrhs, left ? p.nrhs : p.m, left ? "--m" : "--nrhs", left ? "--nrhs" : "--m"});
    if (p.check) ops.push_back({p.m, p.m, "--m", "--m"});
    return ops;
}
// The factors and B (max(m, n)×nrhs).
std::vector<Operand> gels_operands(const Params& p) {
    std::vector<Operand> ops = geqrf_operands(p);
    ops.push_back({std::max(p.m, p.n), p.nrhs, p.m < p.n ? "--n" : "--m", "--nrhs"});
    return ops;
}

const Register reg_geqrf{{"geqrf", "geqrf", TESSERA_RUNS(run_geqrf), kM | kIb | kResident, geqrf_operands}};
const Register reg_ungqr{{"ungqr", "geqrf", TESSERA_RUNS(run_ungqr), kM | kIb, ungqr_operands}};
const Register reg_unmqr{{"unmqr", "geqrf", TESSERA_RUNS(run_unmqr), kM | kIb | kNrhs | kSide | kTrans,
                          unmqr_operands}};
const Register reg_gels{{"gels", "geqrf", TESSERA_RUNS(run_gels), kM | kIb | kNrhs | kTrans, gels_operands}};

}  // namespace
}  // namespace tessera::tester
