/* LAPACK's LQ through the Fortran ABI (dgelqf_, dorglq_, dormlq_, and dgels_ for m < n), built as
 * lapack_abi_qr.c is: linked ahead of -llapack to libtessera_lapack, and plain under LD_PRELOAD. With
 * TESSERA_LAPACK_MIN_N=256, the 300×700 calls run on Tessera and the 100×150 ones fall through.
 * Each result is checked against LAPACK's residual bounds (xLQT01's) and against the reference
 * (OpenBLAS's own routines, dlsym on libopenblas.so.0): ‖A − LQ‖₁/(n‖A‖₁eps), ‖I − QQᵀ‖₁/(n eps),
 * dormlq against the explicit Q, dgels' solution (trans 'N' and 'T') and factored A against
 * OpenBLAS's dgelqf_ + dormlq_ + dtrsm_; bad arguments give LAPACK 3.11's negative info (the same as
 * OpenBLAS's) and xerbla_ names the routine; zgelqf_, zunglq_ and zgels_ 'C' (m < n) by their ratios.
 * Exit 0 when every check passes. */
#define _GNU_SOURCE
#include <complex.h>
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void gelqf_t(const int*, const int*, double*, const int*, double*, double*, const int*, int*);
typedef void orglq_t(const int*, const int*, const int*, double*, const int*, const double*, double*, const int*,
                     int*);
typedef void ormlq_t(const char*, const char*, const int*, const int*, const int*, const double*, const int*,
                     const double*, double*, const int*, double*, const int*, int*, size_t, size_t);
typedef void gels_t(const char*, const int*, const int*, const int*, double*, const int*, double*, const int*, double*,
                    const int*, int*, size_t);
typedef void trsm_t(const char*, const char*, const char*, const char*, const int*, const int*, const double*,
                    const double*, const int*, double*, const int*, size_t, size_t, size_t, size_t);
extern gelqf_t dgelqf_;
extern orglq_t dorglq_;
extern ormlq_t dormlq_;
extern gels_t dgels_;
typedef double complex zc;
extern void zgelqf_(const int*, const int*, zc*, const int*, zc*, zc*, const int*, int*);
extern void zunglq_(const int*, const int*, const int*, zc*, const int*, const zc*, zc*, const int*, int*);
extern void zgels_(const char*, const int*, const int*, const int*, zc*, const int*, zc*, const int*, zc*, const int*,
                   int*, size_t);

#define ABI_CHECK_SEED 4343
#include "abi_check.h"

