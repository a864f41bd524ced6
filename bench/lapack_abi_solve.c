/* lapack_abi_solve — an unmodified C program of the kind libtessera_lapack is for: it calls LAPACK's
 * Fortran ABI (dposv_, then dgesv_) on n×n matrices, no Tessera header, and times each call.
 *   lapack_abi_solve [N] [REPS]      (N = 32768, REPS = 1)
 * Matrices (column-major, O(n²) to build): SPD A = (R + Rᵀ)/2 + n·I, general A = R + sqrt(n)·I, R uniform
 * in [-1, 1); one right-hand side b uniform in [-1, 1). Every call is checked:
 * ‖b − A·x‖₁ / (‖A‖₁·‖x‖₁·n·eps) < 30 (LAPACK's xGET02 ratio). Prints one line per call:
 *   dposv n=32768 seconds=12.345 gflops=950.1 info=0 ratio=0.0123 check=pass
 * (flops n³/3 for dposv, 2n³/3 for dgesv, the factorization's). Exit 1 when a check fails.
 * Run plain against the machine's LAPACK, then under LD_PRELOAD=libtessera_lapack.so
 * (bench/lapack_preload_solve.sh does both). */
#define _POSIX_C_SOURCE 199309L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void dposv_(const char* uplo, const int* n, const int* nrhs, double* a, const int* lda, double* b, const int* ldb,
            int* info, size_t uplo_len);
void dgesv_(const int* n, const int* nrhs, double* a, const int* lda, int* ipiv, double* b, const int* ldb, int* info);

static unsigned long long state = 32768;
static double urand(void) { /* uniform in [-1, 1) */
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(state >> 11) / 4503599627370496.0 - 1.0;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A (n×n) as `spd` asks, from the same R each time (the seed restarts). */
static void build(double* a, size_t n, int spd) {
    state = 32768;
    for (size_t j = 0; j < n; ++j)
        for (size_t i = 0; i < n; ++i) a[i + j * n] = urand();
    if (spd)
        for (size_t j = 0; j < n; ++j)
            for (size_t i = j + 1; i < n; ++i) {
                const double s = 0.5 * (a[i + j * n] + a[j + i * n]);
                a[i + j * n] = a[j + i * n] = s;
            }
    for (size_t i = 0; i < n; ++i) a[i + i * n] += spd ? (double)n : sqrt((double)n);
}

/* ‖b − A·x‖₁ / (‖A‖₁·‖x‖₁·n·eps), A rebuilt (the call overwrote it with its factors). */
static double ratio(double* a, size_t n, int spd, const double* x, const double* b) {
    build(a, n, spd);
    double* r = malloc(sizeof(double) * n);
    double anorm = 0, xnorm = 0, rnorm = 0;
    for (size_t i = 0; i < n; ++i) r[i] = b[i];
    for (size_t j = 0; j < n; ++j) {
        double col = 0;
        for (size_t i = 0; i < n; ++i) r[i] -= a[i + j * n] * x[j], col += fabs(a[i + j * n]);
        anorm = col > anorm ? col : anorm;
        xnorm += fabs(x[j]);
    }
    for (size_t i = 0; i < n; ++i) rnorm += fabs(r[i]);
    free(r);
    return rnorm / (anorm * xnorm * (double)n * DBL_EPSILON);
}

int main(int argc, char** argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 32768, reps = argc > 2 ? atoi(argv[2]) : 1;
    if (n < 1 || reps < 1) {
        fprintf(stderr, "usage: %s [N] [REPS]\n", argv[0]);
        return 2;
    }
    const size_t nn = (size_t)n;
    double* a = malloc(sizeof(double) * nn * nn);
    double *b = malloc(sizeof(double) * nn), *x = malloc(sizeof(double) * nn);
    int* ipiv = malloc(sizeof(int) * nn);
    if (!a || !b || !x || !ipiv) {
        fprintf(stderr, "no memory for n = %d\n", n);
        return 2;
    }
    for (size_t i = 0; i < nn; ++i) b[i] = urand();
    int failed = 0;
    const int one = 1;
    for (int rep = 0; rep < reps; ++rep)
        for (int spd = 1; spd >= 0; --spd) {
            build(a, nn, spd);
            for (size_t i = 0; i < nn; ++i) x[i] = b[i];
            int info = -99;
            const double t0 = now();
            if (spd) dposv_("L", &n, &one, a, &n, x, &n, &info, 1);
            else dgesv_(&n, &one, a, &n, ipiv, x, &n, &info);
            const double t = now() - t0;
            const double r = info == 0 ? ratio(a, nn, spd, x, b) : INFINITY;
            const int pass = info == 0 && r < 30;
            failed |= !pass;
            const double flops = (spd ? 1.0 : 2.0) * (double)n * (double)n * (double)n / 3;
            printf("%s n=%d seconds=%.3f gflops=%.1f info=%d ratio=%.3g check=%s\n", spd ? "dposv" : "dgesv", n, t,
                   flops / t / 1e9, info, r, pass ? "pass" : "FAIL");
            fflush(stdout);
        }
    free(a), free(b), free(x), free(ipiv);
    return failed;
}
