/* The routines that take a factorization's output, through the Fortran ABI: the condition estimates
 * dgecon_, dpocon_, dtrcon_ and the inverses dtrtri_, dlauum_, dpotri_, dgetri_ at n = 300 (on
 * Tessera with TESSERA_LAPACK_MIN_N=256), built and run as lapack_abi_c.c is. The factors come from
 * OpenBLAS's own dgetrf_ / dpotrf_ (dlsym on libopenblas.so.0). Checks: the estimates within a
 * factor 3 of OpenBLAS's dgecon_ / dpocon_ / dtrcon_ on the same factors, and WORK / IWORK not
 * written; the inverses within LAPACK's residual bounds (xTRT01's, xPOT03's, xGET03's ratios
 * ‖I − A·X‖₁/(n‖A‖₁‖X‖₁eps) < 30) and dlauum within 4·n·eps·n of OpenBLAS's; dgetri_'s workspace
 * query; a zero diagonal entry gives LAPACK's info (its index) with A unchanged; bad arguments give
 * LAPACK 3.11's negative info (the same as OpenBLAS's) and xerbla_ names the routine; zgecon_ (RWORK
 * untouched) and zgetri_ likewise. */
#define _GNU_SOURCE
#include <complex.h>
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void getrf_t(const int*, const int*, double*, const int*, int*, int*);
typedef void potrf_t(const char*, const int*, double*, const int*, int*, size_t);
typedef void gecon_t(const char*, const int*, const double*, const int*, const double*, double*, double*, int*, int*,
                     size_t);
typedef void trcon_t(const char*, const char*, const char*, const int*, const double*, const int*, double*, double*,
                     int*, int*, size_t, size_t, size_t);
typedef void trtri_t(const char*, const char*, const int*, double*, const int*, int*, size_t, size_t);
typedef void lauum_t(const char*, const int*, double*, const int*, int*, size_t);
typedef void getri_t(const int*, double*, const int*, const int*, double*, const int*, int*);
extern gecon_t dgecon_, dpocon_;
extern trcon_t dtrcon_;
extern trtri_t dtrtri_;
extern lauum_t dlauum_, dpotri_;
extern getri_t dgetri_;
typedef double complex zc;
typedef void zgetrf_t(const int*, const int*, zc*, const int*, int*, int*);
typedef void zgecon_t(const char*, const int*, const zc*, const int*, const double*, double*, zc*, double*, int*,
                      size_t);
extern zgecon_t zgecon_;
extern void zgetri_(const int*, zc*, const int*, const int*, zc*, const int*, int*);

#define ABI_CHECK_SEED 9090
#include "abi_check.h"

/* A random n×n matrix plus d on its diagonal (d = 0: general; d = n: well conditioned). */
static double* dshifted(int n, double d) {
    double* a = dmat(n, n);
    for (int i = 0; i < n; ++i) a[i + (size_t)i * n] += d;
    return a;
}
/* The SPD A·Aᵀ + n·I. */
static double* dspd(int n) {
    double* b = dmat(n, n);
    double* a = calloc((size_t)n * n, sizeof(double));
    for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
            for (int i = 0; i < n; ++i) a[i + (size_t)j * n] += b[i + (size_t)k * n] * b[j + (size_t)k * n];
    for (int i = 0; i < n; ++i) a[i + (size_t)i * n] += n;
    free(b);
    return a;
}
/* ‖I − A·X‖₁ / (n ‖A‖₁ ‖X‖₁ eps). */
static double inverse_ratio(const double* a, const double* x, int n) {
    double* r = calloc((size_t)n * n, sizeof(double));
    for (int i = 0; i < n; ++i) r[i + (size_t)i * n] = 1;
    for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
            for (int i = 0; i < n; ++i) r[i + (size_t)j * n] -= a[i + (size_t)k * n] * x[k + (size_t)j * n];
    const double ratio = norm1(r, n, n, n) / (n * norm1(a, n, n, n) * norm1(x, n, n, n) * DBL_EPSILON);
    free(r);
    return ratio;
}
/* The triangle uplo of a (the other one zero), or its symmetric completion. */
static double* triangle(const double* a, int n, char uplo, int symmetric) {
    double* t = calloc((size_t)n * n, sizeof(double));
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            if (uplo == 'U' ? i <= j : i >= j) {
                t[i + (size_t)j * n] = a[i + (size_t)j * n];
                if (symmetric) t[j + (size_t)i * n] = a[i + (size_t)j * n];
            }
    return t;
}
static int untouched(const double* w, int len) {
    for (int i = 0; i < len; ++i)
        if (w[i] != -7.0) return 0;
    return 1;
}

