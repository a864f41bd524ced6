/* A C program calling LAPACK's Fortran ABI directly (dgesv_, zposv_, dpotrf_, dgetrf_, dsyevd_, and
 * BLAS 3's dgemm_, dtrsm_, zherk_),
 * built twice: linked ahead of -llapack to libtessera_lapack, and linked to -llapack alone and run
 * with LD_PRELOAD=libtessera_lapack.so. The environment sets TESSERA_LAPACK_MIN_N=256, so n = 600
 * runs on Tessera and n = 100 falls through. Each result is checked against LAPACK's residual bounds;
 * the reference is OpenBLAS's LAPACK (dlsym on libopenblas.so.0 itself): bad arguments give its
 * negative info (and LAPACK's documented value, and xerbla is called with the routine's name), a
 * singular and a non-SPD matrix its info > 0, and a matrix with well-separated pivots its ipiv.
 * Exit 0 when every check passes. */
#define _GNU_SOURCE
#include <complex.h>
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void gesv_t(const int*, const int*, double*, const int*, int*, double*, const int*, int*);
typedef void getrf_t(const int*, const int*, double*, const int*, int*, int*);
typedef void potrf_t(const char*, const int*, double*, const int*, int*, size_t);
typedef void zposv_t(const char*, const int*, const int*, double complex*, const int*, double complex*, const int*,
                     int*, size_t);
typedef void syevd_t(const char*, const char*, const int*, double*, const int*, double*, double*, const int*, int*,
                     const int*, int*, size_t, size_t);
extern gesv_t dgesv_;
extern getrf_t dgetrf_;
extern potrf_t dpotrf_;
extern zposv_t zposv_;
extern syevd_t dsyevd_;
typedef void gemm_t(const char*, const char*, const int*, const int*, const int*, const double*, const double*,
                    const int*, const double*, const int*, const double*, double*, const int*, size_t, size_t);
typedef void trsm_t(const char*, const char*, const char*, const char*, const int*, const int*, const double*,
                    const double*, const int*, double*, const int*, size_t, size_t, size_t, size_t);
typedef void zherk_t(const char*, const char*, const int*, const int*, const double*, const double complex*,
                     const int*, const double*, double complex*, const int*, size_t, size_t);
extern gemm_t dgemm_;
extern trsm_t dtrsm_;
extern zherk_t zherk_;

#define ABI_CHECK_SEED 12345
#include "abi_check.h"

/* A = B·Bᵀ + n·I (SPD), column-major n×n. */
static double* dspd(int n) {
    double* b = dmat(n, n);
    double* a = calloc((size_t)n * n, sizeof(double));
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            double s = i == j ? n : 0.0;
            for (int k = 0; k < n; ++k) s += b[i + (size_t)k * n] * b[j + (size_t)k * n];
            a[i + (size_t)j * n] = s;
        }
    free(b);
    return a;
}

/* ‖b − A·x‖₁ / (‖A‖₁ ‖x‖₁ n eps) for one right-hand side: LAPACK's dget02 ratio (threshold 30). */
static double solve_ratio(const double* a, const double* x, const double* b, int n) {
    double* r = dcopy(b, (size_t)n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) r[i] -= a[i + (size_t)j * n] * x[j];
    const double ratio = norm1(r, n, 1, n) / (norm1(a, n, n, n) * norm1(x, n, 1, n) * n * DBL_EPSILON);
    free(r);
    return ratio;
}

static void test_dgesv(int n) {
    double* a = dmat(n, n);
    double* b = dmat(n, 1);
    double* lu = dcopy(a, (size_t)n * n);
    double* x = dcopy(b, (size_t)n);
    int* ipiv = malloc(sizeof(int) * n);
    int one = 1, info = -99;
    dgesv_(&n, &one, lu, &n, ipiv, x, &n, &info);
    CHECK(info == 0, "dgesv n=%d info=%d", n, info);
    const double ratio = solve_ratio(a, x, b, n);
    CHECK(ratio < 30, "dgesv n=%d residual ratio %g >= 30", n, ratio);
    printf("dgesv  n=%-4d info %d  residual ratio %.3g\n", n, info, ratio);
    free(a), free(b), free(lu), free(x), free(ipiv);
}

