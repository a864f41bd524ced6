/* LAPACK's QR through the Fortran ABI (dgeqrf_, dorgqr_, dormqr_, dgels_), built as lapack_abi_c.c
 * is: linked ahead of -llapack to libtessera_lapack, and plain under LD_PRELOAD. With
 * TESSERA_LAPACK_MIN_N=256, the 700×300 calls run on Tessera and the 150×100 ones fall through.
 * Each result is checked against LAPACK's residual bounds and against the reference (OpenBLAS's
 * LAPACK, dlsym on libopenblas.so.0): ‖A − QR‖₁/(n‖A‖₁eps), ‖I − QᵀQ‖₁/(m eps), dormqr against the
 * explicit Q, dgels' solution against OpenBLAS's; bad arguments give LAPACK 3.11's negative info
 * (the same as OpenBLAS's) and xerbla_ names the routine; a workspace query is answered.
 * Exit 0 when every check passes. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void geqrf_t(const int*, const int*, double*, const int*, double*, double*, const int*, int*);
typedef void orgqr_t(const int*, const int*, const int*, double*, const int*, const double*, double*, const int*,
                     int*);
typedef void ormqr_t(const char*, const char*, const int*, const int*, const int*, const double*, const int*,
                     const double*, double*, const int*, double*, const int*, int*, size_t, size_t);
typedef void gels_t(const char*, const int*, const int*, const int*, double*, const int*, double*, const int*, double*,
                    const int*, int*, size_t);
extern geqrf_t dgeqrf_;
extern orgqr_t dorgqr_;
extern ormqr_t dormqr_;
extern gels_t dgels_;

#define ABI_CHECK_SEED 4242
#include "abi_check.h"

/* C (m×n) = alpha·op(A)·B + C for small checks (op: 'N' or 'T'; A is m×k or k×m with leading dimension lda). */
static void gemm(char ta, int m, int n, int k, double alpha, const double* a, int lda, const double* b, int ldb,
                 double* c, int ldc) {
    for (int j = 0; j < n; ++j)
        for (int p = 0; p < k; ++p) {
            const double bpj = alpha * b[p + (size_t)j * ldb];
            for (int i = 0; i < m; ++i) c[i + (size_t)j * ldc] += (ta == 'N' ? a[i + (size_t)p * lda] : a[p + (size_t)i * lda]) * bpj;
        }
}

