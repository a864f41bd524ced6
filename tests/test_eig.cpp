// The Hermitian eigensolver (tessera/eig.hpp: heevd, syevd and their lapack:: forms) in s, d, c and z,
// checked with LAPACK's ratios (examples/common/checks_eig.hpp): ‖A − Z·Λ·Zᴴ‖ / (n·‖A‖·eps),
// ‖I − Zᴴ·Z‖ / (n·eps) and the eigenvalues against LAPACKE's xSYEVD / xHEEVD, each under kThreshold.
// Random matrices of both uplos with several tiles, a partial last tile, one tile, n = 1 and n = 0;
// LAPACK's hard spectra (geometric, clustered, repeated); jobz N leaving A unchanged; NaN and infinity
// in the referenced triangle refused as Error, in the other triangle ignored; matrices scaled near
// underflow and overflow; bad arguments; the lapack:: forms in both layouts.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_eig.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

template <class T>
class Eig : public test::RuntimeTest {
protected:
    void SetUp() override {
        test::RuntimeTest::SetUp();
        allow_cpu_tasks();  // the band-to-tridiagonal stage, the tridiagonal solver and Q2 are CPU only
    }
};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;  // s, d, c, z
TYPED_TEST_SUITE(Eig, Precisions);

struct Shape {
    int64_t n, nb, kd;  // kd 0: heevd's default band
};
// Several tiles with a partial last one (100 = 3·32 + 4), a multiple of nb (64 = 4·16), one partial
// tile (7 < 32), n = 1 and n = 0, on CPU workers a larger band (300 = 4·64 + 44); and bands narrower
// than the tile (panels inside the tiles, whose reflectors start inside a tile: 100 with 32/8, the
// last tile's 4 columns then no panel; 300 with 64/16). PoCL runs every kernel slowly: the OpenCL
// modes skip 64/16, 300/64 and 300/64/16.
std::vector<Shape> shapes() {
    if (test::mode() != "cpu") return {{100, 32, 0}, {100, 32, 8}, {7, 32, 0}, {1, 16, 0}, {0, 16, 0}};
    return {{100, 32, 0}, {100, 32, 8}, {64, 16, 0}, {300, 64, 0}, {300, 64, 16}, {7, 32, 0}, {1, 16, 0}, {0, 16, 0}};
}

std::string describe(const char* what, Job jobz, Uplo uplo, int64_t n, int64_t nb, int64_t kd = 0) {
    return std::string(what) + " jobz " + char(jobz) + " uplo " + char(uplo) + " n " + std::to_string(n) + " nb " +
           std::to_string(nb) + (kd ? " kd " + std::to_string(kd) : "");
}

/// A random n×n array (leading dimension lda) whose uplo triangle is Hermitian's (the diagonal real);
/// the other triangle holds unrelated random values that heevd must not read.
template <class T>
std::vector<T> random_hermitian_triangle(int64_t n, int64_t lda, uint64_t seed) {
    auto a = check::random_matrix<T>(n, n, lda, seed);
    for (int64_t i = 0; i < n; ++i) a[size_t(i + i * lda)] = T(std::real(a[size_t(i + i * lda)]));
    return a;
}

/// heevd on a TileMatrix filled from the array a: the eigenvalues and A's content afterwards (n×n,
/// leading dimension max(1, n)).
template <class T>
struct EigRun {
    int64_t info = -1;
    std::vector<real_t<T>> w;
    std::vector<T> z;
};
template <class T>
EigRun<T> run_heevd(Job jobz, Uplo uplo, int64_t n, int64_t nb, const std::vector<T>& a, int64_t lda, int64_t kd = 0) {
    const int64_t ld = std::max<int64_t>(n, 1);
    TileMatrix<T> A(n, n, nb);
    A.fill_from_lapack(a.data(), lda);
    EigRun<T> r;
    r.info = heevd(jobz, uplo, A, r.w, kd);
    r.z.assign(size_t(ld * ld), T(0));
    A.to_lapack(r.z.data(), ld);
    return r;
}