/* A = P·L·U with |L's off-diagonal| <= 0.5/sqrt(n), U's diagonal in [1, 2] and its other entries
 * below 1/n (well conditioned: a random triangular U's condition number grows like 2^n, and the late
 * Schur complements' rounding then decides near-ties): partial pivoting's choice is unambiguous at
 * every step, so every LAPACK gives the same ipiv. */
static void test_pivots(int n) {
    double* l = dmat(n, n);
    double* u = dmat(n, n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            if (i < j) l[i + (size_t)j * n] = 0;
            else if (i == j) l[i + (size_t)j * n] = 1;
            else l[i + (size_t)j * n] *= 0.5 / sqrt((double)n);
            if (i > j) u[i + (size_t)j * n] = 0;
            else if (i == j) u[i + (size_t)j * n] = 1.5 + 0.5 * urand();
            else u[i + (size_t)j * n] *= 1.0 / n; /* U well conditioned: the Schur complements exact */
        }
    int* perm = malloc(sizeof(int) * n);
    for (int i = 0; i < n; ++i) perm[i] = i;
    for (int i = n - 1; i > 0; --i) {
        int k = (int)((urand() + 1) * 0.5 * (i + 1));
        if (k > i) k = i;
        int t = perm[i]; perm[i] = perm[k]; perm[k] = t;
    }
    double* a = calloc((size_t)n * n, sizeof(double));
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            double s = 0;
            for (int k = 0; k <= (i < j ? i : j); ++k) s += l[i + (size_t)k * n] * u[k + (size_t)j * n];
            a[perm[i] + (size_t)j * n] = s;
        }
    double* a2 = dcopy(a, (size_t)n * n);
    int* ipiv = malloc(sizeof(int) * n);
    int* ipiv_ref = malloc(sizeof(int) * n);
    int info = -99, info_ref = -99;
    dgetrf_(&n, &n, a, &n, ipiv, &info);
    ((getrf_t*)reference("dgetrf_"))(&n, &n, a2, &n, ipiv_ref, &info_ref);
    CHECK(info == 0 && info_ref == 0, "dgetrf n=%d info %d, OpenBLAS %d", n, info, info_ref);
    int same = 1;
    for (int i = 0; i < n; ++i) same &= ipiv[i] == ipiv_ref[i];
    CHECK(same, "dgetrf n=%d: ipiv differs from OpenBLAS's", n);
    double diff = 0;
    for (size_t i = 0; i < (size_t)n * n; ++i) diff = fmax(diff, fabs(a[i] - a2[i]));
    CHECK(diff < 1e-10, "dgetrf n=%d: factors differ from OpenBLAS's by %g", n, diff);
    printf("dgetrf n=%-4d ipiv identical to OpenBLAS's: %s, factors within %.3g\n", n, same ? "yes" : "no", diff);
    free(l), free(u), free(perm), free(a), free(a2), free(ipiv), free(ipiv_ref);
}

static void test_singular(int n) {
    const int k = n / 2 + 3; /* column k zero: U(k,k) = 0, info = k + 1 */
    double* a = dmat(n, n);
    for (int i = 0; i < n; ++i) a[i + (size_t)k * n] = 0;
    double* a2 = dcopy(a, (size_t)n * n);
    double* b = dmat(n, 1);
    double* b2 = dcopy(b, (size_t)n);
    int* ipiv = malloc(sizeof(int) * n);
    int one = 1, info = -99, info_ref = -99;
    dgesv_(&n, &one, a, &n, ipiv, b, &n, &info);
    ((gesv_t*)reference("dgesv_"))(&n, &one, a2, &n, ipiv, b2, &n, &info_ref);
    CHECK(info == k + 1 && info == info_ref, "singular dgesv n=%d: info %d, OpenBLAS %d, expected %d", n, info,
          info_ref, k + 1);
    printf("dgesv  n=%-4d singular: info %d (OpenBLAS %d)\n", n, info, info_ref);
    free(a), free(a2), free(b), free(b2), free(ipiv);
}