static void test_condition(int n) {
    double* a = dshifted(n, 0.2 * sqrt((double)n)); /* κ₁ in the hundreds */
    double* spd = dspd(n);
    const double anorm = norm1(a, n, n, n), snorm = norm1(spd, n, n, n);
    int* ipiv = malloc(sizeof(int) * n);
    int* iwork = malloc(sizeof(int) * n);
    double* work = malloc(sizeof(double) * 4 * n);
    int info = -99, info_ref = -99;
    ((getrf_t*)reference("dgetrf_"))(&n, &n, a, &n, ipiv, &info);
    ((potrf_t*)reference("dpotrf_"))("U", &n, spd, &n, &info_ref, 1);
    CHECK(info == 0 && info_ref == 0, "the factors: dgetrf info %d, dpotrf info %d", info, info_ref);
    double* lspd = dspd(n); /* the lower factor too */
    ((potrf_t*)reference("dpotrf_"))("L", &n, lspd, &n, &info_ref, 1);
    for (int c = 0; c < 12; ++c) {
        double rcond = -1, rcond_ref = -2;
        const char* norm = c % 2 ? "I" : "O";
        const char* uplo = (c / 2) % 2 ? "L" : "U";
        const char* diag = c >= 8 ? "U" : "N";
        const char* what;
        for (int i = 0; i < 4 * n; ++i) work[i] = -7.0;
        for (int i = 0; i < n; ++i) iwork[i] = -7;
        info = info_ref = -99;
        if (c < 2) {
            what = "dgecon";
            dgecon_(norm, &n, a, &n, &anorm, &rcond, work, iwork, &info, 1);
        } else if (c < 4) {
            what = "dpocon";
            norm = "-";
            uplo = c == 2 ? "U" : "L";
            dpocon_(uplo, &n, c == 2 ? spd : lspd, &n, &snorm, &rcond, work, iwork, &info, 1);
        } else {
            what = "dtrcon";
            dtrcon_(norm, uplo, diag, &n, a, &n, &rcond, work, iwork, &info, 1, 1, 1);
        }
        const int clean = untouched(work, 4 * n);
        int iclean = 1;
        for (int i = 0; i < n; ++i) iclean &= iwork[i] == -7;
        if (c < 2) ((gecon_t*)reference("dgecon_"))(norm, &n, a, &n, &anorm, &rcond_ref, work, iwork, &info_ref, 1);
        else if (c < 4)
            ((gecon_t*)reference("dpocon_"))(uplo, &n, c == 2 ? spd : lspd, &n, &snorm, &rcond_ref, work, iwork,
                                             &info_ref, 1);
        else ((trcon_t*)reference("dtrcon_"))(norm, uplo, diag, &n, a, &n, &rcond_ref, work, iwork, &info_ref, 1, 1, 1);
        const double ratio = rcond / rcond_ref;
        CHECK(info == 0 && info_ref == 0 && ratio > 1.0 / 3 && ratio < 3 && clean && iclean,
              "%s %s%s%s: info %d (OpenBLAS %d), rcond %g, OpenBLAS's %g, work untouched %d, iwork %d", what, norm,
              uplo, diag, info, info_ref, rcond, rcond_ref, clean, iclean);
        printf("%s norm %s uplo %s diag %s n=%d: rcond %.4g, OpenBLAS's %.4g\n", what, norm, uplo, diag, n, rcond,
               rcond_ref);
    }
    free(a), free(spd), free(lspd), free(ipiv), free(iwork), free(work);
}

