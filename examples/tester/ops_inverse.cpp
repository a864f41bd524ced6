// tessera-tester operations of the inverses: trtri, lauum, potri, getri (tile forms, timed without the
// layout conversions or the factorizations potri and getri start from; time_op says what the clock
// covers). --check: LAPACK's ratios (checks_inverse.hpp).
#include <vector>

#include "examples/common/checks_inverse.hpp"
#include "examples/tester/tester.hpp"
#include "tessera/tessera.hpp"

namespace tessera::tester {
namespace {

double cube(int64_t n) { return double(n) * double(n) * double(n); }

// trtri or lauum on the triangle of a well-conditioned matrix (check::random_triangular).
template <class T, bool Trtri>
Result run_triangular(const Params& p) {
    const int64_t lda = std::max<int64_t>(p.n, 1);
    TileMatrix<T> A(p.n, p.n, p.nb);
    check::generate_random_triangular(A, p.seed);
    check::LapackArray<T> a;
    if (p.check) a = check::lapack_copy(A);
    Result r{.m = p.n, .k = 0};
    r.seconds = time_op(
        p, r.info,
        [&](Sequence& s) { Trtri ? trtri_async(p.uplo, p.diag, A, s) : lauum_async(p.uplo, A, s); }, A);
    r.flops = cube(p.n) / 3.0;
    if (p.check) {
        const auto f = check::lapack_copy(A);
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = Trtri ? check::trtri_residual(p.uplo, p.diag, p.n, a.data(), lda, f.data(), lda)
                        : check::lauum_residual(p.uplo, p.n, a.data(), lda, f.data(), lda);
        r.checked = true;
    }
    return r;
}

template <class T>
Result run_trtri(const Params& p) { return run_triangular<T, true>(p); }
template <class T>
Result run_lauum(const Params& p) { return run_triangular<T, false>(p); }

// potri after an untimed potrf of an SPD matrix; checked with ‖I − A·A⁻¹‖ (xPOT03).
template <class T>
Result run_potri(const Params& p) {
    const int64_t lda = std::max<int64_t>(p.n, 1);
    TileMatrix<T> A(p.n, p.n, p.nb);
    check::generate_random_spd(A, p.seed);
    check::LapackArray<T> a;
    if (p.check) a = check::lapack_copy(A);
    Result r{.m = p.n, .k = 0};
    r.info = potrf(p.uplo, A);
    if (r.info == 0) r.seconds = time_op(p, r.info, [&](Sequence& s) { potri_async(p.uplo, A, s); }, A);
    r.flops = 2.0 * cube(p.n) / 3.0;
    if (p.check && r.info == 0) {
        const auto f = check::lapack_copy(A);
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        const auto x = check::hermitian_full(p.uplo, p.n, f.data(), lda);
        r.error = check::inverse_residual(p.n, a.data(), lda, x.data(), lda);
        r.checked = true;
    }
    return r;
}

// getri after an untimed getrf of a random matrix; checked with ‖I − A·A⁻¹‖ (xGET03).
template <class T>
Result run_getri(const Params& p) {
    const int64_t lda = std::max<int64_t>(p.n, 1);
    TileMatrix<T> A(p.n, p.n, p.nb);
    check::generate_random(A, p.seed);
    check::LapackArray<T> a;
    if (p.check) a = check::lapack_copy(A);
    std::vector<int64_t> ipiv;
    Result r{.m = p.n, .k = 0};
    r.info = getrf(A, ipiv);
    if (r.info == 0) r.seconds = time_op(p, r.info, [&](Sequence& s) { getri_async(A, ipiv, s); }, A);
    r.flops = 4.0 * cube(p.n) / 3.0;
    if (p.check && r.info == 0) {
        const auto x = check::lapack_copy(A);
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = check::inverse_residual(p.n, a.data(), lda, x.data(), lda);
        r.checked = true;
    }
    return r;
}

std::vector<Operand> square_operand(const Params& p) { return {{p.n, p.n, "--n", "--n"}}; }

const Register reg_trtri{{"trtri", "potrf", TESSERA_RUNS(run_trtri), kUplo | kDiag | kResident, square_operand}};
const Register reg_lauum{{"lauum", "potrf", TESSERA_RUNS(run_lauum), kUplo | kResident, square_operand}};
const Register reg_potri{{"potri", "potrf", TESSERA_RUNS(run_potri), kUplo | kResident, square_operand}};
const Register reg_getri{{"getri", "getrf", TESSERA_RUNS(run_getri), kResident, square_operand, false}};

}  // namespace
}  // namespace tessera::tester
