// Numerical checks of docs/architecture.md#numerical-checks on LAPACK column-major arrays, and seeded test
// matrices, as LAPACK arrays or generated straight into a TileMatrix's tiles. Shared by
// tessera-tester, the tests, the benchmarks and the applications.
// A check passes when its scaled residual is finite, ≥ 0 and ≤ kThreshold (60, as Chameleon's tester):
// check::passes(). A NaN or an infinity anywhere in a result makes its residual NaN, never a pass.
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "tessera/tile_matrix.hpp"
#include "tessera/types.hpp"

namespace tessera::check {

constexpr double kThreshold = 60.0;

/// Whether a scaled residual passes: finite, ≥ 0 and ≤ kThreshold. NaN, ±Inf and negative values
/// (xLANGE's LAPACKE wrapper returns its negative argument index for an array holding a NaN) fail.
/// Every check of the tools, the benchmarks and the applications decides with this.
bool passes(double residual);

/// The scaled residual num / den of two norms: 0 when num = 0 (an exact result passes), +Inf when
/// num > 0 = den, and NaN when either norm is NaN, infinite or negative: a result or an operand
/// holding NaN or Inf cannot be checked, and passes() refuses NaN.
double ratio(double num, double den);

/// Unit roundoff of T: std::numeric_limits<real>::epsilon() / 2.
template <class T>
double eps();

/// LAPACK xLANGE: norm '1', 'I', 'F' or 'M' of the m×n array a (lda ≥ m). 0 for an empty matrix;
/// NaN when an entry is NaN, +Inf when one is infinite (LAPACKE_xlange_work: no NaN pre-check, whose
/// −5 would look like a norm).
template <class T>
double lange(char norm, int64_t m, int64_t n, const T* a, int64_t lda);

/// Entry (i, j) (0-based) of the seeded random matrices: a counter-based generator (SplitMix64 of
/// the seed and the pair), uniform in [-0.5, 0.5), so that any entry costs a few nanoseconds, a
/// tile is generated independently of the others and a symmetric matrix needs no transposition.
inline double random_entry(uint64_t seed, uint64_t i, uint64_t j) {
    uint64_t z = seed * 0x9E3779B97F4A7C15ull + (i << 32 ^ j) + 0x632BE59BD9B4E019ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return double(z >> 11) * 0x1.0p-53 - 0.5;
}

/// Entry (i, j) of a seeded random matrix of T: random_entry(seed, i, j), and for complex T an
/// imaginary part from a second stream (seed ^ kImagStream).
constexpr uint64_t kImagStream = 0x5DEECE66Dull;
template <class T>
T random_scalar(uint64_t seed, uint64_t i, uint64_t j) {
    if constexpr (is_complex_v<T>)
        return T(real_t<T>(random_entry(seed, i, j)), real_t<T>(random_entry(seed ^ kImagStream, i, j)));
    else return T(random_entry(seed, i, j));
}

/// Entry (i, j) of the seeded random symmetric (Hermitian for complex T) positive definite matrix
/// of order n: random_scalar(seed, min(i, j), max(i, j)) below the diagonal and its conjugate above,
/// the real part plus n on the diagonal.
template <class T>
T random_hpd_entry(uint64_t seed, uint64_t i, uint64_t j, int64_t n) {
    const T v = random_scalar<T>(seed, std::min(i, j), std::max(i, j));
    if (i == j) return T(std::real(v) + real_t<T>(n));
    return i < j ? conjugate(v) : v;
}

/// m×n array with leading dimension lda ≥ m, entries random_scalar<T>(seed, i, j), rows m..lda−1 zero.
template <class T>
std::vector<T> random_matrix(int64_t m, int64_t n, int64_t lda, uint64_t seed);
/// A copy of a[0, count) for a LAPACKE reference call, followed by 64 elements of slack: Debian 12's
/// OpenBLAS 0.3.21 xGEMV_N kernels (SkylakeX and Nehalem alike) read past the last column (OpenBLAS
/// issue 4013), which faulted where ASan's allocator ended a tight copy at a page boundary.
template <class T>
std::vector<T> reference_copy(const T* a, size_t count) {
    std::vector<T> c(count + 64);
    std::copy(a, a + count, c.begin());
    return c;
}
/// Symmetric (Hermitian for complex T) positive definite n×n array, both triangles set:
/// a_ij = random_hpd_entry<T>(seed, i, j, n).
template <class T>
std::vector<T> random_spd(int64_t n, int64_t lda, uint64_t seed);

/// The same matrices generated in a TileMatrix: one CPU StarPU task per tile (TileMatrix::generate),
/// O(m·n) work spread over the CPU workers, no LAPACK array. Submit-only: they return once the
/// tasks are submitted; A's tiles hold the entries after any later wait (acquire_host(), to_lapack(),
/// Runtime::wait_all(), an algorithm's synchronous call) and tasks submitted later on A see them.
/// Entry by entry (bit for bit) what the array forms give for the same seed, whatever A's nb.
///
/// generate_random: the m×n A = random_matrix(m, n, m, seed). With 0 ≤ rows < m, only the first
/// `rows` rows are random and the others zero, as random_matrix(rows, n, m, seed) pads them.
template <class T>
void generate_random(TileMatrix<T>& A, uint64_t seed, int64_t rows = -1);
/// generate_random_spd: the n×n A = random_spd(n, n, seed), both triangles set. Throws
/// tessera::Error unless A is square.
template <class T>
void generate_random_spd(TileMatrix<T>& A, uint64_t seed);

/// Allocator of arrays that are written before they are read: value-initialization (vector(n),
/// resize(n)) leaves their elements uninitialized instead of zeroing them on the caller's thread,
/// so that the pages are first touched by whoever fills them (e.g. to_lapack's tasks, in parallel).
template <class T>
struct UninitializedAllocator : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = UninitializedAllocator<U>;
    };
    UninitializedAllocator() = default;
    template <class U>
    UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        if constexpr (sizeof...(Args) == 0) ::new (static_cast<void*>(p)) U;
        else ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};