static void test_inverses(int n) {
    char what[40];
    int info = -99;
    /* dtrtri_: the triangle of a well-conditioned matrix, both uplo, both diag */
    double* a = dshifted(n, n);
    for (int c = 0; c < 4; ++c) {
        const char uplo = c % 2 ? 'L' : 'U', diag = c < 2 ? 'N' : 'U';
        double* x = dcopy(a, (size_t)n * n);
        dtrtri_(&uplo, &diag, &n, x, &n, &info, 1, 1);
        double* t = triangle(a, n, uplo, 0);
        double* xt = triangle(x, n, uplo, 0);
        if (diag == 'U')
            for (int i = 0; i < n; ++i) t[i + (size_t)i * n] = xt[i + (size_t)i * n] = 1;
        const double ratio = inverse_ratio(t, xt, n);
        snprintf(what, sizeof what, "dtrtri %c%c n=%d", uplo, diag, n);
        CHECK(info == 0 && ratio < 30, "%s: info %d, ratio %g", what, info, ratio);
        printf("%-20s info %d, ratio %.3g\n", what, info, ratio);
        free(x), free(t), free(xt);
    }
    /* dlauum_ against OpenBLAS's */
    for (int c = 0; c < 2; ++c) {
        const char uplo = c ? 'L' : 'U';
        double *x = dcopy(a, (size_t)n * n), *ref = dcopy(a, (size_t)n * n);
        int info_ref = -99;
        dlauum_(&uplo, &n, x, &n, &info, 1);
        ((lauum_t*)reference("dlauum_"))(&uplo, &n, ref, &n, &info_ref, 1);
        double diff = 0, big = 0;
        for (size_t i = 0; i < (size_t)n * n; ++i) diff = fmax(diff, fabs(x[i] - ref[i])), big = fmax(big, fabs(a[i]));
        const double bound = 4.0 * n * DBL_EPSILON * n * big * big;
        CHECK(info == 0 && info_ref == 0 && diff < bound, "dlauum %c: info %d, differs by %g (bound %g)", uplo, info,
              diff, bound);
        printf("dlauum %c n=%d        info %d, within %.3g of OpenBLAS (bound %.3g)\n", uplo, n, info, diff, bound);
        free(x), free(ref);
    }
    /* dpotri_ on OpenBLAS's dpotrf_ factor */
    double* spd = dspd(n);
    for (int c = 0; c < 2; ++c) {
        const char uplo = c ? 'L' : 'U';
        double* x = dcopy(spd, (size_t)n * n);
        ((potrf_t*)reference("dpotrf_"))(&uplo, &n, x, &n, &info, 1);
        dpotri_(&uplo, &n, x, &n, &info, 1);
        double* xs = triangle(x, n, uplo, 1);
        const double ratio = inverse_ratio(spd, xs, n);
        CHECK(info == 0 && ratio < 30, "dpotri %c: info %d, ratio %g", uplo, info, ratio);
        printf("dpotri %c n=%d        info %d, ratio %.3g\n", uplo, n, info, ratio);
        free(x), free(xs);
    }
    /* dgetri_: the workspace query, then the inverse from OpenBLAS's dgetrf_ factors */
    double* g = dshifted(n, 0.5 * sqrt((double)n));
    double* x = dcopy(g, (size_t)n * n);
    int* ipiv = malloc(sizeof(int) * n);
    double query = 0;
    int minus = -1;
    ((getrf_t*)reference("dgetrf_"))(&n, &n, x, &n, ipiv, &info);
    dgetri_(&n, x, &n, ipiv, &query, &minus, &info);
    CHECK(info == 0 && query >= n, "dgetri query: info %d, lwork %g", info, query);
    int lwork = (int)query;
    double* work = malloc(sizeof(double) * (size_t)lwork);
    dgetri_(&n, x, &n, ipiv, work, &lwork, &info);
    const double ratio = inverse_ratio(g, x, n);
    CHECK(info == 0 && ratio < 30, "dgetri: info %d, ratio %g", info, ratio);
    printf("dgetri n=%d          query lwork %d, info %d, ratio %.3g\n", n, lwork, info, ratio);
    /* a wrong inverse is caught: one entry off by 1e-6 */
    x[3] += 1e-6;
    CHECK(inverse_ratio(g, x, n) >= 30, "the ratio does not reject a perturbed inverse");
    /* singular: a zero at diagonal entry 17 gives info 17 (LAPACK's), A unchanged */
    const int k = 17;
    for (int r = 0; r < 3; ++r) {
        double* s = dcopy(a, (size_t)n * n);
        s[(k - 1) + (size_t)(k - 1) * n] = 0;
        double* s0 = dcopy(s, (size_t)n * n);
        info = -99;
        const char* name = r == 0 ? "dtrtri" : r == 1 ? "dpotri" : "dgetri";
        if (r == 0) dtrtri_("U", "N", &n, s, &n, &info, 1, 1);
        else if (r == 1) dpotri_("L", &n, s, &n, &info, 1);
        else dgetri_(&n, s, &n, ipiv, work, &lwork, &info);
        CHECK(info == k && memcmp(s, s0, sizeof(double) * (size_t)n * n) == 0, "%s singular: info %d, LAPACK's %d%s",
              name, info, k, memcmp(s, s0, sizeof(double) * (size_t)n * n) ? ", A changed" : "");
        printf("%s singular n=%d    info %d (LAPACK's %d), A unchanged\n", name, n, info, k);
        free(s), free(s0);
    }
    free(a), free(spd), free(g), free(x), free(ipiv), free(work);
}

