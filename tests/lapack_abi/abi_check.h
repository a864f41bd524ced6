/* What the C programs testing libtessera_lapack share (lapack_abi_c.c, lapack_abi_qr.c): the failure
 * count and CHECK, the program's own xerbla_ recording the last report, a seeded uniform generator
 * (define ABI_CHECK_SEED before including), column-major helpers, and OpenBLAS's own routines as the
 * reference (`openblas` is dlopen'ed by main). One translation unit per program. */
#ifndef TESSERA_TESTS_ABI_CHECK_H
#define TESSERA_TESTS_ABI_CHECK_H

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond, ...)                                \
    do {                                                \
        if (!(cond)) {                                  \
            ++failures;                                 \
            printf("FAIL %s:%d: ", __FILE__, __LINE__); \
            printf(__VA_ARGS__);                        \
            printf("\n");                               \
        }                                               \
    } while (0)

/* The program's own xerbla_ (LAPACK lets a program replace it): records the last report. */
static char xerbla_name[8];
static int xerbla_arg = 0;
void xerbla_(const char* name, const int* arg, size_t len) {
    size_t k = len < 7 ? len : 7;
    memcpy(xerbla_name, name, k);
    xerbla_name[k] = '\0';
    while (k > 0 && xerbla_name[k - 1] == ' ') xerbla_name[--k] = '\0';
    xerbla_arg = *arg;
}

static unsigned long long seed = ABI_CHECK_SEED;
static double urand(void) { /* uniform in [-1, 1) */
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(seed >> 11) / 4503599627370496.0 - 1.0;
}
/* An m×n column-major matrix of urand() entries. */
static double* dmat(int m, int n) {
    double* a = malloc(sizeof(double) * (size_t)m * (size_t)n);
    for (size_t i = 0; i < (size_t)m * (size_t)n; ++i) a[i] = urand();
    return a;
}
static double* dcopy(const double* a, size_t k) {
    double* b = malloc(sizeof(double) * (k ? k : 1));
    memcpy(b, a, sizeof(double) * k);
    return b;
}
static double norm1(const double* a, int m, int n, int lda) {
    double best = 0;
    for (int j = 0; j < n; ++j) {
        double s = 0;
        for (int i = 0; i < m; ++i) s += fabs(a[i + (size_t)j * lda]);
        if (s > best) best = s;
    }
    return best;
}

static void* openblas;
/* OpenBLAS's own symbol `name`, the reference; exits when it has none. */
static void* reference(const char* name) {
    void* f = dlsym(openblas, name);
    if (!f) {
        printf("FAIL: OpenBLAS has no %s\n", name);
        exit(1);
    }
    return f;
}

/* main()'s start: dlopen OpenBLAS (the reference) into `openblas` and check that `symbol`, the
 * program's entry named `name`, resolves to libtessera_lapack (linked ahead of LAPACK or preloaded).
 * Prints a FAIL line and returns 0 when either does not hold. */
static int open_reference(void* symbol, const char* name) {
    openblas = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!openblas) {
        printf("FAIL: cannot open libopenblas.so.0 (the reference): %s\n", dlerror());
        return 0;
    }
    Dl_info where;
    if (!dladdr(symbol, &where) || !strstr(where.dli_fname, "libtessera_lapack")) {
        printf("FAIL: %s resolves to %s, not libtessera_lapack\n", name, where.dli_fname ? where.dli_fname : "?");
        return 0;
    }
    printf("%s resolves to %s\n", name, where.dli_fname);
    return 1;
}

/* A bad-argument case of a LAPACK routine, run by libtessera_lapack (on_reference 0) or by OpenBLAS:
 * info must be LAPACK's `expected` (negative) and, on libtessera_lapack's run, xerbla_ must have been
 * called with `routine` and -expected. */
static void check_refusal(const char* what, const char* routine, int expected, int info, int on_reference) {
    CHECK(info == expected, "%s (%s): info %d, LAPACK's %d", what, on_reference ? "OpenBLAS" : "libtessera_lapack",
          info, expected);
    if (on_reference) return;
    CHECK(xerbla_arg == -expected && strcmp(xerbla_name, routine) == 0, "%s: xerbla_ got %s %d", what, xerbla_name,
          xerbla_arg);
    printf("%-18s info %d, xerbla_(%s, %d)\n", what, info, xerbla_name, xerbla_arg);
}

#endif