/* dgelqf_ then dorglq_ (m×n Q, orthonormal rows), and dormlq_ in its four forms against the explicit Q. */
static void test_lq(int m, int n) {
    double* a = dmat(m, n);
    double* f = dcopy(a, (size_t)m * n);
    double* tau = malloc(sizeof(double) * m);
    double query;
    int minus = -1, lwork, info = -99;
    dgelqf_(&m, &n, f, &m, tau, &query, &minus, &info);
    CHECK(info == 0 && query >= m, "dgelqf query: info %d, lwork %g", info, query);
    lwork = (int)query;
    double* work = malloc(sizeof(double) * (size_t)lwork);
    dgelqf_(&m, &n, f, &m, tau, work, &lwork, &info);
    CHECK(info == 0, "dgelqf %dx%d info %d", m, n, info);
    double* q = dcopy(f, (size_t)m * n);
    lwork = m * 64;
    work = realloc(work, sizeof(double) * (size_t)n * 64);
    dorglq_(&m, &n, &m, q, &m, tau, work, &lwork, &info);
    CHECK(info == 0, "dorglq %dx%d info %d", m, n, info);
    /* ‖A − L·Q‖₁ / (n ‖A‖₁ eps) and ‖I − Q·Qᵀ‖₁ / (n eps): LAPACK's dlqt01 ratios (threshold 30) */
    double* res = dcopy(a, (size_t)m * n);
    for (int j = 0; j < n; ++j)
        for (int p = 0; p < m; ++p)
            for (int i = p; i < m; ++i) res[i + (size_t)j * m] -= f[i + (size_t)p * m] * q[p + (size_t)j * m];
    const double lq_ratio = norm1(res, m, n, m) / (n * norm1(a, m, n, m) * DBL_EPSILON);
    double* orth = calloc((size_t)m * m, sizeof(double));
    for (int i = 0; i < m; ++i) orth[i + (size_t)i * m] = 1.0;
    for (int j = 0; j < m; ++j)
        for (int p = 0; p < n; ++p)
            for (int i = 0; i < m; ++i) orth[i + (size_t)j * m] -= q[i + (size_t)p * m] * q[j + (size_t)p * m];
    const double orth_ratio = norm1(orth, m, m, m) / (n * DBL_EPSILON);
    CHECK(lq_ratio < 30 && orth_ratio < 30, "dgelqf+dorglq %dx%d: ratios %g, %g", m, n, lq_ratio, orth_ratio);
    printf("dgelqf+dorglq %4dx%-4d ratios %.3g (A - LQ), %.3g (I - QQt)\n", m, n, lq_ratio, orth_ratio);
    /* dormlq_: C = op(Q)·C0 (Left, C n×p) or C0·op(Q) (Right, C p×n), Q the full n×n Q */
    double* full = calloc((size_t)n * n, sizeof(double));
    for (int j = 0; j < n; ++j) memcpy(full + (size_t)j * n, f + (size_t)j * m, sizeof(double) * m);
    lwork = n * 64;
    dorglq_(&n, &n, &m, full, &n, tau, work, &lwork, &info);
    const int p = m;
    for (int s = 0; s < 4; ++s) {
        const char side = s < 2 ? 'L' : 'R', trans = s % 2 ? 'T' : 'N';
        const int rows = side == 'L' ? n : p, cols = side == 'L' ? p : n;
        double* c0 = dmat(rows, cols);
        double* c = dcopy(c0, (size_t)rows * cols);
        double* ref = calloc((size_t)rows * cols, sizeof(double));
        dormlq_(&side, &trans, &rows, &cols, &m, f, &m, tau, c, &rows, work, &lwork, &info, 1, 1);
        CHECK(info == 0, "dormlq %c%c info %d", side, trans, info);
        for (int j = 0; j < cols; ++j)
            for (int l = 0; l < n; ++l)
                for (int i = 0; i < rows; ++i) {
                    double x; /* op(Q)(i, l)·C0(l, j) or C0(i, l)·op(Q)(l, j) */
                    if (side == 'L') x = (trans == 'N' ? full[i + (size_t)l * n] : full[l + (size_t)i * n]) * c0[l + (size_t)j * rows];
                    else x = c0[i + (size_t)l * rows] * (trans == 'N' ? full[l + (size_t)j * n] : full[j + (size_t)l * n]);
                    ref[i + (size_t)j * rows] += x;
                }
        for (size_t i = 0; i < (size_t)rows * cols; ++i) ref[i] -= c[i];
        const double ratio = norm1(ref, rows, cols, rows) / (n * norm1(c0, rows, cols, rows) * DBL_EPSILON);
        CHECK(ratio < 30, "dormlq %c%c %dx%d: ratio %g", side, trans, rows, cols, ratio);
        printf("dormlq %c%c    %4dx%-4d ratio %.3g\n", side, trans, rows, cols, ratio);
        free(c0), free(c), free(ref);
    }
    free(a), free(f), free(tau), free(work), free(q), free(res), free(orth), free(full);
}

/* dgels_ with m < n against OpenBLAS's own dgelqf_, dormlq_ and dtrsm_: trans 'N' (minimum-norm
 * solution x = Qᵀ·L⁻¹·b, B m×2 in, n×2 out) and 'T' (least squares of Aᵀ·x ≈ b: x = L⁻ᵀ·(Q·b)(1:m),
 * B n×2 in, m×2 out); x within ‖x_ref‖₁·n·eps·30 and the factored A (xGELQF's layout) within
 * ‖A‖₁·n·eps·30 (A = random + 2·sqrt(n) on its diagonal: well conditioned). */