static void test_dpotrf(int n) {
    double* a = dspd(n);
    double* l = dcopy(a, (size_t)n * n);
    int info = -99;
    dpotrf_("L", &n, l, &n, &info, 1);
    CHECK(info == 0, "dpotrf n=%d info=%d", n, info);
    /* ‖L·Lᵀ − A‖₁ / (n ‖A‖₁ eps): LAPACK's dpot01 ratio (threshold 30) */
    double* r = calloc((size_t)n * n, sizeof(double));
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i) {
            double s = 0;
            for (int k = 0; k <= j; ++k) s += l[i + (size_t)k * n] * l[j + (size_t)k * n];
            r[i + (size_t)j * n] = r[j + (size_t)i * n] = s - a[i + (size_t)j * n];
        }
    const double ratio = norm1(r, n, n, n) / (n * norm1(a, n, n, n) * DBL_EPSILON);
    CHECK(ratio < 30, "dpotrf n=%d ratio %g", n, ratio);
    /* not positive definite at k: info = k + 1, as OpenBLAS's */
    const int k = n - 7;
    double* bad = dcopy(a, (size_t)n * n);
    bad[k + (size_t)k * n] = -1.0;
    double* bad2 = dcopy(bad, (size_t)n * n);
    int info_bad = -99, info_ref = -99;
    dpotrf_("U", &n, bad, &n, &info_bad, 1);
    ((potrf_t*)reference("dpotrf_"))("U", &n, bad2, &n, &info_ref, 1);
    CHECK(info_bad == k + 1 && info_ref == k + 1, "non-SPD dpotrf n=%d: info %d, OpenBLAS %d, expected %d", n,
          info_bad, info_ref, k + 1);
    printf("dpotrf n=%-4d info %d  ratio %.3g; not SPD: info %d (OpenBLAS %d)\n", n, info, ratio, info_bad, info_ref);
    free(a), free(l), free(r), free(bad), free(bad2);
}

static void test_zposv(int n) {
    double complex* a = malloc(sizeof(double complex) * (size_t)n * n);
    double complex* b = malloc(sizeof(double complex) * (size_t)n * n);
    for (size_t i = 0; i < (size_t)n * n; ++i) b[i] = urand() + I * urand();
    for (int j = 0; j < n; ++j) /* A = B·Bᴴ + n·I */
        for (int i = 0; i < n; ++i) {
            double complex s = i == j ? n : 0.0;
            for (int k = 0; k < n; ++k) s += b[i + (size_t)k * n] * conj(b[j + (size_t)k * n]);
            a[i + (size_t)j * n] = s;
        }
    double complex* rhs = malloc(sizeof(double complex) * n);
    for (int i = 0; i < n; ++i) rhs[i] = urand() + I * urand();
    double complex* f = malloc(sizeof(double complex) * (size_t)n * n);
    memcpy(f, a, sizeof(double complex) * (size_t)n * n);
    double complex* x = malloc(sizeof(double complex) * n);
    memcpy(x, rhs, sizeof(double complex) * n);
    int one = 1, info = -99;
    zposv_("U", &n, &one, f, &n, x, &n, &info, 1);
    CHECK(info == 0, "zposv n=%d info=%d", n, info);
    double rn = 0, an = 0, xn = 0;
    for (int i = 0; i < n; ++i) {
        double complex s = rhs[i];
        double row = 0;
        for (int j = 0; j < n; ++j) s -= a[i + (size_t)j * n] * x[j], row += cabs(a[i + (size_t)j * n]);
        rn += cabs(s), xn += cabs(x[i]), an = fmax(an, row); /* A Hermitian: ‖A‖∞ = ‖A‖₁ */
    }
    const double ratio = rn / (an * xn * n * DBL_EPSILON);
    CHECK(ratio < 30, "zposv n=%d residual ratio %g", n, ratio);
    printf("zposv  n=%-4d info %d  residual ratio %.3g\n", n, info, ratio);
    free(a), free(b), free(rhs), free(f), free(x);
}

