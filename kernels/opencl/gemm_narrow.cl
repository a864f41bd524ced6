// tessera_gemm_narrow_n<cols> / _t<cols> (cols = 1, 2, 4, 8): C = alpha·op(A)·op(B) + beta·C
// (BLAS xGEMM) when C has at most cols columns: the residuals and solves of the mixed-precision
// solvers (one right-hand side), whose products read a whole tile of A once and use each element n
// times. A block GEMM spends its tiles of 128 columns on them (127 of 128 wasted at n = 1); here
// every element of A is read once, coalesced, and the products are bound by memory bandwidth
// instead. Each work-item keeps NARROW_ROWS rows of C, so that every element of op(B) it loads
// serves NARROW_ROWS elements of A, and that many loads of A are in flight at once. The launcher
// (launch_narrow.cpp) takes the narrowest width with cols ≥ n; 8, the widest, bounds the
// TESSERA_GEMM_NARROW parameter (param_table.hpp).
//
// _n (op(A) = A): a work-group of NARROW_NX × NARROW_NY work-items takes NARROW_NX·NARROW_ROWS
// rows of C and one range of k; work-item (x, y) reads A's rows x, x + NARROW_NX, ... at
// k = y, y + NARROW_NY, ... (a warp reads 32 consecutive rows of one column) and keeps their n
// sums in registers; the NARROW_NY sums of a row are added in the order of y.
// _t (op(A) = Aᵀ or Aᴴ): a work-group of NARROW_TX × NARROW_TY takes NARROW_TY·NARROW_ROWS rows of C
// (columns of A) and one range of k; work-item (x, y) reads A's columns y, y + NARROW_TY, ... at
// k = x, x + NARROW_TX, ... (consecutive elements of a column), and the NARROW_TX sums of a row are
// added in the order of x.
//
// Split k (the launcher's, launch_narrow.cpp): group (·, s) covers k in [s·kc, min(k, (s+1)·kc)).
// With one range, C = alpha·sum + beta·C (beta = 0: C is not read); with several, group s writes
// alpha·sum to C + s·split_stride (a workspace: ldc = m, split_stride = m·n, beta = 0) and
// tessera_gemm_narrow_sum adds the ranges to beta·C in a fixed order. Results do not depend on
// scheduling. transA, transB: 0 = X, 1 = Xᵀ, 2 = Xᴴ. alpha = 0 reads neither A nor B.
//
// tri (the symmetric products' triangles, launch_tri.cpp's symm): tri & 7 = 0 reads all of A; 1, 2,
// 3, 4 only its entries A(ar, ac) (row ar, column ac of A as stored) with ar ≥ ac, ar > ac, ar ≤ ac
// or ar < ac, the others taken as zeros; tri & 8 takes the diagonal's imaginary parts as zeros
// (xHEMM's diagonal).

#define NARROW_ROWS 4  // rows of C per work-item
#define NARROW_NX 64   // _n: work-items along the rows of C
#define NARROW_NY 4    // _n: ranges of k per work-group
#define NARROW_TX 32   // _t: ranges of k per work-group (one warp along a column of A)
#define NARROW_TY 8    // _t: work-items along the rows of C

// op(B)(kk, c)
static inline scalar_t narrow_b(__global const scalar_t* B, const int ldb, const int transB, const int kk,
                                const int c)
{
    const scalar_t v = transB ? B[c + (long)kk * ldb] : B[kk + (long)c * ldb];
    return transB == 2 ? S_CONJ(v) : v;
}

// C(i, c) from a row's sum over its k range (alpha applied; beta as above).
static inline void narrow_store(__global scalar_t* C, const int ldc, const int i, const int c,
                                const scalar_t alpha, const scalar_t sum, const scalar_t beta)
{
    const long idx = i + (long)c * ldc;
    scalar_t v = S_MUL(alpha, sum);
    if (!S_IS_ZERO(beta)) v = S_FMA(beta, C[idx], v);
    C[idx] = v;
}

// Whether A(ar, ac) is read under `tri` (the header).
static inline int narrow_reads(const int tri, const int ar, const int ac)
{
    switch (tri & 7) {
        case 1: return ar >= ac;
        case 2: return ar > ac;
        case 3: return ar <= ac;
        case 4: return ar < ac;
        default: return 1;
    }
}

