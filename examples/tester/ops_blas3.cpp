// tessera-tester operations: gemm, trsm, syrk (tile forms, timed without the layout conversions; time_op says what the clock covers).
#include "examples/common/checks.hpp"
#include "examples/common/checks_random.hpp"
#include "examples/tester/tester.hpp"
#include "tessera/tessera.hpp"

namespace tessera::tester {
namespace {

template <class T>
Result run_gemm(const Params& p) {
    const int64_t am = p.transA == Trans::NoTrans ? p.m : p.k, an = p.transA == Trans::NoTrans ? p.k : p.m;
    const int64_t bm = p.transB == Trans::NoTrans ? p.k : p.n, bn = p.transB == Trans::NoTrans ? p.n : p.k;
    const int64_t lda = std::max<int64_t>(am, 1), ldb = std::max<int64_t>(bm, 1), ldc = std::max<int64_t>(p.m, 1);
    auto a = check::random_matrix<T>(am, an, lda, p.seed), b = check::random_matrix<T>(bm, bn, ldb, p.seed + 1);
    auto c0 = check::random_matrix<T>(p.m, p.n, ldc, p.seed + 2), c = c0;
    TileMatrix<T> A(am, an, p.nb), B(bm, bn, p.nb), C(p.m, p.n, p.nb);
    A.fill_from_lapack(a.data(), lda);
    B.fill_from_lapack(b.data(), ldb);
    C.fill_from_lapack(c0.data(), ldc);
    Runtime::wait_all();
    Result r;
    r.seconds = time_op(
        p, r.info, [&](Sequence& s) { gemm_async(p.transA, p.transB, T(p.alpha), A, B, T(p.beta), C, s); }, A, B, C);
    r.flops = 2.0 * double(p.m) * double(p.n) * double(p.k);
    if (p.check) {
        C.to_lapack(c.data(), ldc);
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = (p.check_random ? check::gemm_residual_random<T> : check::gemm_residual<T>)(
            p.transA, p.transB, p.m, p.n, p.k, T(p.alpha), a.data(), lda, b.data(), ldb, T(p.beta), c0.data(),
            c.data(), ldc);
        r.checked = true;
    }
    return r;
}

template <class T>
Result run_trsm(const Params& p) {
    const int64_t order = p.side == Side::Left ? p.m : p.n, lda = std::max<int64_t>(order, 1);
    const int64_t ldb = std::max<int64_t>(p.m, 1);
    // A well-conditioned triangular matrix: random with a dominant diagonal.
    auto a = check::random_matrix<T>(order, order, lda, p.seed);
    for (int64_t i = 0; i < order; ++i) a[size_t(i + i * lda)] += T(order);
    auto b0 = check::random_matrix<T>(p.m, p.n, ldb, p.seed + 1), x = b0;
    TileMatrix<T> A(order, order, p.nb), B(p.m, p.n, p.nb);
    A.fill_from_lapack(a.data(), lda);
    B.fill_from_lapack(b0.data(), ldb);
    Runtime::wait_all();
    Result r;
    r.seconds = time_op(
        p, r.info, [&](Sequence& s) { trsm_async(p.side, p.uplo, p.trans, p.diag, T(p.alpha), A, B, s); }, A, B);
    r.flops = p.side == Side::Left ? double(p.m) * double(p.m) * double(p.n) : double(p.m) * double(p.n) * double(p.n);
    if (p.check) {
        B.to_lapack(x.data(), ldb);
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = check::trsm_residual(p.side, p.uplo, p.trans, p.diag, p.m, p.n, T(p.alpha), a.data(), lda,
                                       b0.data(), x.data(), ldb);
        r.checked = true;
    }
    return r;
}

template <class T>
Result run_syrk(const Params& p) {
    const int64_t am = p.trans == Trans::NoTrans ? p.n : p.k, an = p.trans == Trans::NoTrans ? p.k : p.n;
    const int64_t lda = std::max<int64_t>(am, 1), ldc = std::max<int64_t>(p.n, 1);
    auto a = check::random_matrix<T>(am, an, lda, p.seed);
    auto c0 = check::random_matrix<T>(p.n, p.n, ldc, p.seed + 1), c = c0;
    TileMatrix<T> A(am, an, p.nb), C(p.n, p.n, p.nb);
    A.fill_from_lapack(a.data(), lda);
    C.fill_from_lapack(c0.data(), ldc);
    Runtime::wait_all();
    Result r;
    r.seconds = time_op(p, r.info, [&](Sequence& s) { syrk_async(p.uplo, p.trans, T(p.alpha), A, T(p.beta), C, s); }, A, C);
    r.flops = double(p.n) * double(p.n + 1) * double(p.k);
    if (p.check) {
        C.to_lapack(c.data(), ldc);
        CallerBlasThreads blas;  // the check runs on every core, StarPU paused
        r.error = check::syrk_residual(p.uplo, p.trans, p.n, p.k, T(p.alpha), a.data(), lda, T(p.beta), c0.data(),
                                       c.data(), ldc);
        r.checked = true;
    }
    return r;
}

const Register reg_gemm{{"gemm", run_gemm<float>, run_gemm<double>}};
const Register reg_trsm{{"trsm", run_trsm<float>, run_trsm<double>}};
const Register reg_syrk{{"syrk", run_syrk<float>, run_syrk<double>}};

}  // namespace
}  // namespace tessera::tester