/// Every check of one result: info 0, n eigenvalues in ascending order matching LAPACKE's; with
/// vectors the residual and the orthogonality; values only, A unchanged (both triangles, bit for bit).
template <class T>
void expect_eigen(const std::string& where, Job jobz, Uplo uplo, int64_t n, const std::vector<T>& a, int64_t lda,
                  const EigRun<T>& r) {
    ASSERT_EQ(r.info, 0) << where;
    ASSERT_EQ(int64_t(r.w.size()), n) << where;
    EXPECT_TRUE(std::is_sorted(r.w.begin(), r.w.end())) << where << ": eigenvalues not ascending";
    const double err = check::eigenvalue_error<T>(uplo, n, a.data(), lda, r.w.data());
    EXPECT_TRUE(check::passes(err)) << where << ": eigenvalue error " << err;
    const int64_t ld = std::max<int64_t>(n, 1);
    if (jobz == Job::Vec) {
        const double res = check::eig_residual<T>(uplo, n, a.data(), lda, r.z.data(), ld, r.w.data());
        const double orth = check::orthogonality<T>(n, r.z.data(), ld);
        EXPECT_TRUE(check::passes(res)) << where << ": residual " << res;
        EXPECT_TRUE(check::passes(orth)) << where << ": orthogonality " << orth;
    } else {
        int64_t changed = 0;
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < n; ++i)  // bit for bit: a NaN left in place is unchanged
                changed += std::memcmp(&r.z[size_t(i + j * ld)], &a[size_t(i + j * lda)], sizeof(T)) != 0;
        EXPECT_EQ(changed, 0) << where << ": jobz N changed " << changed << " entries of A";
    }
}

TYPED_TEST(Eig, RandomMatchesLapackBothUplosAndJobs) {
    using T = TypeParam;
    for (auto [n, nb, kd] : shapes())
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
            for (Job jobz : {Job::NoVec, Job::Vec}) {
                const int64_t lda = n + 3;
                const auto a = random_hermitian_triangle<T>(n, lda, uint64_t(31 + n));
                const auto r = run_heevd<T>(jobz, uplo, n, nb, a, lda, kd);
                expect_eigen(describe("random", jobz, uplo, n, nb, kd), jobz, uplo, n, a, lda, r);
            }
}

// LAPACK's convention for complex Hermitian input: the imaginary parts of the diagonal are taken
// as zero, never read.
TYPED_TEST(Eig, ImaginaryDiagonalIsIgnored) {
    using T = TypeParam;
    if constexpr (is_complex_v<T>) {
        const int64_t n = 40, nb = 16;
        auto a = random_hermitian_triangle<T>(n, n, 41);
        const auto clean = a;
        for (int64_t i = 0; i < n; ++i) a[size_t(i + i * n)] += T(0, 1000);
        for (Job jobz : {Job::NoVec, Job::Vec}) {
            const auto r = run_heevd<T>(jobz, Uplo::Lower, n, nb, a, n);
            const std::string where = describe("imaginary diagonal", jobz, Uplo::Lower, n, nb);
            ASSERT_EQ(r.info, 0) << where;
            const double err = check::eigenvalue_error<T>(Uplo::Lower, n, clean.data(), n, r.w.data());
            EXPECT_TRUE(check::passes(err)) << where << ": eigenvalue error " << err;
            if (jobz == Job::Vec) {
                const double res = check::eig_residual<T>(Uplo::Lower, n, clean.data(), n, r.z.data(), n, r.w.data());
                EXPECT_TRUE(check::passes(res)) << where << ": residual " << res;
            }
        }
    } else {
        this->expect_no_tasks();
    }
}