/* Complex: zgecon_ against OpenBLAS's on its zgetrf_ factors (RWORK untouched), zgetri_'s query
 * and its inverse by xGET03's ratio. */
static void test_complex(int n) {
    zc* a = malloc(sizeof(zc) * (size_t)n * n);
    for (size_t i = 0; i < (size_t)n * n; ++i) a[i] = urand() + I * urand();
    for (int i = 0; i < n; ++i) a[i + (size_t)i * n] += sqrt((double)n);
    zc* f = malloc(sizeof(zc) * (size_t)n * n);
    memcpy(f, a, sizeof(zc) * (size_t)n * n);
    int* ipiv = malloc(sizeof(int) * n);
    int info = -99, info_ref = -99, minus = -1;
    ((zgetrf_t*)reference("zgetrf_"))(&n, &n, f, &n, ipiv, &info);
    double anorm = 0;
    for (int j = 0; j < n; ++j) {
        double col = 0;
        for (int i = 0; i < n; ++i) col += cabs(a[i + (size_t)j * n]);
        anorm = fmax(anorm, col);
    }
    zc* work = malloc(sizeof(zc) * 2 * n);
    double* rwork = malloc(sizeof(double) * 2 * n);
    for (int i = 0; i < 2 * n; ++i) rwork[i] = -7.0;
    double rcond = -1, rcond_ref = -2;
    zgecon_("1", &n, f, &n, &anorm, &rcond, work, rwork, &info, 1);
    const int clean = untouched(rwork, 2 * n);
    ((zgecon_t*)reference("zgecon_"))("1", &n, f, &n, &anorm, &rcond_ref, work, rwork, &info_ref, 1);
    CHECK(info == 0 && rcond / rcond_ref > 1.0 / 3 && rcond / rcond_ref < 3 && clean,
          "zgecon: info %d, rcond %g, OpenBLAS's %g, rwork untouched %d", info, rcond, rcond_ref, clean);
    printf("zgecon norm 1 n=%d: rcond %.4g, OpenBLAS's %.4g\n", n, rcond, rcond_ref);
    zc query = 0;
    zgetri_(&n, f, &n, ipiv, &query, &minus, &info);
    int lwork = (int)creal(query);
    CHECK(info == 0 && lwork >= n, "zgetri query: info %d, lwork %d", info, lwork);
    zc* w = malloc(sizeof(zc) * (size_t)(lwork > n ? lwork : n));
    zgetri_(&n, f, &n, ipiv, w, &lwork, &info);
    zc* r = calloc((size_t)n * n, sizeof(zc)); /* I − A·X */
    for (int i = 0; i < n; ++i) r[i + (size_t)i * n] = 1;
    for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k)
            for (int i = 0; i < n; ++i) r[i + (size_t)j * n] -= a[i + (size_t)k * n] * f[k + (size_t)j * n];
    double rn = 0, xn = 0;
    for (int j = 0; j < n; ++j) {
        double rc = 0, xc = 0;
        for (int i = 0; i < n; ++i) rc += cabs(r[i + (size_t)j * n]), xc += cabs(f[i + (size_t)j * n]);
        rn = fmax(rn, rc), xn = fmax(xn, xc);
    }
    const double ratio = rn / (n * anorm * xn * DBL_EPSILON);
    CHECK(info == 0 && ratio < 30, "zgetri: info %d, ratio %g", info, ratio);
    printf("zgetri n=%d          query lwork %d, info %d, ratio %.3g\n", n, lwork, info, ratio);
    free(a), free(f), free(ipiv), free(work), free(rwork), free(w), free(r);
}