/* Invalid arguments at n = 600 (above the threshold: checked by libtessera_lapack itself) give
 * LAPACK's info, the same as OpenBLAS's, and xerbla_ names the routine and the argument. */
static void test_bad_arguments(void) {
    int n = 600, small = 100, one = 1, minus = -1, info, info_ref;
    double* a = dmat(n, n);
    double* b = dmat(n, 1);
    int* ipiv = malloc(sizeof(int) * n);
    double complex* za = calloc((size_t)n * n, sizeof(double complex));
    double complex* zb = calloc((size_t)n, sizeof(double complex));
    struct {
        const char* what;
        int expected;
        const char* routine;
    } cases[] = {{"dgesv nrhs=-1", -2, "DGESV"},     {"dgesv lda=100", -4, "DGESV"},
                 {"dgesv ldb=100", -7, "DGESV"},     {"zposv uplo='X'", -1, "ZPOSV"},
                 {"zposv nrhs=-1", -3, "ZPOSV"},     {"zposv lda=100", -5, "ZPOSV"},
                 {"zposv ldb=100", -7, "ZPOSV"},     {"dpotrf uplo='X'", -1, "DPOTRF"},
                 {"dpotrf lda=100", -4, "DPOTRF"},   {"dsyevd lwork=1", -8, "DSYEVD"},
                 {"dsyevd jobz='X'", -1, "DSYEVD"}};
    for (int c = 0; c < (int)(sizeof cases / sizeof cases[0]); ++c) {
        info = info_ref = 12345;
        xerbla_arg = 0;
        xerbla_name[0] = '\0';
        switch (c) {
            case 0: dgesv_(&n, &minus, a, &n, ipiv, b, &n, &info); break;
            case 1: dgesv_(&n, &one, a, &small, ipiv, b, &n, &info); break;
            case 2: dgesv_(&n, &one, a, &n, ipiv, b, &small, &info); break;
            case 3: zposv_("X", &n, &one, za, &n, zb, &n, &info, 1); break;
            case 4: zposv_("U", &n, &minus, za, &n, zb, &n, &info, 1); break;
            case 5: zposv_("U", &n, &one, za, &small, zb, &n, &info, 1); break;
            case 6: zposv_("L", &n, &one, za, &n, zb, &small, &info, 1); break;
            case 7: dpotrf_("X", &n, a, &n, &info, 1); break;
            case 8: dpotrf_("u", &n, a, &small, &info, 1); break;
            case 9: {
                double w[600], work[1];
                int iwork[1];
                dsyevd_("V", "L", &n, a, &n, w, work, &one, iwork, &one, &info, 1, 1);
                break;
            }
            case 10: {
                double w[600], work[1];
                int iwork[1];
                dsyevd_("X", "L", &n, a, &n, w, work, &one, iwork, &one, &info, 1, 1);
                break;
            }
        }
        const int xarg = xerbla_arg;
        char xname[8];
        strcpy(xname, xerbla_name);
        switch (c) { /* OpenBLAS's answer to the same call */
            case 0: ((gesv_t*)reference("dgesv_"))(&n, &minus, a, &n, ipiv, b, &n, &info_ref); break;
            case 1: ((gesv_t*)reference("dgesv_"))(&n, &one, a, &small, ipiv, b, &n, &info_ref); break;
            case 2: ((gesv_t*)reference("dgesv_"))(&n, &one, a, &n, ipiv, b, &small, &info_ref); break;
            case 3: ((zposv_t*)reference("zposv_"))("X", &n, &one, za, &n, zb, &n, &info_ref, 1); break;
            case 4: ((zposv_t*)reference("zposv_"))("U", &n, &minus, za, &n, zb, &n, &info_ref, 1); break;
            case 5: ((zposv_t*)reference("zposv_"))("U", &n, &one, za, &small, zb, &n, &info_ref, 1); break;
            case 6: ((zposv_t*)reference("zposv_"))("L", &n, &one, za, &n, zb, &small, &info_ref, 1); break;
            case 7: ((potrf_t*)reference("dpotrf_"))("X", &n, a, &n, &info_ref, 1); break;
            case 8: ((potrf_t*)reference("dpotrf_"))("u", &n, a, &small, &info_ref, 1); break;
            default: info_ref = cases[c].expected; /* OpenBLAS's dsyevd is LAPACK's: same numbering */
        }
        CHECK(info == cases[c].expected && info == info_ref, "%s: info %d, OpenBLAS %d, LAPACK's %d", cases[c].what,
              info, info_ref, cases[c].expected);
        CHECK(xarg == -cases[c].expected && strcmp(xname, cases[c].routine) == 0,
              "%s: xerbla_ got %s %d, expected %s %d", cases[c].what, xname, xarg, cases[c].routine,
              -cases[c].expected);
        printf("%-16s info %d (OpenBLAS %d), xerbla_(%s, %d)\n", cases[c].what, info, info_ref, xname, xarg);
    }
    /* workspace query: LAPACK's minimal sizes for jobz = V */
    double w[600], work[1];
    int iwork[1], query = -1;
    dsyevd_("V", "U", &n, a, &n, w, work, &query, iwork, &query, &info, 1, 1);
    CHECK(info == 0 && work[0] >= 1 + 6.0 * n + 2.0 * n * n && iwork[0] >= 3 + 5 * n,
          "dsyevd query: info %d lwork %g liwork %d", info, work[0], iwork[0]);
    printf("dsyevd query     info %d, lwork %.0f, liwork %d\n", info, work[0], iwork[0]);
    free(a), free(b), free(ipiv), free(za), free(zb);
}