// LAPACK's hard spectra (xLATMS's modes), A = Q·diag(λ)·Qᴴ with a dense random unitary Q: geometric
// from 1 to 1/κ with alternating signs, one eigenvalue 1 and a cluster equal within eps, an eigenvalue
// of multiplicity n/2. The eigenvectors must stay orthonormal (divide and conquer's deflation) and
// the eigenvalues match both LAPACKE's and the λ the matrix was built from.
TYPED_TEST(Eig, HardSpectra) {
    using T = TypeParam;
    using R = real_t<T>;
    const double kappa = std::is_same_v<R, double> ? 1e6 : 1e3;
    struct Case {
        const char* name;
        std::vector<R> lambda;
        int64_t nb;
        Uplo uplo;
    };
    const std::vector<Case> cases = {
        {"geometric", check::geometric_spectrum<R>(96, kappa), 32, Uplo::Lower},
        {"clustered", check::clustered_spectrum<R>(80, kappa), 16, Uplo::Upper},
        {"repeated", check::repeated_spectrum<R>(90), 32, Uplo::Lower},
    };
    for (const Case& c : cases) {
        const int64_t n = int64_t(c.lambda.size());
        const auto a = check::hermitian_with_spectrum<T>(n, c.lambda, 51);
        auto sorted = c.lambda;
        std::sort(sorted.begin(), sorted.end());
        for (Job jobz : {Job::NoVec, Job::Vec}) {
            const std::string where = describe(c.name, jobz, c.uplo, n, c.nb);
            const auto r = run_heevd<T>(jobz, c.uplo, n, c.nb, a, n);
            expect_eigen(where, jobz, c.uplo, n, a, n, r);
            if (int64_t(r.w.size()) != n) continue;
            const double norm_a = check::lange('1', n, n, a.data(), n);
            const double err = check::eigenvalue_error<T>(n, norm_a, r.w.data(), sorted.data());
            EXPECT_TRUE(check::passes(err)) << where << ": error against the built spectrum " << err;
        }
    }
}

/// Call f, which must throw Error (an argument refused before any task), not TaskError nor nothing.
template <class F>
void expect_refused(const std::string& where, F f, const char* arg = nullptr) {
    try {
        f();
        ADD_FAILURE() << where << ": no throw";
    } catch (const TaskError& e) {
        ADD_FAILURE() << where << ": TaskError instead of Error: " << e.what();
    } catch (const Error& e) {
        if (arg) {
            EXPECT_NE(std::string(e.what()).find(arg), std::string::npos) << where << ": " << e.what();
        }
    }
}

// A NaN or an infinity in the referenced triangle is refused as Error (LAPACK's xLANHE 'M' check);
// one in the other triangle is not read.
TYPED_TEST(Eig, NaNAndInfinityInTheReferencedTriangle) {
    using T = TypeParam;
    using R = real_t<T>;
    const int64_t n = 40, nb = 16;
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
        for (R bad : {std::numeric_limits<R>::quiet_NaN(), std::numeric_limits<R>::infinity()}) {
            const auto a = random_hermitian_triangle<T>(n, n, 61);
            const int64_t in_i = uplo == Uplo::Lower ? 30 : 5, in_j = uplo == Uplo::Lower ? 5 : 30;
            for (Job jobz : {Job::NoVec, Job::Vec}) {
                const std::string where = describe(std::isnan(bad) ? "NaN" : "Inf", jobz, uplo, n, nb);
                auto in = a;
                in[size_t(in_i + in_j * n)] = T(bad);
                expect_refused(where + " in the triangle", [&] { run_heevd<T>(jobz, uplo, n, nb, in, n); });
                auto diag = a;
                diag[size_t(17 + 17 * n)] = T(bad);
                expect_refused(where + " on the diagonal", [&] { run_heevd<T>(jobz, uplo, n, nb, diag, n); });
                auto out = a;
                out[size_t(in_j + in_i * n)] = T(bad);  // the mirror entry, in the triangle not read
                const auto r = run_heevd<T>(jobz, uplo, n, nb, out, n);
                expect_eigen(where + " in the other triangle", jobz, uplo, n, out, n, r);
            }
        }
}

