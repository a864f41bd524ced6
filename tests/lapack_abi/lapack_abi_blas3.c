/* BLAS 3 through the Fortran ABI beyond lapack_abi_c.c's: dtrmm_ (all 16 side/uplo/trans/diag
 * combinations), dsymm_, dsyr2k_, zhemm_, zher2k_ at n = 300 (on Tessera with
 * TESSERA_LAPACK_MIN_N=256) against OpenBLAS's own routines (dlsym on libopenblas.so.0), within the
 * reference bound 4·k·eps·(|alpha|·k·max|A|·max|B| + |beta|·max|C|) on every entry; bad arguments
 * reported to xerbla_ with the reference BLAS's positive argument number (dtrmm.f, dsymm.f,
 * dsyr2k.f, zhemm.f, zher2k.f). Built and run as lapack_abi_c.c is. Exit 0 when every check passes. */
#define _GNU_SOURCE
#include <complex.h>
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef double complex zc;
typedef void trmm_t(const char*, const char*, const char*, const char*, const int*, const int*, const double*,
                    const double*, const int*, double*, const int*, size_t, size_t, size_t, size_t);
typedef void symm_t(const char*, const char*, const int*, const int*, const double*, const double*, const int*,
                    const double*, const int*, const double*, double*, const int*, size_t, size_t);
typedef void syr2k_t(const char*, const char*, const int*, const int*, const double*, const double*, const int*,
                     const double*, const int*, const double*, double*, const int*, size_t, size_t);
typedef void zhemm_t(const char*, const char*, const int*, const int*, const zc*, const zc*, const int*, const zc*,
                     const int*, const zc*, zc*, const int*, size_t, size_t);
typedef void zher2k_t(const char*, const char*, const int*, const int*, const zc*, const zc*, const int*, const zc*,
                      const int*, const double*, zc*, const int*, size_t, size_t);
extern trmm_t dtrmm_;
extern symm_t dsymm_;
extern syr2k_t dsyr2k_;
extern zhemm_t zhemm_;
extern zher2k_t zher2k_;

#define ABI_CHECK_SEED 777
#include "abi_check.h"

static zc* zmat(int m, int n) {
    zc* a = malloc(sizeof(zc) * (size_t)m * n);
    for (size_t i = 0; i < (size_t)m * n; ++i) a[i] = urand() + I * urand();
    return a;
}
static double max_diff(const double* x, const double* y, size_t len) {
    double d = 0;
    for (size_t i = 0; i < len; ++i) d = fmax(d, fabs(x[i] - y[i]));
    return d;
}
/* One result against OpenBLAS's: both arrays viewed as doubles (2·len for complex). */
static void compare(const char* what, const double* c, const double* ref, size_t len, double bound) {
    const double diff = max_diff(c, ref, len);
    CHECK(diff < bound, "%s: differs from OpenBLAS's by %g (bound %g)", what, diff, bound);
    printf("%-22s within %.3g of OpenBLAS (bound %.3g)\n", what, diff, bound);
}

