// tessera_potrf: Cholesky factorization of one diagonal block of at most TESSERA_POTRF_BS
// columns (LAPACK xPOTF2 semantics), and optionally the inverse of its factor. The launcher
// (launch_potrf.cpp) factors a larger tile recursively, with this kernel on the leaves and GEMMs
// everywhere else; the inverses of the leaves make its triangular solves GEMMs.
//
// Lower: A = L·Lᴴ, L overwrites the lower triangle. Upper: A = Uᴴ·U, U overwrites the upper
// triangle; with L = Uᴴ both are the same algorithm on L(r,c) = A[r·si + c·sp] (conjugated when
// Upper). The other triangle is neither read nor written; the diagonal's imaginary parts are
// not read (LAPACK's xPOTRF for complex Hermitian matrices). Real precisions: ᴴ is ᵀ.
//
// One work-group of TESSERA_POTRF_WG work-items, arranged POTRF_PX (32, along rows r) by
// POTRF_PY (along columns k), holds the whole block in registers: work-item (tx, ty) owns the
// elements (r, k) = (tx + a·PX, ty + b·PY), a < NR, b < NK. Local memory holds only the columns
// or rows being broadcast (double-buffered, so one barrier per step), which lets a block of 128
// columns (1024 work-items × 16 registers) be factored by one launch within 48 KB of local memory.
// Factorization, right-looking, TESSERA_POTRF_COLS = S columns per step (one barrier per S columns,
// since the leaf's time is its sequence of barriers): at step j the owners of columns j .. j+S−1
// have published them, updated by the columns before j; every work-item applies the group's S×S
// diagonal block to the published values itself (so column j+p as updated by j .. j+p−1, the same
// arithmetic in the same order as one column per step), updates its elements, S(r,k) −=
// S(r,j+p)·conj(S(k,j+p))/d_{j+p} for j+p < k ≤ r, and the owners of the next S columns publish
// them. Columns are scaled at the end, L(j,j) = √d_j and L(r,j) = S(r,j)/√d_j. At the first pivot
// d_j that is not > 0 (NaN included) it stops: that column and the ones after it are left as they
// were in global memory.
//
// With `invert` (and no failure) it then overwrites L in the registers by X = L⁻¹ (xTRTI2's
// forward substitution, right-looking by rows, S rows per step: X(i,:) = B(i,:)/L(i,i) with B = I,
// then B(r,p) −= L(r,i)·X(i,p) for r > i, p ≤ i; slot (r,p) holds B(r,p) for p < i and still
// L(r,p) for p ≥ i) and writes all n×n of X to W, zeros in the other triangle, in A's orientation
// (X(r,c) = W[r·swi + c·swp], conjugated when Upper: Upper gives U⁻¹ = Xᴴ).
//
// info[0] protocol for a block whose first column is col0 in the whole tile: when col0 > 0 and
// info[0] is already nonzero (an earlier block failed), the kernel does nothing; otherwise it
// writes info[0] = 0, or col0 + the 1-based column of the first failing pivot.
//
// Launch: one work-group, local = global = TESSERA_POTRF_WG; n ≤ TESSERA_POTRF_BS.

#ifndef TESSERA_POTRF_BS
#define TESSERA_POTRF_BS 32  // largest block factored by one launch
#endif
#ifndef TESSERA_POTRF_WG
#define TESSERA_POTRF_WG 256  // work-items (a multiple of 32, or a power of two below 32)
#endif
#ifndef TESSERA_POTRF_COLS
#define TESSERA_POTRF_COLS 2  // columns factored (rows inverted) per barrier step: 1, 2 or 4
#endif

#define POTRF_PX (TESSERA_POTRF_WG < 32 ? TESSERA_POTRF_WG : 32)  // work-items along r
#define POTRF_PY (TESSERA_POTRF_WG / POTRF_PX)                     // work-items along k
#if POTRF_PX * POTRF_PY != TESSERA_POTRF_WG
#error "TESSERA_POTRF_WG must be a multiple of 32 or a power of two"
#endif
#define POTRF_NR ((TESSERA_POTRF_BS + POTRF_PX - 1) / POTRF_PX)  // rows owned per work-item
#define POTRF_NK ((TESSERA_POTRF_BS + POTRF_PY - 1) / POTRF_PY)  // columns owned per work-item
#define POTRF_S TESSERA_POTRF_COLS
// Column p of the published group in buffer `buf` (row p of B in the inverse), element r.
#define POTRF_COL(buf, p, r) colb[((buf) * POTRF_S + (p)) * TESSERA_POTRF_BS + (r)]
#define POTRF_ROW(buf, p, k) rowb[((buf) * POTRF_S + (p)) * TESSERA_POTRF_BS + (k)]