/* Invalid arguments at n = 300: LAPACK 3.11's info, the same as OpenBLAS's, and xerbla_ names the routine. */
static void test_bad_arguments(int n) {
    int small = 100, one = 1, info, info_ref;
    double* a = dshifted(n, n);
    double* work = malloc(sizeof(double) * 4 * n);
    int* iwork = malloc(sizeof(int) * n);
    int* ipiv = malloc(sizeof(int) * n);
    for (int i = 0; i < n; ++i) ipiv[i] = i + 1;
    const double anorm = 1.0, negative = -1.0;
    double rcond;
    struct {
        const char* what;
        int expected;
        const char* routine;
    } cases[] = {{"dgecon norm=X", -1, "DGECON"}, {"dgecon lda=100", -4, "DGECON"}, {"dgecon anorm<0", -5, "DGECON"},
                 {"dpocon uplo=X", -1, "DPOCON"}, {"dpocon lda=100", -4, "DPOCON"}, {"dpocon anorm<0", -5, "DPOCON"},
                 {"dtrcon norm=X", -1, "DTRCON"}, {"dtrcon uplo=X", -2, "DTRCON"}, {"dtrcon diag=X", -3, "DTRCON"},
                 {"dtrcon lda=100", -6, "DTRCON"}, {"dtrtri uplo=X", -1, "DTRTRI"}, {"dtrtri diag=X", -2, "DTRTRI"},
                 {"dtrtri lda=100", -5, "DTRTRI"}, {"dlauum uplo=X", -1, "DLAUUM"}, {"dlauum lda=100", -4, "DLAUUM"},
                 {"dpotri uplo=X", -1, "DPOTRI"}, {"dpotri lda=100", -4, "DPOTRI"}, {"dgetri lda=100", -3, "DGETRI"},
                 {"dgetri lwork=1", -6, "DGETRI"}};
    for (int r = 0; r < 2; ++r) /* r = 0: libtessera_lapack, r = 1: OpenBLAS's */
        for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); ++i) {
            gecon_t* gecon = r ? (gecon_t*)reference("dgecon_") : dgecon_;
            gecon_t* pocon = r ? (gecon_t*)reference("dpocon_") : dpocon_;
            trcon_t* trcon = r ? (trcon_t*)reference("dtrcon_") : dtrcon_;
            trtri_t* trtri = r ? (trtri_t*)reference("dtrtri_") : dtrtri_;
            lauum_t* lauum = r ? (lauum_t*)reference("dlauum_") : dlauum_;
            lauum_t* potri = r ? (lauum_t*)reference("dpotri_") : dpotri_;
            getri_t* getri = r ? (getri_t*)reference("dgetri_") : dgetri_;
            info = info_ref = 12345;
            xerbla_arg = 0, xerbla_name[0] = '\0';
            switch (i) {
                case 0: gecon("X", &n, a, &n, &anorm, &rcond, work, iwork, &info, 1); break;
                case 1: gecon("1", &n, a, &small, &anorm, &rcond, work, iwork, &info, 1); break;
                case 2: gecon("I", &n, a, &n, &negative, &rcond, work, iwork, &info, 1); break;
                case 3: pocon("X", &n, a, &n, &anorm, &rcond, work, iwork, &info, 1); break;
                case 4: pocon("U", &n, a, &small, &anorm, &rcond, work, iwork, &info, 1); break;
                case 5: pocon("L", &n, a, &n, &negative, &rcond, work, iwork, &info, 1); break;
                case 6: trcon("X", "U", "N", &n, a, &n, &rcond, work, iwork, &info, 1, 1, 1); break;
                case 7: trcon("O", "X", "N", &n, a, &n, &rcond, work, iwork, &info, 1, 1, 1); break;
                case 8: trcon("I", "L", "X", &n, a, &n, &rcond, work, iwork, &info, 1, 1, 1); break;
                case 9: trcon("1", "U", "U", &n, a, &small, &rcond, work, iwork, &info, 1, 1, 1); break;
                case 10: trtri("X", "N", &n, a, &n, &info, 1, 1); break;
                case 11: trtri("U", "X", &n, a, &n, &info, 1, 1); break;
                case 12: trtri("L", "U", &n, a, &small, &info, 1, 1); break;
                case 13: lauum("X", &n, a, &n, &info, 1); break;
                case 14: lauum("U", &n, a, &small, &info, 1); break;
                case 15: potri("X", &n, a, &n, &info, 1); break;
                case 16: potri("L", &n, a, &small, &info, 1); break;
                case 17: getri(&n, a, &small, ipiv, work, &n, &info); break;
                case 18: getri(&n, a, &n, ipiv, work, &one, &info); break;
            }
            check_refusal(cases[i].what, cases[i].routine, cases[i].expected, info, r);
        }
    free(a), free(work), free(iwork), free(ipiv);
}

int main(void) {
    if (!open_reference((void*)dgetri_, "dgetri_")) return 1;
    test_bad_arguments(300);
    test_condition(300);
    test_inverses(300);
    test_complex(300);
    printf(failures ? "%d FAILED\n" : "all passed\n", failures);
    return failures ? 1 : 0;
}
