// tessera-tester operations: syevd (s, d) and heevd (s, d, c, z), the two-stage Hermitian eigensolver
// (tessera/eig.hpp), --jobz N (eigenvalues) or V (and eigenvectors, the default), --uplo L or U,
// --kd (stage 1's band width, a divisor of nb; default the largest divisor not above 128, 64 values only).
//   tessera-tester heevd --prec z --n 2000 --nb 128 --jobz V --check
// The input is the seeded random matrix of the other ops (only its uplo triangle is read), or with
// --cond κ the Hermitian Q·diag(λ)·Qᴴ of a geometric spectrum from 1 to 1/κ with alternating signs
// (check::hermitian_with_spectrum, O(n³) on the host before the clock starts). End to end: the tiles
// are in host memory only when the clock starts, and with vectors it stops once every tile of the
// eigenvectors is back in host memory. Flops: LAPACK's nominal counts, 4n³/3 values only (the
// reduction to tridiagonal form) and 4n³ with vectors (plus the back-transformations), ×4 real
// flops in complex.
// --check: with vectors the largest of ‖A − Z·Λ·Zᴴ‖₁ / (n·‖A‖₁·eps), ‖I − Zᴴ·Z‖₁ / (n·eps) and
// max |w − w_ref| / (n·‖A‖₁·eps) (w_ref: LAPACKE_xsyevd / xheevd 'N' on a copy); values only the last.
// --check-random (large n, O(n²)): with vectors the largest of ‖A·X − Z·(Λ·(Zᴴ·X))‖∞ / (‖A‖∞·‖X‖∞·n·eps)
// over 4 random vectors and |Σw − trace(A)| / (n·‖A‖₁·eps); values only the trace check.
#include <cmath>
#include <optional>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_eig.hpp"
#include "examples/tester/tester.hpp"
#include "tessera/tessera.hpp"

namespace tessera::tester {
namespace {

/// The larger of two ratios, NaN if either is (a check that cannot be evaluated fails).
double worst(double a, double b) { return std::isnan(a) || a > b ? a : b; }

template <class T, bool Sy>
Result run_eig(const Params& p) {
    using R = real_t<T>;
    if constexpr (Sy && is_complex_v<T>) {
        throw Error("syevd takes --prec s or d (heevd for complex matrices)");  // refused before the run
    } else {
        const int64_t n = p.n, lda = std::max<int64_t>(n, 1);
        const bool vectors = p.jobz == Job::Vec;
        TileMatrix<T> A(n, n, p.nb);
        if (p.cond > 0) {
            std::vector<T> a;
            {
                CallerBlasThreads blas;  // O(n³) on the host, every core, StarPU paused
                a = check::hermitian_with_spectrum<T>(n, check::geometric_spectrum<R>(n, p.cond), p.seed);
            }
            A.fill_from_lapack(a.data(), lda);
            A.acquire_host();  // a is released on return
        } else {
            check::generate_random(A, p.seed);  // only the uplo triangle is read
        }
        Runtime::wait_all();
        // The check's inputs before A is overwritten: A·X, ‖A‖ and the trace (O(n²)), or a LAPACK copy.
        std::optional<check::HeevdCheckRandom<T>> random;
        check::LapackArray<T> a;
        if (p.check && p.check_random) {
            A.acquire_host();
            CallerBlasThreads blas;  // the check runs on every core, StarPU paused
            random.emplace(p.uplo, A);
        } else if (p.check) {
            a = check::lapack_copy(A);
        }
        std::vector<R> w;
        Result r{.m = n, .k = 0};
        A.keep_only_on_host();
        last_phases().staging = std::chrono::steady_clock::now();
        r.seconds = time_it([&] {
            if constexpr (Sy) r.info = syevd(p.jobz, p.uplo, A, w, p.kd);
            else r.info = heevd(p.jobz, p.uplo, A, w, p.kd);
            if (vectors) A.acquire_host();  // the eigenvectors back in host memory
        });
        const double nd = double(n);
        r.flops = (vectors ? 4.0 : 4.0 / 3.0) * nd * nd * nd;
        if (p.check && random) {
            A.acquire_host();
            CallerBlasThreads blas;
            r.error = random->trace_error(w);
            if (vectors) r.error = worst(r.error, random->residual(A, w));
            r.checked = true;
        } else if (p.check) {
            check::LapackArray<T> z;
            if (vectors) z = check::lapack_copy(A);
            CallerBlasThreads blas;
            if (int64_t(w.size()) != n) {
                r.error = NAN;
            } else {
                r.error = check::eigenvalue_error<T>(p.uplo, n, a.data(), lda, w.data());
                if (vectors) {
                    r.error = worst(r.error, check::eig_residual<T>(p.uplo, n, a.data(), lda, z.data(), lda, w.data()));
                    r.error = worst(r.error, check::orthogonality<T>(n, z.data(), lda));
                }
            }
            r.checked = true;
        }
        return r;
    }
}

template <class T>
Result run_heevd(const Params& p) { return run_eig<T, false>(p); }
template <class T>
Result run_syevd(const Params& p) { return run_eig<T, true>(p); }

// A, the working copy reduced to the band, and with vectors the tridiagonal's n×n eigenvectors and
// Q2's reflectors (host arrays of about n² scalars each, counted as tiles).
std::vector<Operand> eig_operands(const Params& p) {
    std::vector<Operand> ops{{p.n, p.n, "--n", "--n"}, {p.n, p.n, "--n", "--n", 0, true}};
    if (p.jobz == Job::Vec) {
        ops.push_back({p.n, p.n, "--n", "--n", 0, true});
        ops.push_back({p.n, p.n, "--n", "--n", 0, true});
    }
    return ops;
}

// One process only (heevd throws on a distributed Runtime): distributed = false.
const Register reg_syevd{{"syevd", "geqrf", TESSERA_RUNS(run_syevd), kUplo | kCond | kJobz | kKd, eig_operands, false, "sd"}};
const Register reg_heevd{{"heevd", "geqrf", TESSERA_RUNS(run_heevd), kUplo | kCond | kJobz | kKd, eig_operands, false}};

}  // namespace
}  // namespace tessera::tester