static void test_gels(int m, int n, char trans) {
    double* a = dmat(m, n);
    for (int i = 0; i < m; ++i) a[i + (size_t)i * m] += 2 * sqrt((double)n);
    double* b = calloc((size_t)n * 2, sizeof(double)); /* ldb = n */
    const int rows_in = trans == 'N' ? m : n, rows_out = trans == 'N' ? n : m;
    for (int j = 0; j < 2; ++j)
        for (int i = 0; i < rows_in; ++i) b[i + (size_t)j * n] = urand();
    double *a1 = dcopy(a, (size_t)m * n), *a2 = dcopy(a, (size_t)m * n);
    double *x1 = dcopy(b, (size_t)n * 2), *x2 = dcopy(b, (size_t)n * 2);
    double* tau = malloc(sizeof(double) * m);
    int two = 2, lwork = (n + 2) * 64, info = -99, info_ref = -99;
    double* work = malloc(sizeof(double) * (size_t)lwork);
    const double one = 1.0;
    dgels_(&trans, &m, &n, &two, a1, &m, x1, &n, work, &lwork, &info, 1);
    ((gelqf_t*)reference("dgelqf_"))(&m, &n, a2, &m, tau, work, &lwork, &info_ref);
    if (trans == 'N') {
        for (int j = 0; j < 2; ++j)
            for (int i = m; i < n; ++i) x2[i + (size_t)j * n] = 0;
        ((trsm_t*)reference("dtrsm_"))("L", "L", "N", "N", &m, &two, &one, a2, &m, x2, &n, 1, 1, 1, 1);
        ((ormlq_t*)reference("dormlq_"))("L", "T", &n, &two, &m, a2, &m, tau, x2, &n, work, &lwork, &info_ref, 1, 1);
    } else {
        ((ormlq_t*)reference("dormlq_"))("L", "N", &n, &two, &m, a2, &m, tau, x2, &n, work, &lwork, &info_ref, 1, 1);
        ((trsm_t*)reference("dtrsm_"))("L", "L", "T", "N", &m, &two, &one, a2, &m, x2, &n, 1, 1, 1, 1);
    }
    double diff = 0, fdiff = 0;
    for (int j = 0; j < 2; ++j)
        for (int i = 0; i < rows_out; ++i) diff = fmax(diff, fabs(x1[i + (size_t)j * n] - x2[i + (size_t)j * n]));
    for (size_t i = 0; i < (size_t)m * n; ++i) fdiff = fmax(fdiff, fabs(a1[i] - a2[i]));
    const double ratio = diff / (norm1(x2, rows_out, 2, n) * n * DBL_EPSILON);
    const double fratio = fdiff / (norm1(a, m, n, m) * n * DBL_EPSILON);
    CHECK(info == 0 && info_ref == 0 && ratio < 30 && fratio < 30,
          "dgels %c %dx%d: info %d (OpenBLAS %d), ratios %g, %g", trans, m, n, info, info_ref, ratio, fratio);
    printf("dgels %c %4dx%-4d info %d, x within %.3g, factored A within %.3g of OpenBLAS's\n", trans, m, n, info,
           ratio, fratio);
    free(a), free(b), free(a1), free(a2), free(x1), free(x2), free(tau), free(work);
}

static double znorm1(const zc* a, int m, int n, int lda) {
    double best = 0;
    for (int j = 0; j < n; ++j) {
        double s = 0;
        for (int i = 0; i < m; ++i) s += cabs(a[i + (size_t)j * lda]);
        best = fmax(best, s);
    }
    return best;
}

/* Complex: zgelqf_ + zunglq_ (xLQT01's ratios with Qᴴ), and zgels_ 'C' with m < n (the least squares
 * of Aᴴ·x ≈ b) by xQRT17's ratio ‖A·(b − Aᴴx)‖₁/(‖A‖₁‖b‖₁ n eps) < 30. */