// The loop both kernels share: acc[r][c] += op(A)(row r, kk)·op(B)(kk, c) for c < cols (those < n)
// and kk = first, first + step, ... < end; row r's elements are a[r·row_step + kk·k_step] (rows at
// or past `rows` read nothing), conjugated when conj; A_ROW(r, kk) and A_COL(r, kk) give the element's
// row and column in A, for `tri`.
#define NARROW_ACCUMULATE(cols, a, rows, row_step, k_step, conj, first, step, end, A_ROW, A_COL)      \
TESSERA_UNROLL_BY(2)                                                                                 \
    for (int kk = (first); kk < (end); kk += (step)) {                                               \
        scalar_t b[cols], av[NARROW_ROWS];                                                           \
TESSERA_UNROLL                                                                                       \
        for (int c = 0; c < (cols); ++c) b[c] = c < n ? narrow_b(B, ldb, transB, kk, c) : S_ZERO;    \
TESSERA_UNROLL                                                                                       \
        for (int r = 0; r < NARROW_ROWS; ++r) {                                                      \
            const int ar = A_ROW(r, kk), ac = A_COL(r, kk);                                          \
            av[r] = r < (rows) && narrow_reads(tri, ar, ac) ? (a)[r * (long)(row_step) + kk * (long)(k_step)] \
                                                            : S_ZERO;                                \
            if ((tri & 8) && ar == ac) av[r] = S_FROM_REAL(S_REAL(av[r]));                           \
            if (conj) av[r] = S_CONJ(av[r]);                                                         \
        }                                                                                            \
TESSERA_UNROLL                                                                                       \
        for (int r = 0; r < NARROW_ROWS; ++r)                                                        \
TESSERA_UNROLL                                                                                       \
            for (int c = 0; c < (cols); ++c) acc[r][c] = S_FMA(av[r], b[c], acc[r][c]);              \
    }

// The arguments of every tessera_gemm_narrow_n<cols> and _t<cols> (transA: _t only).
#define NARROW_ARGS                                                                                  \
    const int m, const int n, const int k, const int kc, const int transA, const int transB,         \
    const scalar_t alpha, __global const scalar_t *A, const ulong offA, const int lda,               \
    __global const scalar_t *B, const ulong offB, const int ldb, const scalar_t beta,                \
    __global scalar_t *C, const ulong offC, const int ldc, const ulong split_stride, const int tri

// The start both kernels share: work-item (x, y); i0, the first of its rows of C (row r:
// i0 + r·stride, `stride` work-items along the rows, `item` its place among them); k0 .. k1, its
// group's range of k; rows, how many of its rows are < m; A, B and C moved to their offsets (C to
// its group's range); acc cleared.
#define NARROW_START(cols, item, stride)                                                              \
    const int x = (int)get_local_id(0), y = (int)get_local_id(1);                                    \
    const int i0 = (int)get_group_id(0) * (stride) * NARROW_ROWS + (item);                           \
    const int k0 = (int)get_group_id(1) * kc, k1 = min(k, k0 + kc);                                  \
    const int rows = m > i0 ? min(NARROW_ROWS, (m - i0 + (stride) - 1) / (stride)) : 0;              \
    A += offA;                                                                                       \
    B += offB;                                                                                       \
    C += offC + get_group_id(1) * split_stride;                                                      \
    scalar_t acc[NARROW_ROWS][cols];                                                                 \
TESSERA_UNROLL                                                                                       \
    for (int r = 0; r < NARROW_ROWS; ++r)                                                            \
TESSERA_UNROLL                                                                                       \
        for (int c = 0; c < cols; ++c) acc[r][c] = S_ZERO;

// Row and column in A of work-item row r's element at kk: _n reads A(i0 + r·NARROW_NX, kk), _t
// A(kk, i0 + r·NARROW_TY).
#define NARROW_N_ROW(r, kk) (i0 + (r) * NARROW_NX)
#define NARROW_N_COL(r, kk) (kk)
#define NARROW_T_ROW(r, kk) (kk)
#define NARROW_T_COL(r, kk) (i0 + (r) * NARROW_TY)

// tessera_gemm_narrow_n<cols>: `cols` is a literal, so that every loop over the columns unrolls
// and acc and b stay in registers; n ≤ cols of them are used. part: NARROW_NY − 1 partial sums of
// `cols` columns of NARROW_NX rows.
#define NARROW_N_KERNEL(cols)                                                                        \
__kernel __attribute__((reqd_work_group_size(NARROW_NX, NARROW_NY, 1)))                              \
void tessera_gemm_narrow_n##cols(NARROW_ARGS)                                                        \
{                                                                                                    \
    __local scalar_t part[NARROW_NY - 1][cols][NARROW_NX];                                           \
    NARROW_START(cols, x, NARROW_NX)                                                                 \
    if (rows > 0 && !S_IS_ZERO(alpha)) {                                                             \
        __global const scalar_t* a = A + i0;                                                         \
        NARROW_ACCUMULATE(cols, a, rows, NARROW_NX, lda, 0, k0 + y, NARROW_NY, k1, NARROW_N_ROW,     \
                          NARROW_N_COL)                                                              \
    }                                                                                                \
TESSERA_UNROLL                                                                                       \
    for (int r = 0; r < NARROW_ROWS; ++r) {                                                          \
        if (y > 0)                                                                                   \
TESSERA_UNROLL                                                                                       \
            for (int c = 0; c < cols; ++c) part[y - 1][c][x] = acc[r][c];                            \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                \
        if (y == 0 && r < rows)                                                                      \
TESSERA_UNROLL                                                                                       \
            for (int c = 0; c < cols; ++c)                                                           \
                if (c < n) {                                                                         \
                    scalar_t sum = acc[r][c];                                                        \
                    for (int l = 0; l < NARROW_NY - 1; ++l) sum += part[l][c][x];                    \
                    narrow_store(C, ldc, i0 + r * NARROW_NX, c, alpha, sum, beta);                   \
                }                                                                                    \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                \
    }                                                                                                \
}

