// tessera_gemm_narrow_pair: the partial sums of P = alpha·A·u and Q = alpha·op(A)·v (op(A) = Aᵀ, or
// Aᴴ with conj) for the m×k A, u a k-vector and v an m-vector, reading A once: the two products of a
// symmetric or Hermitian matrix's off-diagonal tile with one right-hand side, A(i, j)·x(j) for block
// row i and A(i, j)ᴴ·x(i) for block row j (the mixed solvers' residuals, algorithms/mixed_common.hpp).
// gemm_narrow.cl's products read the tile once each, so twice for the pair.
//
// A work-group of PAIR_X × PAIR_Y work-items takes PAIR_COLS columns of A, c0 + y + PAIR_Y·r for
// work-item (x, y) and r < PAIR_R, and the rows [r0, r0 + rows_per_group), in chunks of PAIR_CHUNK
// rows, x + PAIR_X·j of the chunk for j < PAIR_J: the lanes of a warp read consecutive rows of a
// column. In each chunk a work-item forms its rows' sums over its columns; they go through local
// memory, and PAIR_CHUNK work-items add the PAIR_Y sums of a row in the order of y into
// Pw[group column · m + row]. Its columns' sums over its rows stay in registers until the end, when
// PAIR_COLS work-items add the PAIR_X sums of a column in the order of x into Qw[group row · k + col].
// Both with alpha applied; tessera_gemm_narrow_sum (gemm_narrow.cl) then adds each workspace's partials
// to P and Q in a fixed order (launch_narrow.cpp): results do not depend on scheduling.
// Launch: local (PAIR_X, PAIR_Y), global (PAIR_X · row groups, PAIR_Y · ⌈k / PAIR_COLS⌉).

#define PAIR_X 32                      // work-items along the rows
#define PAIR_Y 8                       // work-items along the columns
#define PAIR_R 4                       // columns per work-item
#define PAIR_J 4                       // rows per work-item in a chunk
#define PAIR_COLS (PAIR_Y * PAIR_R)    // columns per work-group
#define PAIR_CHUNK (PAIR_X * PAIR_J)   // rows per chunk

__kernel __attribute__((reqd_work_group_size(PAIR_X, PAIR_Y, 1)))
void tessera_gemm_narrow_pair(const int m, const int k, const int rows_per_group, const int conj, const scalar_t alpha,
                              __global const scalar_t* A, const ulong offA, const int lda,
                              __global const scalar_t* U, const ulong offU, __global const scalar_t* V,
                              const ulong offV, __global scalar_t* Pw, __global scalar_t* Qw)
{
    __local scalar_t row_part[PAIR_Y][PAIR_CHUNK];
    __local scalar_t col_part[PAIR_COLS][PAIR_X + 1];  // +1: the adding work-items read rows apart
    const int x = (int)get_local_id(0), y = (int)get_local_id(1), lid = x + PAIR_X * y;
    const int gr = (int)get_group_id(0), gc = (int)get_group_id(1);
    const int c0 = gc * PAIR_COLS, r0 = gr * rows_per_group, r1 = min(m, r0 + rows_per_group);
    A += offA;
    U += offU;
    V += offV;

    scalar_t u[PAIR_R], q[PAIR_R];
    TESSERA_UNROLL
    for (int r = 0; r < PAIR_R; ++r) {
        const int c = c0 + y + PAIR_Y * r;
        u[r] = c < k ? U[c] : S_ZERO;
        q[r] = S_ZERO;
    }
    for (int base = r0; base < r1; base += PAIR_CHUNK) {  // uniform over the group
        TESSERA_UNROLL
        for (int j = 0; j < PAIR_J; ++j) {
            const int i = base + x + PAIR_X * j;
            scalar_t p = S_ZERO;
            if (i < r1) {
                const scalar_t vi = V[i];
                TESSERA_UNROLL
                for (int r = 0; r < PAIR_R; ++r) {
                    const int c = c0 + y + PAIR_Y * r;
                    if (c < k) {
                        const scalar_t a = A[i + (long)c * lda];
                        p = S_FMA(a, u[r], p);
                        q[r] = S_FMA(conj ? S_CONJ(a) : a, vi, q[r]);
                    }
                }
            }
            row_part[y][x + PAIR_X * j] = p;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < PAIR_CHUNK && base + lid < r1) {
            scalar_t s = row_part[0][lid];
            for (int l = 1; l < PAIR_Y; ++l) s += row_part[l][lid];
            Pw[(long)gc * m + base + lid] = S_MUL(alpha, s);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    TESSERA_UNROLL
    for (int r = 0; r < PAIR_R; ++r) col_part[y * PAIR_R + r][x] = q[r];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < PAIR_COLS) {  // slot lid: column c0 + (lid / PAIR_R) + PAIR_Y·(lid % PAIR_R)
        const int c = c0 + lid / PAIR_R + PAIR_Y * (lid % PAIR_R);
        if (c < k) {
            scalar_t s = col_part[lid][0];
            for (int l = 1; l < PAIR_X; ++l) s += col_part[lid][l];
            Qw[(long)gr * k + c] = S_MUL(alpha, s);
        }
    }
}

// Internal helpers end here: later files of the concatenated program may reuse these names.
#undef PAIR_X
#undef PAIR_Y
#undef PAIR_R
#undef PAIR_J
#undef PAIR_COLS
#undef PAIR_CHUNK