static void test_zlq(int m, int n) {
    zc* a = malloc(sizeof(zc) * (size_t)m * n);
    for (size_t i = 0; i < (size_t)m * n; ++i) a[i] = urand() + I * urand();
    zc* f = malloc(sizeof(zc) * (size_t)m * n);
    memcpy(f, a, sizeof(zc) * (size_t)m * n);
    zc* tau = malloc(sizeof(zc) * m);
    int lwork = n * 64, info = -99, one = 1;
    zc* work = malloc(sizeof(zc) * (size_t)lwork);
    zgelqf_(&m, &n, f, &m, tau, work, &lwork, &info);
    zc* q = malloc(sizeof(zc) * (size_t)m * n);
    memcpy(q, f, sizeof(zc) * (size_t)m * n);
    zunglq_(&m, &n, &m, q, &m, tau, work, &lwork, &info);
    zc* res = malloc(sizeof(zc) * (size_t)m * n);
    memcpy(res, a, sizeof(zc) * (size_t)m * n);
    for (int j = 0; j < n; ++j)
        for (int p = 0; p < m; ++p)
            for (int i = p; i < m; ++i) res[i + (size_t)j * m] -= f[i + (size_t)p * m] * q[p + (size_t)j * m];
    zc* orth = calloc((size_t)m * m, sizeof(zc));
    for (int i = 0; i < m; ++i) orth[i + (size_t)i * m] = 1;
    for (int j = 0; j < m; ++j)
        for (int p = 0; p < n; ++p)
            for (int i = 0; i < m; ++i) orth[i + (size_t)j * m] -= q[i + (size_t)p * m] * conj(q[j + (size_t)p * m]);
    const double lq_ratio = znorm1(res, m, n, m) / (n * znorm1(a, m, n, m) * DBL_EPSILON);
    const double orth_ratio = znorm1(orth, m, m, m) / (n * DBL_EPSILON);
    CHECK(info == 0 && lq_ratio < 30 && orth_ratio < 30, "zgelqf+zunglq %dx%d: info %d, ratios %g, %g", m, n, info,
          lq_ratio, orth_ratio);
    printf("zgelqf+zunglq %4dx%-4d ratios %.3g (A - LQ), %.3g (I - QQh)\n", m, n, lq_ratio, orth_ratio);
    zc* b = malloc(sizeof(zc) * n);
    for (int i = 0; i < n; ++i) b[i] = urand() + I * urand();
    zc* x = malloc(sizeof(zc) * n);
    memcpy(x, b, sizeof(zc) * n);
    memcpy(f, a, sizeof(zc) * (size_t)m * n);
    zgels_("C", &m, &n, &one, f, &m, x, &n, work, &lwork, &info, 1);
    zc* r = malloc(sizeof(zc) * n); /* b − Aᴴ·x */
    for (int j = 0; j < n; ++j) {
        r[j] = b[j];
        for (int i = 0; i < m; ++i) r[j] -= conj(a[i + (size_t)j * m]) * x[i];
    }
    zc* ar = calloc(m, sizeof(zc));
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) ar[i] += a[i + (size_t)j * m] * r[j];
    const double ratio = znorm1(ar, m, 1, m) / (znorm1(a, m, n, m) * znorm1(b, n, 1, n) * n * DBL_EPSILON);
    CHECK(info == 0 && ratio < 30, "zgels C %dx%d: info %d, ratio %g", m, n, info, ratio);
    printf("zgels C %4dx%-4d info %d, ratio %.3g (A r)\n", m, n, info, ratio);
    free(a), free(f), free(tau), free(work), free(q), free(res), free(orth), free(b), free(x), free(r), free(ar);
}

/* Invalid arguments at 300×700 (above the threshold, checked by libtessera_lapack): LAPACK 3.11's info,
 * the same as OpenBLAS's, and xerbla_ names the routine. */