/// A LAPACK column-major array made by lapack_copy.
template <class T>
using LapackArray = std::vector<T, UninitializedAllocator<T>>;

/// A LAPACK column-major copy of A (leading dimension max(1, m), max(1, m)·max(1, n) entries)
/// through TileMatrix::to_lapack: waits for the tasks on A. For the full checks of checks*.hpp.
/// Distributed: collective; rank 0 gets the copy, the other ranks an empty array. The residuals
/// below are then rank 0's: on the other ranks they return 0 without reading their arguments.
template <class T>
LapackArray<T> lapack_copy(const TileMatrix<T>& A);

/// gemm: ‖C − C_ref‖ / ((|α|·‖A‖·‖B‖ + |β|·‖C₀‖) · k · eps), C_ref = α·op(A)·op(B) + β·C₀ via CBLAS.
template <class T>
double gemm_residual(Trans ta, Trans tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda,
                     const T* b, int64_t ldb, T beta, const T* c0, const T* c, int64_t ldc);
/// syrk: like gemm's on the uplo triangle of the n×n C, with ‖A‖² for ‖A‖·‖B‖.
template <class T>
double syrk_residual(Uplo uplo, Trans trans, int64_t n, int64_t k, T alpha, const T* a, int64_t lda, T beta,
                     const T* c0, const T* c, int64_t ldc);
/// herk: syrk's residual with C_ref = α·op(A)·op(A)ᴴ + β·C₀ (α, β real) via CBLAS's xHERK.
template <class T>
double herk_residual(Uplo uplo, Trans trans, int64_t n, int64_t k, real_t<T> alpha, const T* a, int64_t lda,
                     real_t<T> beta, const T* c0, const T* c, int64_t ldc);
/// trsm: ‖α·B₀ − op(A)·X‖ / ((‖A‖·‖X‖ + |α|·‖B₀‖) · n · eps) (Left; B₀·op(A) for Right), A triangular.
template <class T>
double trsm_residual(Side side, Uplo uplo, Trans trans, Diag diag, int64_t m, int64_t n, T alpha, const T* a,
                     int64_t lda, const T* b0, const T* x, int64_t ldb);
/// trmm: ‖B − B_ref‖ / (|α|·‖A‖·‖B₀‖ · order · eps), B_ref = α·op(A)·B₀ (Left) or α·B₀·op(A)
/// via CBLAS's xTRMM, ‖A‖ of the triangle (unit diagonal as ones), order m (Left) or n (Right).
template <class T>
double trmm_residual(Side side, Uplo uplo, Trans trans, Diag diag, int64_t m, int64_t n, T alpha, const T* a,
                     int64_t lda, const T* b0, const T* b, int64_t ldb);
/// symm (hermitian false) or hemm: ‖C − C_ref‖ / ((|α|·‖A‖·‖B‖ + |β|·‖C₀‖) · order · eps),
/// C_ref via CBLAS's xSYMM / xHEMM, ‖A‖ of the full matrix its uplo triangle defines.
template <class T>
double symm_residual(bool hermitian, Side side, Uplo uplo, int64_t m, int64_t n, T alpha, const T* a, int64_t lda,
                     const T* b, int64_t ldb, T beta, const T* c0, const T* c, int64_t ldc);
/// syr2k (hermitian false) or her2k (β real): like syrk's on the uplo triangle, with 2·‖A‖·‖B‖
/// for ‖A‖², C_ref via CBLAS's xSYR2K / xHER2K.
template <class T>
double syr2k_residual(bool hermitian, Uplo uplo, Trans trans, int64_t n, int64_t k, T alpha, const T* a,
                      int64_t lda, const T* b, int64_t ldb, T beta, const T* c0, const T* c, int64_t ldc);
/// potrf: ‖A − L·Lᴴ‖ / (n · ‖A‖ · eps) (‖A − Uᴴ·U‖ for Upper; ᴴ is ᵀ for real T), A symmetric or
/// Hermitian from its uplo triangle; f holds the factor in its uplo triangle.
template <class T>
double potrf_residual(Uplo uplo, int64_t n, const T* a, int64_t lda, const T* f, int64_t ldf);
/// Solves: ‖B − A·X‖ / ((‖A‖·‖X‖ + ‖B‖) · n · eps), A m×n (op(A) with trans), X n×nrhs, B m×nrhs.
template <class T>
double solve_residual(Trans trans, int64_t m, int64_t n, int64_t nrhs, const T* a, int64_t lda, const T* x,
                      int64_t ldx, const T* b, int64_t ldb);

}  // namespace tessera::check