// Entries near the underflow and the overflow thresholds: heevd scales A into [RMIN, RMAX] and the
// eigenvalues back (xHEEVD's scaling), so w / s matches the eigenvalues of the unscaled matrix and the
// eigenvectors stay orthonormal.
TYPED_TEST(Eig, TinyAndHugeMatricesAreScaled) {
    using T = TypeParam;
    using R = real_t<T>;
    const int64_t n = 50, nb = 16;
    const bool dbl = std::is_same_v<R, double>;
    const auto a0 = random_hermitian_triangle<T>(n, n, 71);
    const auto w0 = check::ref_eigenvalues<T>(Uplo::Lower, n, a0.data(), n);
    const double norm0 = check::lange('1', n, n, check::hermitian_from_triangle(Uplo::Lower, n, a0.data(), n).data(), n);
    for (R s : {dbl ? R(1e-300) : R(1e-30), dbl ? R(1e300) : R(1e30)})
        for (Job jobz : {Job::NoVec, Job::Vec}) {
            auto a = a0;
            for (T& v : a) v *= s;
            const std::string where = describe(s < 1 ? "tiny" : "huge", jobz, Uplo::Lower, n, nb);
            const auto r = run_heevd<T>(jobz, Uplo::Lower, n, nb, a, n);
            ASSERT_EQ(r.info, 0) << where;
            ASSERT_EQ(int64_t(r.w.size()), n) << where;
            std::vector<R> back(r.w);
            for (R& v : back) v /= s;
            const double err = check::eigenvalue_error<T>(n, norm0, back.data(), w0.data());
            EXPECT_TRUE(check::passes(err)) << where << ": eigenvalue error " << err << " (w[0] = " << r.w[0]
                                            << ", expected " << w0[0] * s << ")";
            if (jobz == Job::Vec) {
                const double res = check::eig_residual<T>(Uplo::Lower, n, a0.data(), n, r.z.data(), n, back.data());
                const double orth = check::orthogonality<T>(n, r.z.data(), n);
                EXPECT_TRUE(check::passes(res)) << where << ": residual " << res;
                EXPECT_TRUE(check::passes(orth)) << where << ": orthogonality " << orth;
            }
        }
}

TYPED_TEST(Eig, BadArgumentsThrowError) {
    using T = TypeParam;
    using R = real_t<T>;
    this->expect_no_tasks();
    const int64_t n = 4;
    TileMatrix<T> A(n, n, 2), Rect(5, 4, 2);
    std::vector<R> w;
    expect_refused("uplo General", [&] { heevd(Job::Vec, Uplo::General, A, w); }, "'uplo'");
    expect_refused("jobz X", [&] { heevd(static_cast<Job>('X'), Uplo::Lower, A, w); }, "'jobz'");
    expect_refused("non-square A", [&] { heevd(Job::NoVec, Uplo::Lower, Rect, w); });
    TileMatrix<T> A6(12, 12, 6);
    expect_refused("kd not dividing nb", [&] { heevd(Job::NoVec, Uplo::Lower, A6, w, int64_t(4)); }, "'kd'");
    expect_refused("kd < 0", [&] { heevd(Job::Vec, Uplo::Lower, A6, w, int64_t(-2)); }, "'kd'");
    std::vector<T> a(size_t(n * n), T(1));
    std::vector<R> wl(static_cast<size_t>(n));
    expect_refused("lapack jobz X", [&] { lapack::heevd<T>('X', 'L', n, a.data(), n, wl.data()); }, "'jobz'");
    expect_refused("lapack uplo X", [&] { lapack::heevd<T>('V', 'X', n, a.data(), n, wl.data()); }, "'uplo'");
    expect_refused("lapack uplo G", [&] { lapack::heevd<T>('N', 'G', n, a.data(), n, wl.data()); }, "'uplo'");
    expect_refused("lapack n < 0", [&] { lapack::heevd<T>('V', 'L', -1, a.data(), n, wl.data()); }, "'n'");
    expect_refused("lapack lda < n", [&] { lapack::heevd<T>('V', 'U', n, a.data(), n - 1, wl.data()); }, "'lda'");
    expect_refused("lapack nb < 0", [&] { lapack::heevd<T>('N', 'L', n, a.data(), n, wl.data(), {.nb = -1}); }, "'nb'");
    if constexpr (!is_complex_v<T>) {
        expect_refused("syevd uplo General", [&] { syevd(Job::Vec, Uplo::General, A, w); }, "'uplo'");
        expect_refused("lapack syevd jobz X", [&] { lapack::syevd<T>('X', 'L', n, a.data(), n, wl.data()); }, "'jobz'");
        expect_refused("lapack syevd uplo X", [&] { lapack::syevd<T>('N', 'X', n, a.data(), n, wl.data()); }, "'uplo'");
        expect_refused("lapack syevd n < 0", [&] { lapack::syevd<T>('N', 'L', -3, a.data(), n, wl.data()); }, "'n'");
        expect_refused("lapack syevd lda < n", [&] { lapack::syevd<T>('V', 'L', n, a.data(), 2, wl.data()); }, "'lda'");
    }
    for (const T& v : a) EXPECT_EQ(v, T(1)) << "a refused call wrote to a";
}