// tessera_gemm_narrow_t<cols> likewise; part: NARROW_TY rows of `cols` columns of NARROW_TX + 1
// partial sums (+1: the work-items c that add them up read rows c apart).
#define NARROW_T_KERNEL(cols)                                                                        \
__kernel __attribute__((reqd_work_group_size(NARROW_TX, NARROW_TY, 1)))                              \
void tessera_gemm_narrow_t##cols(NARROW_ARGS)                                                        \
{                                                                                                    \
    __local scalar_t part[NARROW_TY][cols][NARROW_TX + 1];                                           \
    NARROW_START(cols, y, NARROW_TY)                                                                 \
    if (rows > 0 && !S_IS_ZERO(alpha)) {                                                             \
        __global const scalar_t* a = A + (long)i0 * lda;                                             \
        NARROW_ACCUMULATE(cols, a, rows, (long)NARROW_TY * lda, 1, transA == 2, k0 + x, NARROW_TX, k1, \
                          NARROW_T_ROW, NARROW_T_COL)                                                \
    }                                                                                                \
TESSERA_UNROLL                                                                                       \
    for (int r = 0; r < NARROW_ROWS; ++r) {                                                          \
TESSERA_UNROLL                                                                                       \
        for (int c = 0; c < cols; ++c) part[y][c][x] = acc[r][c];                                    \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                \
        if (x < n && r < rows) { /* work-item x adds up column x of C's row */                       \
            scalar_t sum = part[y][x][0];                                                            \
            for (int l = 1; l < NARROW_TX; ++l) sum += part[y][x][l];                                \
            narrow_store(C, ldc, i0 + r * NARROW_TY, x, alpha, sum, beta);                           \
        }                                                                                            \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                \
    }                                                                                                \
}

// One pair per width, so that a work-item holds only the registers it uses.
#define NARROW_KERNELS(cols) NARROW_N_KERNEL(cols) NARROW_T_KERNEL(cols)
NARROW_KERNELS(1)
NARROW_KERNELS(2)
NARROW_KERNELS(4)
NARROW_KERNELS(8)

// C(i, c) = sum over s < splits of W[s·m·n + i + c·m] + beta·C(i, c) (beta = 0: C is not read).
// Work-groups of NARROW_SUM_X × NARROW_SUM_Y: work-item (x, y) adds the y-th of NARROW_SUM_Y
// consecutive ranges of s in order, and work-item (x, 0) adds the ranges' sums in order of y (a fixed
// order; the ranges keep several loads of an element in flight). Global size (m rounded up to
// NARROW_SUM_X, NARROW_SUM_Y·n).
#define NARROW_SUM_X 64
#define NARROW_SUM_Y 4
__kernel __attribute__((reqd_work_group_size(NARROW_SUM_X, NARROW_SUM_Y, 1)))
void tessera_gemm_narrow_sum(const int m, const int n, const int splits, __global const scalar_t* W,
                             const scalar_t beta, __global scalar_t* C, const ulong offC, const int ldc)
{
    __local scalar_t part[NARROW_SUM_Y - 1][NARROW_SUM_X];
    const int x = (int)get_local_id(0), y = (int)get_local_id(1);
    const int i = (int)get_global_id(0), c = (int)get_group_id(1);
    const int range = (splits + NARROW_SUM_Y - 1) / NARROW_SUM_Y, s0 = y * range, s1 = min(splits, s0 + range);
    const long mn = (long)m * n, e = i + (long)c * m;
    scalar_t sum = S_ZERO;
    if (i < m)
        for (int s = s0; s < s1; ++s) sum += W[s * mn + e];
    if (y > 0) part[y - 1][x] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (y > 0 || i >= m) return;
    for (int l = 0; l < NARROW_SUM_Y - 1; ++l) sum += part[l][x];
    narrow_store(C + offC, ldc, i, c, S_ONE, sum, beta);
}
#undef NARROW_SUM_X
#undef NARROW_SUM_Y

// Internal helpers end here: later files of the concatenated program may reuse these names.
#undef NARROW_ACCUMULATE
#undef NARROW_N_ROW
#undef NARROW_N_COL
#undef NARROW_T_ROW
#undef NARROW_T_COL
#undef NARROW_START
#undef NARROW_ARGS
#undef NARROW_KERNELS
#undef NARROW_N_KERNEL
#undef NARROW_T_KERNEL
#undef NARROW_ROWS
#undef NARROW_NX
#undef NARROW_NY
#undef NARROW_TX
#undef NARROW_TY