/* dgeqrf_ then dorgqr_ (thin Q), and dormqr_ in its four forms against the explicit Q. */
static void test_qr(int m, int n) {
    double* a = dmat(m, n);
    double* f = dcopy(a, (size_t)m * n);
    double* tau = malloc(sizeof(double) * n);
    double query;
    int minus = -1, lwork, info = -99;
    dgeqrf_(&m, &n, f, &m, tau, &query, &minus, &info);
    CHECK(info == 0 && query >= n, "dgeqrf query: info %d, lwork %g", info, query);
    lwork = (int)query;
    double* work = malloc(sizeof(double) * (size_t)lwork);
    dgeqrf_(&m, &n, f, &m, tau, work, &lwork, &info);
    CHECK(info == 0, "dgeqrf %dx%d info %d", m, n, info);
    double* q = dcopy(f, (size_t)m * n);
    dorgqr_(&m, &n, &n, q, &m, tau, &query, &minus, &info);
    CHECK(info == 0 && query >= n, "dorgqr query: info %d, lwork %g", info, query);
    lwork = (int)query;
    work = realloc(work, sizeof(double) * (size_t)lwork);
    dorgqr_(&m, &n, &n, q, &m, tau, work, &lwork, &info);
    CHECK(info == 0, "dorgqr %dx%d info %d", m, n, info);
    /* ‖A − Q·R‖₁ / (n ‖A‖₁ eps) and ‖I − QᵀQ‖₁ / (m eps): LAPACK's dqrt01 ratios (threshold 30) */
    double* r = calloc((size_t)n * n, sizeof(double));
    for (int j = 0; j < n; ++j)
        for (int i = 0; i <= j; ++i) r[i + (size_t)j * n] = f[i + (size_t)j * m];
    double* res = dcopy(a, (size_t)m * n);
    gemm('N', m, n, n, -1.0, q, m, r, n, res, m);
    const double qr_ratio = norm1(res, m, n, m) / (n * norm1(a, m, n, m) * DBL_EPSILON);
    double* orth = calloc((size_t)n * n, sizeof(double));
    for (int i = 0; i < n; ++i) orth[i + (size_t)i * n] = 1.0;
    gemm('T', n, n, m, -1.0, q, m, q, m, orth, n);
    const double orth_ratio = norm1(orth, n, n, n) / (m * DBL_EPSILON);
    CHECK(qr_ratio < 30 && orth_ratio < 30, "dgeqrf+dorgqr %dx%d: ratios %g, %g", m, n, qr_ratio, orth_ratio);
    printf("dgeqrf+dorgqr %4dx%-4d ratios %.3g (A - QR), %.3g (I - QtQ)\n", m, n, qr_ratio, orth_ratio);
    /* dormqr_: C = op(Q)·C0 (Left, C m×p) or C0·op(Q) (Right, C p×m), Q the full m×m Q */
    double* full = calloc((size_t)m * m, sizeof(double));
    memcpy(full, f, sizeof(double) * (size_t)m * n);
    lwork = m * 64;
    work = realloc(work, sizeof(double) * (size_t)lwork);
    dorgqr_(&m, &m, &n, full, &m, tau, work, &lwork, &info);
    const int p = n; /* min(m, n, k) = n: on Tessera above the threshold */
    for (int s = 0; s < 4; ++s) {
        const char side = s < 2 ? 'L' : 'R', trans = s % 2 ? 'T' : 'N';
        const int rows = side == 'L' ? m : p, cols = side == 'L' ? p : m;
        double* c0 = dmat(rows, cols);
        double* c = dcopy(c0, (size_t)rows * cols);
        double* ref = calloc((size_t)rows * cols, sizeof(double));
        dormqr_(&side, &trans, &rows, &cols, &n, f, &m, tau, c, &rows, work, &lwork, &info, 1, 1);
        CHECK(info == 0, "dormqr %c%c info %d", side, trans, info);
        if (side == 'L') gemm(trans, m, p, m, 1.0, full, m, c0, m, ref, m);
        else /* ref = C0·op(Q): column j of ref = C0·op(Q)(:, j) */
            for (int j = 0; j < m; ++j)
                for (int l = 0; l < m; ++l) {
                    const double qlj = trans == 'N' ? full[l + (size_t)j * m] : full[j + (size_t)l * m];
                    for (int i = 0; i < p; ++i) ref[i + (size_t)j * p] += c0[i + (size_t)l * p] * qlj;
                }
        for (size_t i = 0; i < (size_t)rows * cols; ++i) ref[i] -= c[i];
        const double ratio = norm1(ref, rows, cols, rows) / (m * norm1(c0, rows, cols, rows) * DBL_EPSILON);
        CHECK(ratio < 30, "dormqr %c%c %dx%d: ratio %g", side, trans, rows, cols, ratio);
        printf("dormqr %c%c    %4dx%-4d ratio %.3g\n", side, trans, rows, cols, ratio);
        free(c0), free(c), free(ref);
    }
    free(a), free(f), free(tau), free(work), free(q), free(r), free(res), free(orth), free(full);
}

/* dgels_ (m ≥ n, least squares) against OpenBLAS's own dgeqrf_, dormqr_ and dtrsm_ (dlsym: OpenBLAS's
 * dgels_ would call the interposed dgeqrf_): x within ‖x_ref‖₁·n·eps·30 and the factored A within
 * ‖A‖₁·m·eps·30 (A = random + 2·sqrt(m) on its diagonal: well conditioned, so no κ factor). */
typedef void trsm_t(const char*, const char*, const char*, const char*, const int*, const int*, const double*,
                    const double*, const int*, double*, const int*, size_t, size_t, size_t, size_t);
static void test_gels(int m, int n) {
    double* a = dmat(m, n);
    for (int i = 0; i < n; ++i) a[i + (size_t)i * m] += 2 * sqrt((double)m);
    double* b = dmat(m, 2);
    double *a1 = dcopy(a, (size_t)m * n), *a2 = dcopy(a, (size_t)m * n);
    double *x1 = dcopy(b, (size_t)m * 2), *x2 = dcopy(b, (size_t)m * 2);
    double* tau = malloc(sizeof(double) * n);
    int two = 2, lwork = (m + 2) * 64, info = -99, info_ref = -99;
    double* work = malloc(sizeof(double) * (size_t)lwork);
    const double one = 1.0;
    dgels_("N", &m, &n, &two, a1, &m, x1, &m, work, &lwork, &info, 1);
    ((geqrf_t*)reference("dgeqrf_"))(&m, &n, a2, &m, tau, work, &lwork, &info_ref);
    ((ormqr_t*)reference("dormqr_"))("L", "T", &m, &two, &n, a2, &m, tau, x2, &m, work, &lwork, &info_ref, 1, 1);
    ((trsm_t*)reference("dtrsm_"))("L", "U", "N", "N", &n, &two, &one, a2, &m, x2, &m, 1, 1, 1, 1);
    double diff = 0, fdiff = 0;
    for (int j = 0; j < 2; ++j)
        for (int i = 0; i < n; ++i) diff = fmax(diff, fabs(x1[i + (size_t)j * m] - x2[i + (size_t)j * m]));
    for (size_t i = 0; i < (size_t)m * n; ++i) fdiff = fmax(fdiff, fabs(a1[i] - a2[i]));
    const double ratio = diff / (norm1(x2, n, 2, m) * n * DBL_EPSILON);
    const double fratio = fdiff / (norm1(a, m, n, m) * m * DBL_EPSILON); /* A: xGEQRF's layout, as LAPACK's */
    CHECK(info == 0 && info_ref == 0 && ratio < 30 && fratio < 30, "dgels %dx%d: info %d (OpenBLAS %d), ratios %g, %g",
          m, n, info, info_ref, ratio, fratio);
    printf("dgels  %4dx%-4d info %d, x within %.3g, factored A within %.3g of OpenBLAS's\n", m, n, info, ratio, fratio);
    free(a), free(b), free(a1), free(a2), free(x1), free(x2), free(tau), free(work);
}

