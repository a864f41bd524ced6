// tessera-tester operations: lange, lansy, lanhe, lantr (matrix norms, tessera/norms.hpp), --norm
// M, O, I or F. The clock covers the norm from tiles in host memory (its tasks and the host
// reduction). --check compares with LAPACKE's xLANGE / xLANSY / xLANHE / xLANTR on a copy of the
// same matrix: |ours − LAPACK's| / (|LAPACK's| · k · eps), k = 1 (M), max(m, n) (O, I), m·n (F).
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_norms.hpp"
#include "examples/tester/tester.hpp"
#include "tessera/tessera.hpp"

namespace tessera::tester {
namespace {

enum class Kind { Ge, Sy, He, Tr };

template <class T, Kind K>
Result run_norm(const Params& p) {
    const int64_t rows = K == Kind::Sy || K == Kind::He ? p.n : p.m;
    TileMatrix<T> A(rows, p.n, p.nb);
    check::generate_random(A, p.seed);
    Runtime::wait_all();
    check::LapackArray<T> a;
    if (p.check) a = check::lapack_copy(A);
    A.keep_only_on_host();
    real_t<T> value = 0;
    Result r;
    last_phases().staging = std::chrono::steady_clock::now();
    r.seconds = time_it([&] {
        if constexpr (K == Kind::Ge) value = lange(p.norm, A);
        else if constexpr (K == Kind::Sy) value = lansy(p.norm, p.uplo, A);
        else if constexpr (K == Kind::He) value = lanhe(p.norm, p.uplo, A);
        else value = lantr(p.norm, p.uplo, p.diag, A);
    });
    r.flops = double(rows) * double(p.n);  // one pass over the entries
    r.m = rows;
    r.k = 0;
    if (p.check) {
        const char norm = char(p.norm), uplo = char(p.uplo), diag = char(p.diag);
        const int64_t lda = std::max<int64_t>(rows, 1);
        real_t<T> ref = 0;
        if constexpr (K == Kind::Ge) ref = check::ref_lange<T>(norm, rows, p.n, a.data(), lda);
        else if constexpr (K == Kind::Sy) ref = check::ref_lansy<T>(norm, uplo, p.n, a.data(), lda);
        else if constexpr (K == Kind::He) ref = check::ref_lanhe<T>(norm, uplo, p.n, a.data(), lda);
        else ref = check::ref_lantr<T>(norm, uplo, diag, rows, p.n, a.data(), lda);
        r.error = check::norm_error<T>(norm, rows, p.n, value, ref);
        r.checked = true;
    }
    return r;
}

std::vector<Operand> ge_operands(const Params& p) { return {{p.m, p.n, "--m", "--n"}}; }
std::vector<Operand> sy_operands(const Params& p) { return {{p.n, p.n, "--n", "--n"}}; }

// One process only (the norms throw on a distributed Runtime): distributed = false.
const Register reg_lange{{"lange", "gemm", TESSERA_RUNS(run_norm, Kind::Ge), kM | kNorm, ge_operands, false}};
const Register reg_lansy{{"lansy", "gemm", TESSERA_RUNS(run_norm, Kind::Sy), kUplo | kNorm, sy_operands, false}};
const Register reg_lanhe{{"lanhe", "gemm", TESSERA_RUNS(run_norm, Kind::He), kUplo | kNorm, sy_operands, false}};
const Register reg_lantr{{"lantr", "gemm", TESSERA_RUNS(run_norm, Kind::Tr), kM | kUplo | kDiag | kNorm, ge_operands,
                          false}};

}  // namespace
}  // namespace tessera::tester