static void test_bad_arguments(void) {
    int m = 300, n = 700, k = 300, small = 100, one = 1, big = 800, lw = 700 * 64;
    double* a = dmat(n, n);
    double* c = dmat(n, n);
    double* tau = calloc(n, sizeof(double));
    double* work = malloc(sizeof(double) * (size_t)lw);
    struct {
        const char* what;
        int expected;
        const char* routine;
    } cases[] = {{"dgelqf lda=100", -4, "DGELQF"}, {"dgelqf lwork=1", -7, "DGELQF"}, {"dorglq n<m", -2, "DORGLQ"},
                 {"dorglq k>m", -3, "DORGLQ"},     {"dorglq lda=100", -5, "DORGLQ"}, {"dorglq lwork=1", -8, "DORGLQ"},
                 {"dormlq side=X", -1, "DORMLQ"},  {"dormlq trans=C", -2, "DORMLQ"}, {"dormlq k>nq", -5, "DORMLQ"},
                 {"dormlq lda=100", -7, "DORMLQ"}, {"dormlq ldc=100", -10, "DORMLQ"}, {"dormlq lwork=1", -12, "DORMLQ"},
                 {"dgels m<n ldb=300", -8, "DGELS"}, {"dgels m<n lwork=1", -10, "DGELS"}};
    for (int r = 0; r < 2; ++r) /* r = 0: libtessera_lapack, r = 1: OpenBLAS's */
        for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); ++i) {
            gelqf_t* gelqf = r ? (gelqf_t*)reference("dgelqf_") : dgelqf_;
            orglq_t* orglq = r ? (orglq_t*)reference("dorglq_") : dorglq_;
            ormlq_t* ormlq = r ? (ormlq_t*)reference("dormlq_") : dormlq_;
            gels_t* gels = r ? (gels_t*)reference("dgels_") : dgels_;
            int info = 12345;
            xerbla_arg = 0, xerbla_name[0] = '\0';
            switch (i) {
                case 0: gelqf(&m, &n, a, &small, tau, work, &lw, &info); break;
                case 1: gelqf(&m, &n, a, &m, tau, work, &one, &info); break;
                case 2: orglq(&n, &m, &k, a, &n, tau, work, &lw, &info); break;
                case 3: orglq(&m, &n, &big, a, &m, tau, work, &lw, &info); break;
                case 4: orglq(&m, &n, &k, a, &small, tau, work, &lw, &info); break;
                case 5: orglq(&m, &n, &k, a, &m, tau, work, &one, &info); break;
                case 6: ormlq("X", "N", &n, &m, &k, a, &k, tau, c, &n, work, &lw, &info, 1, 1); break;
                case 7: ormlq("L", "C", &n, &m, &k, a, &k, tau, c, &n, work, &lw, &info, 1, 1); break;
                case 8: ormlq("R", "N", &m, &m, &big, a, &big, tau, c, &m, work, &lw, &info, 1, 1); break;
                case 9: ormlq("L", "T", &n, &m, &k, a, &small, tau, c, &n, work, &lw, &info, 1, 1); break;
                case 10: ormlq("L", "N", &n, &m, &k, a, &k, tau, c, &small, work, &lw, &info, 1, 1); break;
                case 11: ormlq("L", "N", &n, &m, &k, a, &k, tau, c, &n, work, &one, &info, 1, 1); break;
                case 12: gels("N", &m, &n, &one, a, &m, c, &m, work, &lw, &info, 1); break;
                case 13: gels("N", &m, &n, &one, a, &m, c, &n, work, &one, &info, 1); break;
            }
            check_refusal(cases[i].what, cases[i].routine, cases[i].expected, info, r);
        }
    free(a), free(c), free(tau), free(work);
}

int main(void) {
    if (!open_reference((void*)dgelqf_, "dgelqf_")) return 1;
    test_bad_arguments();
    test_lq(100, 150); /* below the threshold: the next LAPACK */
    test_lq(300, 700); /* Tessera */
    test_gels(100, 150, 'N');
    test_gels(300, 700, 'N');
    test_gels(300, 700, 'T');
    test_zlq(300, 700);
    printf(failures ? "%d FAILED\n" : "all passed\n", failures);
    return failures ? 1 : 0;
}
