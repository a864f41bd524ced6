// tessera_larft_blocks: the upper triangular T of each block reflector I − V·T·Vᴴ of heevd's Q2
// (LAPACK xLARFT with DIRECT = 'F', STOREV = 'C'), from its window V (m×k, leading dimension m, zeros
// outside its parallelogram; V(i, i) taken as 1 as xLARFT does) and its τs. One work-group of
// LARFT_WG work-items per block, k ≤ LARFT_WG; work-item j owns row j of T: column i is
// T(0:i, i) = T(0:i, 0:i)·w with w_j = −τ_i·V(i:m, j)ᴴ·V(i:m, i) (xLARFT's GEMV, then its TRMV),
// T(i, i) = τ_i, zeros below. Each block's row of the table: v_off, m, k, t_off, tau_off (longs).

#define LARFT_WG 64

__kernel __attribute__((reqd_work_group_size(LARFT_WG, 1, 1))) void tessera_larft_blocks(
    __global const long* table, __global const scalar_t* V, const ulong offv, __global const scalar_t* tau,
    const ulong offtau, __global scalar_t* Tf, const ulong offt)
{
    __local scalar_t w[LARFT_WG];
    const int j = (int)get_local_id(0);
    __global const long* e = table + 5 * (size_t)get_group_id(0);
    const long m = e[1];
    const int k = (int)e[2];
    __global const scalar_t* v = V + offv + e[0];
    __global const scalar_t* ta = tau + offtau + e[4];
    __global scalar_t* t = Tf + offt + e[3];
    for (int i = 0; i < k; ++i) {
        const scalar_t ti = ta[i];
        scalar_t x = S_ZERO;
        if (j < i && !S_IS_ZERO(ti)) {
            x = S_CONJ(v[i + (size_t)j * m]);  // row i, where V(i, i) = 1
            for (long r = i + 1; r < m; ++r) x = S_FMA(S_CONJ(v[r + (size_t)j * m]), v[r + (size_t)i * m], x);
            x = S_MUL(-ti, x);
        }
        w[j] = x;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (j < i) {
            scalar_t acc = S_ZERO;
            for (int l = j; l < i; ++l) acc = S_FMA(t[j + (size_t)l * k], w[l], acc);
            t[j + (size_t)i * k] = acc;
        } else if (j == i) {
            t[j + (size_t)i * k] = ti;
        } else if (j < k) {
            t[j + (size_t)i * k] = S_ZERO;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