// c[p] = c_p(x) for p < POTRF_S (tessera_potrf's factorization step at column j): the group's
// published column p at index x, less what the group's earlier columns take from it, f[q][p]·c_q(x)
// for q < p; 0 where x ≤ j+p, x ≥ n or p ≥ nv. For a work-item's rows (x = r) and columns (x = k).
inline void potrf_group_values(__local const scalar_t* colb, const int buf, const int j, const int n, const int nv,
                               const int x, scalar_t f[POTRF_S][POTRF_S], scalar_t c[POTRF_S])
{
TESSERA_UNROLL
    for (int p = 0; p < POTRF_S; ++p) {
        scalar_t v = S_ZERO;
        if (p < nv && x > j + p && x < n) {
            v = POTRF_COL(buf, p, x);
TESSERA_UNROLL
            for (int q = 0; q < p; ++q) v -= S_MUL(c[q], f[q][p]);
        }
        c[p] = v;
    }
}

__kernel __attribute__((reqd_work_group_size(TESSERA_POTRF_WG, 1, 1)))
void tessera_potrf(const int n, const int lower, __global scalar_t* A, const ulong offA, const int lda,
                   __global int* info, const int col0, const int invert, __global scalar_t* W, const ulong offW,
                   const int ldw)
{
    // Both tests are uniform over the work-group: every work-item reads the same values.
    if (n > TESSERA_POTRF_BS) {  // never launched so (launch.cpp blocks larger tiles): flag it
        if (get_local_id(0) == 0) info[0] = -1;
        return;
    }
    if (col0 > 0 && info[0] != 0) return;

    const int lid = (int)get_local_id(0);
    const int tx = lid % POTRF_PX, ty = lid / POTRF_PX;
    const long si = lower ? 1 : lda;  // L(r,c) = A[r·si + c·sp]
    const long sp = lower ? lda : 1;
    A += offA;

    __local scalar_t colb[2 * POTRF_S * TESSERA_POTRF_BS];  // a group's columns of the trailing matrix, or of L
    __local scalar_t rowb[2 * POTRF_S * TESSERA_POTRF_BS];  // a group's rows of B (the inverse)
    __local real_t piv[TESSERA_POTRF_BS];                   // √d_j
    __local real_t ipiv[TESSERA_POTRF_BS];                  // 1/√d_j

    // The lower triangle into registers (coalesced along r when lower); the first group published.
    scalar_t reg[POTRF_NK][POTRF_NR];
TESSERA_UNROLL
    for (int b = 0; b < POTRF_NK; ++b)
TESSERA_UNROLL
        for (int a = 0; a < POTRF_NR; ++a) {
            const int k = ty + b * POTRF_PY, r = tx + a * POTRF_PX;
            const scalar_t v = (k <= r && r < n) ? A[r * si + k * sp] : S_ZERO;
            reg[b][a] = lower ? v : S_CONJ(v);
            if (k < POTRF_S && k <= r && r < n) POTRF_COL(0, k, r) = reg[b][a];
        }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);  // also: all have read info[0]

    int failed = 0;
    for (int j = 0; j < n; j += POTRF_S) {
        const int buf = (j / POTRF_S) & 1, ns = min(POTRF_S, n - j);
        // The group's diagonal block, the same in every work-item: e[p][q] = c_p(j+q), q ≥ p, where
        // c_p is column j+p after the updates by columns j .. j+p−1 (its published form is before
        // them), and f[p][q] = conj(c_p(j+q))/d_p, what column j+p subtracts times c_p(r) from
        // column j+q. nv: the group's columns before the first pivot that is not > 0.
        scalar_t e[POTRF_S][POTRF_S], f[POTRF_S][POTRF_S];
        real_t d[POTRF_S], inv[POTRF_S];
        int nv = ns;
TESSERA_UNROLL
        for (int q = 0; q < POTRF_S; ++q) {
TESSERA_UNROLL
            for (int q2 = q; q2 < POTRF_S; ++q2) {
                scalar_t v = q2 < ns ? POTRF_COL(buf, q, j + q2) : S_ZERO;
TESSERA_UNROLL
                for (int p = 0; p < q; ++p) v -= S_MUL(e[p][q2], f[p][q]);
                e[q][q2] = v;
            }
            d[q] = S_REAL(e[q][q]);
            if (q < nv && !(d[q] > (real_t)0)) nv = q;
            inv[q] = (real_t)1 / d[q];
TESSERA_UNROLL
            for (int q2 = q + 1; q2 < POTRF_S; ++q2) f[q][q2] = S_CONJ(e[q][q2]) * inv[q];
        }
        // c_p(r) for this work-item's rows below j+p, and conj(c_p(k))/d_p for its columns beyond j+p.
        scalar_t lr[POTRF_NR][POTRF_S], fk[POTRF_S][POTRF_NK];
TESSERA_UNROLL
        for (int a = 0; a < POTRF_NR; ++a) potrf_group_values(colb, buf, j, n, nv, tx + a * POTRF_PX, f, lr[a]);
TESSERA_UNROLL
        for (int b = 0; b < POTRF_NK; ++b) {
            const int k = ty + b * POTRF_PY;
            scalar_t ck[POTRF_S];
            potrf_group_values(colb, buf, j, n, nv, k, f, ck);
TESSERA_UNROLL
            for (int p = 0; p < POTRF_S; ++p)
                fk[p][b] = (p < nv && k > j + p && k < n) ? S_CONJ(ck[p]) * inv[p] : S_ZERO;
        }
        // Every element (r, k), j < k ≤ r, loses the group's columns before k; the owners of the
        // next group's columns publish them, final through column j+ns−1.
TESSERA_UNROLL
        for (int b = 0; b < POTRF_NK; ++b) {
            const int k = ty + b * POTRF_PY;
            if (k > j && k < n) {
TESSERA_UNROLL
                for (int p = 0; p < POTRF_S; ++p)
                    if (p < nv && k > j + p)
TESSERA_UNROLL
                        for (int a = 0; a < POTRF_NR; ++a)
                            if (tx + a * POTRF_PX >= k) reg[b][a] -= S_MUL(lr[a][p], fk[p][b]);
                if (k >= j + POTRF_S && k < j + 2 * POTRF_S)
TESSERA_UNROLL
                    for (int a = 0; a < POTRF_NR; ++a) {
                        const int r = tx + a * POTRF_PX;
                        if (r >= k && r < n) POTRF_COL(buf ^ 1, k - j - POTRF_S, r) = reg[b][a];
                    }
            }
        }
        if (lid == 0)
TESSERA_UNROLL
            for (int p = 0; p < POTRF_S; ++p)
                if (p < nv) {
                    piv[j + p] = sqrt(d[p]);
                    ipiv[j + p] = (real_t)1 / piv[j + p];
                }
        if (nv < ns) {  // uniform
            failed = j + nv + 1;
            break;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (failed) barrier(CLK_LOCAL_MEM_FENCE);  // uniform: the failing group's piv, written above

    // Scale and write back the factored columns (all of them, or those before the failing one).
    const int ncols = failed ? failed - 1 : n;
TESSERA_UNROLL
    for (int b = 0; b < POTRF_NK; ++b)
TESSERA_UNROLL
        for (int a = 0; a < POTRF_NR; ++a) {
            const int k = ty + b * POTRF_PY, r = tx + a * POTRF_PX;
            if (k < ncols && k <= r && r < n) {
                reg[b][a] = r == k ? S_FROM_REAL(piv[k]) : reg[b][a] * ipiv[k];
                A[r * si + k * sp] = lower ? reg[b][a] : S_CONJ(reg[b][a]);
            }
        }
    if (lid == 0) info[0] = failed ? col0 + failed : 0;
    if (!invert || failed) return;  // both uniform

    // X = L⁻¹ in place, a group of rows i .. i+ns−1 per step. The owners publish the group's rows of
    // B (their slots p < i) and the group's columns of L (below the diagonal); every work-item forms
    // the group's rows of X for its columns, x[q] = X(i+q, k) = (B(i+q,k) − Σ_{p<q} L(i+q,i+p)·X(i+p,k))
    // / L(i+q,i+q), and updates its slots (r, k ≤ i+ns−1) below the group: B(r,k) −= L(r,i+p)·X(i+p,k),
    // where slot (r, i+p) held L(r,i+p) and B(r,i+p) was 0.
    for (int i = 0; i < n; i += POTRF_S) {
        const int buf = (i / POTRF_S) & 1, ns = min(POTRF_S, n - i);
TESSERA_UNROLL
        for (int b = 0; b < POTRF_NK; ++b)
TESSERA_UNROLL
            for (int a = 0; a < POTRF_NR; ++a) {
                const int k = ty + b * POTRF_PY, r = tx + a * POTRF_PX;
                if (r >= i && r < i + ns && k < i) POTRF_ROW(buf, r - i, k) = reg[b][a];
                if (k >= i && k < i + ns && r > k && r < n) POTRF_COL(buf, k - i, r) = reg[b][a];
            }
        barrier(CLK_LOCAL_MEM_FENCE);
        scalar_t x[POTRF_S][POTRF_NK];
TESSERA_UNROLL
        for (int b = 0; b < POTRF_NK; ++b) {
            const int k = ty + b * POTRF_PY;
TESSERA_UNROLL
            for (int q = 0; q < POTRF_S; ++q) {
                scalar_t v = S_ZERO;
                if (q < ns && k <= i + q) {
                    if (k == i + q) {
                        v = S_FROM_REAL(ipiv[i + q]);
                    } else {
                        if (k < i) v = POTRF_ROW(buf, q, k);
TESSERA_UNROLL
                        for (int p = 0; p < q; ++p)
                            if (k <= i + p) v -= S_MUL(POTRF_COL(buf, p, i + q), x[p][b]);
                        v = v * ipiv[i + q];
                    }
                }
                x[q][b] = v;
            }
        }
TESSERA_UNROLL
        for (int a = 0; a < POTRF_NR; ++a) {
            const int r = tx + a * POTRF_PX;
            if (r >= i + ns && r < n) {
                scalar_t l[POTRF_S];
TESSERA_UNROLL
                for (int p = 0; p < POTRF_S; ++p) l[p] = p < ns ? POTRF_COL(buf, p, r) : S_ZERO;
TESSERA_UNROLL
                for (int b = 0; b < POTRF_NK; ++b) {
                    const int k = ty + b * POTRF_PY;
TESSERA_UNROLL
                    for (int p = 0; p < POTRF_S; ++p)
                        if (p < ns && k <= i + p) {
                            if (k == i + p)
                                reg[b][a] = -S_MUL(l[p], x[p][b]);
                            else
                                reg[b][a] -= S_MUL(l[p], x[p][b]);
                        }
                }
            } else {
TESSERA_UNROLL
                for (int q = 0; q < POTRF_S; ++q)
                    if (r == i + q && q < ns)
TESSERA_UNROLL
                        for (int b = 0; b < POTRF_NK; ++b)
                            if (ty + b * POTRF_PY <= r) reg[b][a] = x[q][b];
            }
        }
    }
    const long swi = lower ? 1 : ldw, swp = lower ? ldw : 1;
    W += offW;
TESSERA_UNROLL
    for (int b = 0; b < POTRF_NK; ++b)
TESSERA_UNROLL
        for (int a = 0; a < POTRF_NR; ++a) {
            const int r = tx + a * POTRF_PX, k = ty + b * POTRF_PY;
            if (r < n && k < n) W[r * swi + k * swp] = lower ? reg[b][a] : S_CONJ(reg[b][a]);
        }
}

// Internal helpers end here: later files of the concatenated program may reuse these names.
#undef POTRF_PX
#undef POTRF_PY
#undef POTRF_NR
#undef POTRF_NK
#undef POTRF_S
#undef POTRF_COL
#undef POTRF_ROW