/* Invalid arguments at 700×300 (above the threshold, checked by libtessera_lapack): LAPACK 3.11's info,
 * the same as OpenBLAS's, and xerbla_ names the routine. */
static void test_bad_arguments(void) {
    int m = 700, n = 300, k = 300, small = 100, one = 1, big = 800, lw = 300 * 64;
    double* a = dmat(m, n);
    double* c = dmat(m, n);
    double* tau = calloc(n, sizeof(double));
    double* work = malloc(sizeof(double) * (size_t)lw);
    struct {
        const char* what;
        int expected;
        const char* routine;
    } cases[] = {{"dgeqrf lda=100", -4, "DGEQRF"}, {"dgeqrf lwork=1", -7, "DGEQRF"}, {"dorgqr n>m", -2, "DORGQR"},
                 {"dorgqr k>n", -3, "DORGQR"},     {"dorgqr lwork=1", -8, "DORGQR"}, {"dormqr side=X", -1, "DORMQR"},
                 {"dormqr trans=C", -2, "DORMQR"}, {"dormqr k>nq", -5, "DORMQR"},    {"dormqr ldc=100", -10, "DORMQR"},
                 {"dormqr lwork=1", -12, "DORMQR"}, {"dgels trans=C", -1, "DGELS"},   {"dgels ldb=100", -8, "DGELS"},
                 {"dgels lwork=1", -10, "DGELS"}};
    for (int r = 0; r < 2; ++r) /* r = 0: libtessera_lapack, r = 1: OpenBLAS's */
        for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); ++i) {
            geqrf_t* geqrf = r ? (geqrf_t*)reference("dgeqrf_") : dgeqrf_;
            orgqr_t* orgqr = r ? (orgqr_t*)reference("dorgqr_") : dorgqr_;
            ormqr_t* ormqr = r ? (ormqr_t*)reference("dormqr_") : dormqr_;
            gels_t* gels = r ? (gels_t*)reference("dgels_") : dgels_;
            int info = 12345;
            xerbla_arg = 0, xerbla_name[0] = '\0';
            switch (i) {
                case 0: geqrf(&m, &n, a, &small, tau, work, &lw, &info); break;
                case 1: geqrf(&m, &n, a, &m, tau, work, &one, &info); break;
                case 2: orgqr(&n, &m, &k, a, &m, tau, work, &lw, &info); break;
                case 3: orgqr(&m, &n, &big, a, &m, tau, work, &lw, &info); break;
                case 4: orgqr(&m, &n, &k, a, &m, tau, work, &one, &info); break;
                case 5: ormqr("X", "N", &m, &n, &k, a, &m, tau, c, &m, work, &lw, &info, 1, 1); break;
                case 6: ormqr("L", "C", &m, &n, &k, a, &m, tau, c, &m, work, &lw, &info, 1, 1); break;
                case 7: ormqr("R", "N", &m, &n, &big, a, &m, tau, c, &m, work, &lw, &info, 1, 1); break;
                case 8: ormqr("L", "T", &m, &n, &k, a, &m, tau, c, &small, work, &lw, &info, 1, 1); break;
                case 9: ormqr("L", "N", &m, &n, &k, a, &m, tau, c, &m, work, &one, &info, 1, 1); break;
                case 10: gels("C", &m, &n, &one, a, &m, c, &m, work, &lw, &info, 1); break;
                case 11: gels("N", &m, &n, &one, a, &m, c, &small, work, &lw, &info, 1); break;
                case 12: gels("N", &m, &n, &one, a, &m, c, &m, work, &one, &info, 1); break;
            }
            check_refusal(cases[i].what, cases[i].routine, cases[i].expected, info, r);
        }
    free(a), free(c), free(tau), free(work);
}

int main(void) {
    if (!open_reference((void*)dgeqrf_, "dgeqrf_")) return 1;
    test_bad_arguments();
    test_qr(150, 100); /* below the threshold: the next LAPACK */
    test_qr(700, 300); /* Tessera */
    test_gels(150, 100);
    test_gels(700, 300);
    printf(failures ? "%d FAILED\n" : "all passed\n", failures);
    return failures ? 1 : 0;
}