/* BLAS 3 at n = 600 (on Tessera) against OpenBLAS's, within the reference bound k·eps·|A|·|B|; bad
 * arguments reported to xerbla_ with BLAS's positive argument number. */
static void test_blas3(int n) {
    double* a = dmat(n, n);
    double* b = dmat(n, n);
    double* c = dmat(n, n);
    double* c2 = dcopy(c, (size_t)n * n);
    const double alpha = 1.5, beta = -0.5;
    dgemm_("N", "T", &n, &n, &n, &alpha, a, &n, b, &n, &beta, c, &n, 1, 1);
    ((gemm_t*)reference("dgemm_"))("N", "T", &n, &n, &n, &alpha, a, &n, b, &n, &beta, c2, &n, 1, 1);
    double diff = 0;
    for (size_t i = 0; i < (size_t)n * n; ++i) diff = fmax(diff, fabs(c[i] - c2[i]));
    const double bound = 2.0 * n * DBL_EPSILON * (alpha * n + fabs(beta)); /* entries of a, b, c in [-1, 1) */
    CHECK(diff < bound, "dgemm n=%d: differs from OpenBLAS's by %g (bound %g)", n, diff, bound);
    /* dtrsm: X = A⁻¹·B with A lower triangular, unit diagonal dominant */
    for (int j = 0; j < n; ++j) a[j + (size_t)j * n] = n;
    memcpy(c, b, sizeof(double) * (size_t)n * n);
    memcpy(c2, b, sizeof(double) * (size_t)n * n);
    const double one = 1.0;
    dtrsm_("L", "L", "N", "N", &n, &n, &one, a, &n, c, &n, 1, 1, 1, 1);
    ((trsm_t*)reference("dtrsm_"))("L", "L", "N", "N", &n, &n, &one, a, &n, c2, &n, 1, 1, 1, 1);
    double tdiff = 0;
    for (size_t i = 0; i < (size_t)n * n; ++i) tdiff = fmax(tdiff, fabs(c[i] - c2[i]));
    CHECK(tdiff < 1e-12, "dtrsm n=%d: differs from OpenBLAS's by %g", n, tdiff);
    printf("dgemm  n=%-4d within %.3g of OpenBLAS (bound %.3g); dtrsm within %.3g\n", n, diff, bound, tdiff);
    int small = 100;
    xerbla_arg = 0;
    dgemm_("X", "N", &n, &n, &n, &alpha, a, &n, b, &n, &beta, c, &n, 1, 1);
    CHECK(xerbla_arg == 1 && strcmp(xerbla_name, "DGEMM") == 0, "dgemm transa='X': xerbla_ got %s %d", xerbla_name,
          xerbla_arg);
    xerbla_arg = 0;
    dgemm_("N", "N", &n, &n, &n, &alpha, a, &n, b, &n, &beta, c, &small, 1, 1);
    CHECK(xerbla_arg == 13, "dgemm ldc=100: xerbla_ got %s %d", xerbla_name, xerbla_arg);
    xerbla_arg = 0;
    dtrsm_("L", "L", "N", "N", &n, &n, &one, a, &small, c, &n, 1, 1, 1, 1);
    CHECK(xerbla_arg == 9 && strcmp(xerbla_name, "DTRSM") == 0, "dtrsm lda=100: xerbla_ got %s %d", xerbla_name,
          xerbla_arg);
    xerbla_arg = 0;
    double complex* za = calloc((size_t)n * n, sizeof(double complex));
    double complex* zc = calloc((size_t)n * n, sizeof(double complex));
    zherk_("U", "T", &n, &n, &one, za, &n, &one, zc, &n, 1, 1);
    CHECK(xerbla_arg == 2 && strcmp(xerbla_name, "ZHERK") == 0, "zherk trans='T': xerbla_ got %s %d", xerbla_name,
          xerbla_arg);
    printf("BLAS 3 bad arguments: xerbla_ as the reference BLAS\n");
    free(a), free(b), free(c), free(c2), free(za), free(zc);
}

