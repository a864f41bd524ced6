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

#endif