static void test_real(int n) {
    double* a = dmat(n, n);
    double* b = dmat(n, n);
    double* c0 = dmat(n, n);
    double *c = malloc(sizeof(double) * (size_t)n * n), *ref = malloc(sizeof(double) * (size_t)n * n);
    const size_t len = (size_t)n * n;
    const double alpha = 1.5, beta = -0.5;
    const char lr[] = "LR", ul[] = "UL", nt[] = "NT", du[] = "NU";
    char what[32];
    for (int s = 0; s < 16; ++s) {
        const char side = lr[s & 1], uplo = ul[(s >> 1) & 1], trans = nt[(s >> 2) & 1], diag = du[(s >> 3) & 1];
        memcpy(c, b, sizeof(double) * len), memcpy(ref, b, sizeof(double) * len);
        dtrmm_(&side, &uplo, &trans, &diag, &n, &n, &alpha, a, &n, c, &n, 1, 1, 1, 1);
        ((trmm_t*)reference("dtrmm_"))(&side, &uplo, &trans, &diag, &n, &n, &alpha, a, &n, ref, &n, 1, 1, 1, 1);
        snprintf(what, sizeof what, "dtrmm %c%c%c%c n=%d", side, uplo, trans, diag, n);
        compare(what, c, ref, len, 4.0 * n * DBL_EPSILON * alpha * n);
    }
    for (int s = 0; s < 4; ++s) {
        const char side = lr[s & 1], uplo = ul[s >> 1];
        memcpy(c, c0, sizeof(double) * len), memcpy(ref, c0, sizeof(double) * len);
        dsymm_(&side, &uplo, &n, &n, &alpha, a, &n, b, &n, &beta, c, &n, 1, 1);
        ((symm_t*)reference("dsymm_"))(&side, &uplo, &n, &n, &alpha, a, &n, b, &n, &beta, ref, &n, 1, 1);
        snprintf(what, sizeof what, "dsymm %c%c n=%d", side, uplo, n);
        compare(what, c, ref, len, 4.0 * n * DBL_EPSILON * (alpha * n + fabs(beta)));
    }
    for (int s = 0; s < 4; ++s) {
        const char uplo = ul[s & 1], trans = nt[s >> 1];
        memcpy(c, c0, sizeof(double) * len), memcpy(ref, c0, sizeof(double) * len);
        dsyr2k_(&uplo, &trans, &n, &n, &alpha, a, &n, b, &n, &beta, c, &n, 1, 1);
        ((syr2k_t*)reference("dsyr2k_"))(&uplo, &trans, &n, &n, &alpha, a, &n, b, &n, &beta, ref, &n, 1, 1);
        snprintf(what, sizeof what, "dsyr2k %c%c n=%d", uplo, trans, n);
        compare(what, c, ref, len, 4.0 * n * DBL_EPSILON * (2 * alpha * n + fabs(beta)));
    }
    /* a wrong result is caught: one entry of dsyr2k's last C off by 1e-8 */
    c[n + 1] += 1e-8;
    CHECK(max_diff(c, ref, len) >= 4.0 * n * DBL_EPSILON * (2 * alpha * n + fabs(beta)),
          "the bound does not reject a perturbed C");
    free(a), free(b), free(c0), free(c), free(ref);
}

static void test_complex(int n) {
    zc* a = zmat(n, n);
    zc* b = zmat(n, n);
    zc* c0 = zmat(n, n);
    zc *c = malloc(sizeof(zc) * (size_t)n * n), *ref = malloc(sizeof(zc) * (size_t)n * n);
    const size_t len = (size_t)n * n;
    const zc alpha = 1.0 - 0.5 * I, beta = -0.5 + 0.25 * I;
    const double rbeta = -0.5;
    const char lr[] = "LR", ul[] = "UL", nc[] = "NC";
    char what[32];
    /* |entries| ≤ sqrt(2): products ≤ 2 each, complex products 4 real flops */
    for (int s = 0; s < 4; ++s) {
        const char side = lr[s & 1], uplo = ul[s >> 1];
        memcpy(c, c0, sizeof(zc) * len), memcpy(ref, c0, sizeof(zc) * len);
        zhemm_(&side, &uplo, &n, &n, &alpha, a, &n, b, &n, &beta, c, &n, 1, 1);
        ((zhemm_t*)reference("zhemm_"))(&side, &uplo, &n, &n, &alpha, a, &n, b, &n, &beta, ref, &n, 1, 1);
        snprintf(what, sizeof what, "zhemm %c%c n=%d", side, uplo, n);
        compare(what, (double*)c, (double*)ref, 2 * len, 16.0 * n * DBL_EPSILON * (cabs(alpha) * n + cabs(beta)));
    }
    for (int s = 0; s < 4; ++s) {
        const char uplo = ul[s & 1], trans = nc[s >> 1];
        memcpy(c, c0, sizeof(zc) * len), memcpy(ref, c0, sizeof(zc) * len);
        zher2k_(&uplo, &trans, &n, &n, &alpha, a, &n, b, &n, &rbeta, c, &n, 1, 1);
        ((zher2k_t*)reference("zher2k_"))(&uplo, &trans, &n, &n, &alpha, a, &n, b, &n, &rbeta, ref, &n, 1, 1);
        snprintf(what, sizeof what, "zher2k %c%c n=%d", uplo, trans, n);
        compare(what, (double*)c, (double*)ref, 2 * len, 16.0 * n * DBL_EPSILON * (2 * cabs(alpha) * n + 1));
    }
    free(a), free(b), free(c0), free(c), free(ref);
}

