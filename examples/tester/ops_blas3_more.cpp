// tessera-tester operations: trmm, symm, hemm, syr2k, her2k (tile forms, timed without the layout
// conversions; time_op says what the clock covers). --check compares with CBLAS on the same data
// (checks.hpp's scaled residuals); LAPACK copies are made, before the operation, only for it.
// Flops as LAPACK counts them (complex ×4 in main.cpp): trmm m²n (Left) or mn² (Right), symm /
// hemm 2m²n or 2mn², syr2k / her2k 2kn². Not yet run under mpirun (refused there).
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/tester/tester.hpp"
#include "tessera/tessera.hpp"

namespace tessera::tester {
namespace {

template <class T>
Result run_trmm(const Params& p) {
    const int64_t order = p.side == Side::Left ? p.m : p.n, lda = std::max<int64_t>(order, 1);
    const int64_t ldb = std::max<int64_t>(p.m, 1);
    TileMatrix<T> A(order, order, p.nb), B(p.m, p.n, p.nb);
    check::generate_random(A, p.seed);
    check::generate_random(B, p.seed + 1);
    Runtime::wait_all();
    check::LapackArray<T> a, b0;
    if (p.check) a = check::lapack_copy(A), b0 = check::lapack_copy(B);
    Result r;
    r.seconds = time_op(
        p, r.info, [&](Sequence& s) { trmm_async(p.side, p.uplo, p.trans, p.diag, T(p.alpha), A, B, s); }, A, B);
    r.flops = double(p.m) * double(p.n) * double(order);
    if (p.check) {
        const auto b = check::lapack_copy(B);
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = check::trmm_residual(p.side, p.uplo, p.trans, p.diag, p.m, p.n, T(p.alpha), a.data(), lda,
                                       b0.data(), b.data(), ldb);
        r.checked = true;
    }
    return r;
}

template <class T, bool Hermitian = false>
Result run_symm(const Params& p) {
    const int64_t order = p.side == Side::Left ? p.m : p.n, lda = std::max<int64_t>(order, 1);
    const int64_t ld = std::max<int64_t>(p.m, 1);
    TileMatrix<T> A(order, order, p.nb), B(p.m, p.n, p.nb), C(p.m, p.n, p.nb);
    check::generate_random(A, p.seed);
    check::generate_random(B, p.seed + 1);
    check::generate_random(C, p.seed + 2);
    Runtime::wait_all();
    check::LapackArray<T> a, b, c0;
    if (p.check) a = check::lapack_copy(A), b = check::lapack_copy(B), c0 = check::lapack_copy(C);
    Result r;
    r.seconds = time_op(
        p, r.info,
        [&](Sequence& s) {
            if constexpr (Hermitian) hemm_async(p.side, p.uplo, T(p.alpha), A, B, T(p.beta), C, s);
            else symm_async(p.side, p.uplo, T(p.alpha), A, B, T(p.beta), C, s);
        },
        A, B, C);
    r.flops = 2.0 * double(p.m) * double(p.n) * double(order);
    if (p.check) {
        const auto c = check::lapack_copy(C);
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = check::symm_residual(Hermitian, p.side, p.uplo, p.m, p.n, T(p.alpha), a.data(), lda, b.data(), ld,
                                       T(p.beta), c0.data(), c.data(), ld);
        r.checked = true;
    }
    return r;
}

template <class T, bool Hermitian = false>
Result run_syr2k(const Params& p) {
    const int64_t am = p.trans == Trans::NoTrans ? p.n : p.k, an = p.trans == Trans::NoTrans ? p.k : p.n;
    TileMatrix<T> A(am, an, p.nb), B(am, an, p.nb), C(p.n, p.n, p.nb);
    check::generate_random(A, p.seed);
    check::generate_random(B, p.seed + 1);
    check::generate_random(C, p.seed + 2);
    Runtime::wait_all();
    check::LapackArray<T> a, b, c0;
    if (p.check) a = check::lapack_copy(A), b = check::lapack_copy(B), c0 = check::lapack_copy(C);
    Result r;
    r.seconds = time_op(
        p, r.info,
        [&](Sequence& s) {
            if constexpr (Hermitian) her2k_async(p.uplo, p.trans, T(p.alpha), A, B, real_t<T>(p.beta), C, s);
            else syr2k_async(p.uplo, p.trans, T(p.alpha), A, B, T(p.beta), C, s);
        },
        A, B, C);
    r.flops = 2.0 * double(p.k) * double(p.n) * double(p.n);
    if (p.check) {
        const auto c = check::lapack_copy(C);
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        const int64_t lda = std::max<int64_t>(am, 1), ldc = std::max<int64_t>(p.n, 1);
        r.error = check::syr2k_residual(Hermitian, p.uplo, p.trans, p.n, p.k, T(p.alpha), a.data(), lda, b.data(),
                                        lda, Hermitian ? T(real_t<T>(p.beta)) : T(p.beta), c0.data(), c.data(), ldc);
        r.checked = true;
    }
    return r;
}

// A is m×m (Left) or n×n (Right), B (and C) m×n.
std::vector<Operand> side_operands(const Params& p, int mn_operands) {
    const bool left = p.side == Side::Left;
    const char* order = left ? "--m" : "--n";
    std::vector<Operand> ops{{left ? p.m : p.n, left ? p.m : p.n, order, order}};
    for (int i = 0; i < mn_operands; ++i) ops.push_back({p.m, p.n, "--m", "--n"});
    return ops;
}
std::vector<Operand> trmm_operands(const Params& p) { return side_operands(p, 1); }
std::vector<Operand> symm_operands(const Params& p) { return side_operands(p, 2); }
// op(A) and op(B) are n×k, C n×n.
std::vector<Operand> syr2k_operands(const Params& p) {
    const bool nt = p.trans == Trans::NoTrans;
    const Operand ab{nt ? p.n : p.k, nt ? p.k : p.n, nt ? "--n" : "--k", nt ? "--k" : "--n"};
    return {ab, ab, {p.n, p.n, "--n", "--n"}};
}

const Register reg_trmm{{"trmm", "gemm", TESSERA_RUNS(run_trmm),
                         kM | kSide | kUplo | kTrans | kDiag | kAlpha | kResident, trmm_operands, false}};
const Register reg_symm{{"symm", "gemm", TESSERA_RUNS(run_symm),
                         kM | kSide | kUplo | kAlpha | kBeta | kResident, symm_operands, false}};
const Register reg_hemm{{"hemm", "gemm", TESSERA_RUNS(run_symm, true),
                         kM | kSide | kUplo | kAlpha | kBeta | kResident, symm_operands, false}};
const Register reg_syr2k{{"syr2k", "gemm", TESSERA_RUNS(run_syr2k),
                          kK | kUplo | kTrans | kAlpha | kBeta | kResident, syr2k_operands, false}};
const Register reg_her2k{{"her2k", "gemm", TESSERA_RUNS(run_syr2k, true),
                          kK | kUplo | kTrans | kAlpha | kBeta | kResident, syr2k_operands, false}};

}  // namespace
}  // namespace tessera::tester