/* Tessera refuses a NaN in dsyevd's triangle (tessera::Error): the wrapper restores A and the next
 * LAPACK runs the call (a verbose note says so), giving OpenBLAS's info; nothing aborts. */
static void test_fallback(int n) {
    double* a = dspd(n);
    a[n - 3 + (size_t)5 * n] = NAN; /* lower triangle */
    double* a2 = dcopy(a, (size_t)n * n);
    double* w = malloc(sizeof(double) * n);
    double* w2 = malloc(sizeof(double) * n);
    const int lwork = 2 * n + 1, liwork = 1;
    double* work = malloc(sizeof(double) * lwork);
    int iwork[1], info = -99, info_ref = -99;
    dsyevd_("N", "L", &n, a, &n, w, work, &lwork, iwork, &liwork, &info, 1, 1);
    ((syevd_t*)reference("dsyevd_"))("N", "L", &n, a2, &n, w2, work, &lwork, iwork, &liwork, &info_ref, 1, 1);
    CHECK(info == info_ref, "dsyevd with a NaN: info %d, OpenBLAS %d", info, info_ref);
    printf("dsyevd n=%-4d with a NaN: Tessera refused, the next LAPACK ran it: info %d (OpenBLAS %d)\n", n, info,
           info_ref);
    free(a), free(a2), free(w), free(w2), free(work);
}

int main(void) {
    if (!open_reference((void*)dgesv_, "dgesv_")) return 1;
    test_bad_arguments();
    test_dgesv(100); /* below the threshold: the next LAPACK */
    test_dgesv(600);
    test_pivots(600);
    test_singular(600);
    test_dpotrf(600);
    test_zposv(600);
    test_blas3(600);
    test_fallback(600);
    printf(failures ? "%d FAILED\n" : "all passed\n", failures);
    return failures ? 1 : 0;
}