/* Invalid arguments at n = 300: xerbla_ gets the reference BLAS's routine name and argument number. */
static void test_bad_arguments(int n) {
    int small = 100;
    double* a = dmat(n, n);
    double* c = dmat(n, n);
    zc* za = zmat(n, n);
    zc* zcm = zmat(n, n);
    const double one = 1.0;
    const zc zone = 1.0;
    struct {
        const char* what;
        int expected;
        const char* routine;
    } cases[] = {{"dtrmm side=X", 1, "DTRMM"},   {"dtrmm diag=X", 4, "DTRMM"},    {"dtrmm lda=100", 9, "DTRMM"},
                 {"dtrmm ldb=100", 11, "DTRMM"}, {"dsymm uplo=X", 2, "DSYMM"},    {"dsymm lda=100", 7, "DSYMM"},
                 {"dsymm ldb=100", 9, "DSYMM"},  {"dsymm ldc=100", 12, "DSYMM"},  {"dsyr2k trans=X", 2, "DSYR2K"},
                 {"dsyr2k lda=100", 7, "DSYR2K"}, {"dsyr2k ldb=100", 9, "DSYR2K"}, {"dsyr2k ldc=100", 12, "DSYR2K"},
                 {"zhemm side=X", 1, "ZHEMM"},   {"zhemm ldc=100", 12, "ZHEMM"},  {"zher2k trans=T", 2, "ZHER2K"},
                 {"zher2k ldb=100", 9, "ZHER2K"}};
    for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); ++i) {
        xerbla_arg = 0, xerbla_name[0] = '\0';
        switch (i) {
            case 0: dtrmm_("X", "U", "N", "N", &n, &n, &one, a, &n, c, &n, 1, 1, 1, 1); break;
            case 1: dtrmm_("L", "U", "N", "X", &n, &n, &one, a, &n, c, &n, 1, 1, 1, 1); break;
            case 2: dtrmm_("R", "L", "T", "U", &n, &n, &one, a, &small, c, &n, 1, 1, 1, 1); break;
            case 3: dtrmm_("L", "U", "N", "N", &n, &n, &one, a, &n, c, &small, 1, 1, 1, 1); break;
            case 4: dsymm_("L", "X", &n, &n, &one, a, &n, a, &n, &one, c, &n, 1, 1); break;
            case 5: dsymm_("R", "U", &n, &n, &one, a, &small, a, &n, &one, c, &n, 1, 1); break;
            case 6: dsymm_("L", "U", &n, &n, &one, a, &n, a, &small, &one, c, &n, 1, 1); break;
            case 7: dsymm_("L", "L", &n, &n, &one, a, &n, a, &n, &one, c, &small, 1, 1); break;
            case 8: dsyr2k_("U", "X", &n, &n, &one, a, &n, a, &n, &one, c, &n, 1, 1); break;
            case 9: dsyr2k_("U", "N", &n, &n, &one, a, &small, a, &n, &one, c, &n, 1, 1); break;
            case 10: dsyr2k_("L", "T", &n, &n, &one, a, &n, a, &small, &one, c, &n, 1, 1); break;
            case 11: dsyr2k_("L", "N", &n, &n, &one, a, &n, a, &n, &one, c, &small, 1, 1); break;
            case 12: zhemm_("X", "U", &n, &n, &zone, za, &n, za, &n, &zone, zcm, &n, 1, 1); break;
            case 13: zhemm_("R", "L", &n, &n, &zone, za, &n, za, &n, &zone, zcm, &small, 1, 1); break;
            case 14: zher2k_("U", "T", &n, &n, &zone, za, &n, za, &n, &one, zcm, &n, 1, 1); break;
            case 15: zher2k_("L", "N", &n, &n, &zone, za, &n, za, &small, &one, zcm, &n, 1, 1); break;
        }
        CHECK(xerbla_arg == cases[i].expected && strcmp(xerbla_name, cases[i].routine) == 0,
              "%s: xerbla_ got %s %d, expected %s %d", cases[i].what, xerbla_name, xerbla_arg, cases[i].routine,
              cases[i].expected);
        printf("%-16s xerbla_(%s, %d)\n", cases[i].what, xerbla_name, xerbla_arg);
    }
    free(a), free(c), free(za), free(zcm);
}

int main(void) {
    if (!open_reference((void*)dtrmm_, "dtrmm_")) return 1;
    test_bad_arguments(300);
    test_real(300);
    test_complex(300);
    printf(failures ? "%d FAILED\n" : "all passed\n", failures);
    return failures ? 1 : 0;
}
