// tessera-tester operations: gemm, trsm, syrk, herk (tile forms, timed without the layout conversions; time_op says what the clock covers).
// Operands are generated in their tiles; LAPACK copies are made, before the operation, only for a full check.
#include <optional>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_lu.hpp"
#include "examples/common/checks_random.hpp"
#include "examples/tester/tester.hpp"
#include "tessera/tessera.hpp"

namespace tessera::tester {
namespace {

template <class T>
Result run_gemm(const Params& p) {
    const int64_t am = p.transA == Trans::NoTrans ? p.m : p.k, an = p.transA == Trans::NoTrans ? p.k : p.m;
    const int64_t bm = p.transB == Trans::NoTrans ? p.k : p.n, bn = p.transB == Trans::NoTrans ? p.n : p.k;
    TileMatrix<T> A(am, an, p.nb), B(bm, bn, p.nb), C(p.m, p.n, p.nb);
    check::generate_random(A, p.seed);
    check::generate_random(B, p.seed + 1);
    check::generate_random(C, p.seed + 2);
    Runtime::wait_all();
    // The check's inputs, before C is overwritten: the randomized reference C0·X, α·op(A)·op(B)·X
    // (O(n²)), or LAPACK copies for the full check.
    std::optional<check::GemmCheckRandom<T>> random;
    check::LapackArray<T> a, b, c0;
    if (p.check && p.check_random) {
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        random.emplace(p.transA, p.transB, T(p.alpha), A, B, T(p.beta), C);
    } else if (p.check) {
        a = check::lapack_copy(A), b = check::lapack_copy(B), c0 = check::lapack_copy(C);
    }
    Result r;
    r.seconds = time_op(
        p, r.info, [&](Sequence& s) { gemm_async(p.transA, p.transB, T(p.alpha), A, B, T(p.beta), C, s); }, A, B, C);
    r.flops = 2.0 * double(p.m) * double(p.n) * double(p.k);
    if (p.check && random) {
        C.acquire_host();
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = random->residual(C);
        r.checked = true;
    } else if (p.check) {
        const auto c = check::lapack_copy(C);
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = check::gemm_residual<T>(p.transA, p.transB, p.m, p.n, p.k, T(p.alpha), a.data(),
                                          std::max<int64_t>(am, 1), b.data(), std::max<int64_t>(bm, 1), T(p.beta),
                                          c0.data(), c.data(), std::max<int64_t>(p.m, 1));
        r.checked = true;
    }
    return r;
}

template <class T>
Result run_trsm(const Params& p) {
    const int64_t order = p.side == Side::Left ? p.m : p.n, lda = std::max<int64_t>(order, 1);
    const int64_t ldb = std::max<int64_t>(p.m, 1);
    // A well-conditioned triangular matrix: random with a dominant diagonal.
    TileMatrix<T> A(order, order, p.nb), B(p.m, p.n, p.nb);
    check::generate_random_shifted(A, p.seed, double(order));
    check::generate_random(B, p.seed + 1);
    Runtime::wait_all();
    check::LapackArray<T> a, b0;
    if (p.check) a = check::lapack_copy(A), b0 = check::lapack_copy(B);
    Result r;
    r.seconds = time_op(
        p, r.info, [&](Sequence& s) { trsm_async(p.side, p.uplo, p.trans, p.diag, T(p.alpha), A, B, s); }, A, B);
    r.flops = p.side == Side::Left ? double(p.m) * double(p.m) * double(p.n) : double(p.m) * double(p.n) * double(p.n);
    if (p.check) {
        const auto x = check::lapack_copy(B);
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = check::trsm_residual(p.side, p.uplo, p.trans, p.diag, p.m, p.n, T(p.alpha), a.data(), lda,
                                       b0.data(), x.data(), ldb);
        r.checked = true;
    }
    return r;
}

template <class T, bool Herk = false>
Result run_syrk(const Params& p) {
    const int64_t am = p.trans == Trans::NoTrans ? p.n : p.k, an = p.trans == Trans::NoTrans ? p.k : p.n;
    TileMatrix<T> A(am, an, p.nb), C(p.n, p.n, p.nb);
    check::generate_random(A, p.seed);
    check::generate_random(C, p.seed + 1);
    Runtime::wait_all();
    check::LapackArray<T> a, c0;
    if (p.check) a = check::lapack_copy(A), c0 = check::lapack_copy(C);
    Result r;
    r.seconds = time_op(
        p, r.info,
        [&](Sequence& s) {
            if constexpr (Herk) herk_async(p.uplo, p.trans, real_t<T>(p.alpha), A, real_t<T>(p.beta), C, s);
            else syrk_async(p.uplo, p.trans, T(p.alpha), A, T(p.beta), C, s);
        },
        A, C);
    r.flops = double(p.n) * double(p.n + 1) * double(p.k);
    if (p.check) {
        const auto c = check::lapack_copy(C);
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        const int64_t lda = std::max<int64_t>(am, 1), ldc = std::max<int64_t>(p.n, 1);
        if constexpr (Herk)
            r.error = check::herk_residual<T>(p.uplo, p.trans, p.n, p.k, real_t<T>(p.alpha), a.data(), lda,
                                              real_t<T>(p.beta), c0.data(), c.data(), ldc);
        else
            r.error = check::syrk_residual<T>(p.uplo, p.trans, p.n, p.k, T(p.alpha), a.data(), lda, T(p.beta),
                                              c0.data(), c.data(), ldc);
        r.checked = true;
    }
    return r;
}

// op(A) is m×k, op(B) k×n, C m×n.
std::vector<Operand> gemm_operands(const Params& p) {
    const bool na = p.transA == Trans::NoTrans, nb = p.transB == Trans::NoTrans;
    return {{na ? p.m : p.k, na ? p.k : p.m, na ? "--m" : "--k", na ? "--k" : "--m"},
            {nb ? p.k : p.n, nb ? p.n : p.k, nb ? "--k" : "--n", nb ? "--n" : "--k"},
            {p.m, p.n, "--m", "--n"}};
}
// A is m×m (Left) or n×n (Right), B m×n.
std::vector<Operand> trsm_operands(const Params& p) {
    const bool left = p.side == Side::Left;
    const char* order = left ? "--m" : "--n";
    return {{left ? p.m : p.n, left ? p.m : p.n, order, order}, {p.m, p.n, "--m", "--n"}};
}
// op(A) is n×k, C n×n.
std::vector<Operand> syrk_operands(const Params& p) {
    const bool nt = p.trans == Trans::NoTrans;
    return {{nt ? p.n : p.k, nt ? p.k : p.n, nt ? "--n" : "--k", nt ? "--k" : "--n"}, {p.n, p.n, "--n", "--n"}};
}

const Register reg_gemm{{"gemm", "gemm", TESSERA_RUNS(run_gemm),
                         kM | kK | kTransA | kTransB | kAlpha | kBeta | kResident, gemm_operands}};
const Register reg_trsm{{"trsm", "gemm", TESSERA_RUNS(run_trsm),
                         kM | kSide | kUplo | kTrans | kDiag | kAlpha | kResident, trsm_operands}};
const Register reg_syrk{{"syrk", "gemm", TESSERA_RUNS(run_syrk),
                         kK | kUplo | kTrans | kAlpha | kBeta | kResident, syrk_operands}};
const Register reg_herk{{"herk", "gemm", TESSERA_RUNS(run_syrk, true),
                         kK | kUplo | kTrans | kAlpha | kBeta | kResident, syrk_operands}};

}  // namespace
}  // namespace tessera::tester