// The lapack:: forms on a column-major array with lda > n, in place and copied to tiles, characters
// in either case: the eigenvalues match LAPACKE's, the eigenvectors are LAPACK's (residual and
// orthogonality), jobz 'N' leaves a unchanged, and the rows between n and lda are never touched.
TYPED_TEST(Eig, LapackFormsInBothLayouts) {
    using T = TypeParam;
    using R = real_t<T>;
    const int64_t n = 45, lda = 50, nb = 16;
    const auto a = random_hermitian_triangle<T>(n, lda, 81);
    auto padded = a;
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = n; i < lda; ++i) padded[size_t(i + j * lda)] = T(-7);
    for (LapackLayout layout : {LapackLayout::InPlace, LapackLayout::TileCopy})
        for (const char* form : {"heevd", "syevd"}) {
            const bool sy = std::string(form) == "syevd";
            if (sy && is_complex_v<T>) continue;
            for (char jobz : {'N', 'v'})
                for (char uplo : {'l', 'U'}) {
                    const std::string where = std::string("lapack::") + form + " jobz " + jobz + " uplo " + uplo +
                                              (layout == LapackLayout::InPlace ? " InPlace" : " TileCopy");
                    auto f = padded;
                    std::vector<R> w(static_cast<size_t>(n), R(-99));
                    const Options opts{.nb = nb, .layout = layout};
                    int64_t info = -1;
                    if constexpr (!is_complex_v<T>)
                        if (sy) info = lapack::syevd<T>(jobz, uplo, n, f.data(), lda, w.data(), opts);
                    if (!sy) info = lapack::heevd<T>(jobz, uplo, n, f.data(), lda, w.data(), opts);
                    ASSERT_EQ(info, 0) << where;
                    const Uplo u = uplo_from_char(uplo);
                    EXPECT_TRUE(std::is_sorted(w.begin(), w.end())) << where;
                    const double err = check::eigenvalue_error<T>(u, n, a.data(), lda, w.data());
                    EXPECT_TRUE(check::passes(err)) << where << ": eigenvalue error " << err;
                    if (jobz == 'N') {
                        EXPECT_EQ(f, padded) << where << ": jobz N changed a";
                        continue;
                    }
                    const double res = check::eig_residual<T>(u, n, a.data(), lda, f.data(), lda, w.data());
                    const double orth = check::orthogonality<T>(n, f.data(), lda);
                    EXPECT_TRUE(check::passes(res)) << where << ": residual " << res;
                    EXPECT_TRUE(check::passes(orth)) << where << ": orthogonality " << orth;
                    bool intact = true;
                    for (int64_t j = 0; j < n; ++j)
                        for (int64_t i = n; i < lda; ++i) intact = intact && f[size_t(i + j * lda)] == T(-7);
                    EXPECT_TRUE(intact) << where << ": rows n..lda-1 were written";
                }
        }
}

// The matrix sizes of the tile forms: n = 0 returns at once with no eigenvalue.
TYPED_TEST(Eig, EmptyMatrix) {
    using T = TypeParam;
    this->expect_no_tasks();
    TileMatrix<T> E(0, 0, 16);
    std::vector<real_t<T>> w(3, real_t<T>(1));
    EXPECT_EQ(heevd(Job::Vec, Uplo::Lower, E, w), 0);
    EXPECT_TRUE(w.empty());
    EXPECT_EQ(lapack::heevd<T>('V', 'U', 0, nullptr, 1, w.data()), 0);
}

}  // namespace
}  // namespace tessera
