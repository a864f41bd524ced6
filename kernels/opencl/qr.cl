// tessera_qr_apply: apply the Q of a tile QR kernel (xGEMQRT, or xTPMQRT with l = 0) from the left,
// op(Q)·C, to a matrix accessed through row and column strides, so that the right-side products
// C·op(Q) = (op(Q)ᴴ·Cᴴ)ᴴ run through the same code on the conjugate-transposed view (see
// launch_qr.cpp): with conj_c, C and A1 are read and written conjugated. (Real precisions: ᴴ = ᵀ.)
//
// Q = I − V·T·Vᴴ in LAPACK's compact WY form with inner block size ib: reflector block b holds
// T_b (upper triangular) in rows 0.. of columns b·ib.. of T. A block is applied in sub-blocks of at
// most QR_KB reflectors using only T_b's diagonal sub-blocks: the T of a contiguous subset of the
// reflectors H(i)…H(j) is the principal submatrix of T_b on i..j, so
// I − V_b T_b V_bᴴ = (I − V_1 T_11 V_1ᴴ)(I − V_2 T_22 V_2ᴴ)… exactly. Sub-blocks go first to last for
// Qᴴ (apply_t = 1, using T_sᴴ) and last to first for Q (apply_t = 0, using T_s).
//
// mode 0 (gemqrt): C is mv×ncols, V mv×k unit lower trapezoidal (upper part not referenced);
//   a sub-block at reflector s0 updates rows s0..mv−1 of C.
// mode 1 (tpmqrt): V = [I; V2], the identity acting on rows s0.. of A1 (k×ncols) and the full V2
//   (mv×k) acting on C = A2 (mv×ncols).
// For each sub-block of sb reflectors and each strip of QR_NC columns (one work-group):
//   W = (mode 1 ? A1[s0:s0+sb, strip] : 0) + V̂ᴴ·C[rows, strip]   (sb×QR_NC, local memory)
//   W = op(T_s)·W
//   (mode 1) A1[s0:s0+sb, strip] −= W;  C[rows, strip] −= V̂·W
// Columns are independent, so work-groups never communicate.
//
// Launch: local size (QR_LX, QR_LY), global size (ceil(ncols / QR_NC)·QR_LX, QR_LY).

#define QR_KB 32  // reflectors per sub-block
#define QR_NC 32  // columns per work-group
#define QR_LX 16
#define QR_LY 16
#define QR_RB 16  // rows of V̂ and C staged per step
#define QR_NT (QR_LX * QR_LY)
#if QR_NC != QR_KB || 2 * QR_RB != QR_KB
#error "qr.cl's shared local array needs QR_NC = QR_KB = 2·QR_RB"
#endif

// V̂(r, s) of sub-block (s0, sb) at global row r: mode 0 unit lower trapezoidal, mode 1 V2.
inline scalar_t qr_vhat(const int mode, __global const scalar_t* V, const int ldv, const int mv, const int s0,
                      const int sb, const int r, const int s)
{
    if (s >= sb || r >= mv) return S_ZERO;
    if (mode == 0) {
        const int rr = r - s0;
        if (rr < s) return S_ZERO;
        if (rr == s) return S_ONE;
    }
    return V[r + (long)(s0 + s) * ldv];
}

__kernel __attribute__((reqd_work_group_size(QR_LX, QR_LY, 1)))
void tessera_qr_apply(const int mode, const int apply_t, const int mv, const int ncols, const int k, const int ib,
                      __global const scalar_t* V, const ulong offV, const int ldv,
                      __global const scalar_t* Tm, const ulong offT, const int ldt,
                      __global scalar_t* C, const ulong offC, const int rsC, const int csC,
                      __global scalar_t* A1, const ulong offA1, const int rsA1, const int csA1,
                      const int conj_c)
{
    const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
    const int tid = ty * QR_LX + tx;
    const int j0 = (int)get_group_id(0) * QR_NC;
    V += offV;
    Tm += offT;
    C += offC;
    A1 += offA1;

    __local scalar_t Ws[QR_KB][QR_NC + 1];
    // One local array serves the phases in turn (barriers between them): V̂ and C slabs while W and
    // the update are computed, T_s while W = op(T_s)·W is. 2112 scalars: 33 KB in complex double.
    __local scalar_t VCs[2 * QR_RB][QR_KB + 1];
#define Vs VCs
#define Cs (VCs + QR_RB)
#define Ts VCs

    const int nblk = (k + ib - 1) / ib;
    for (int bi = 0; bi < nblk; ++bi) {
        const int b = apply_t ? bi : nblk - 1 - bi;
        const int bs0 = b * ib, bsz = min(ib, k - bs0);
        const int nsub = (bsz + QR_KB - 1) / QR_KB;
        for (int si = 0; si < nsub; ++si) {
            const int sub = apply_t ? si : nsub - 1 - si;
            const int s0 = bs0 + sub * QR_KB;
            const int sb = min(QR_KB, bs0 + bsz - s0);
            const int rstart = mode == 0 ? s0 : 0;

            // W = V̂ᴴ·C over the strip; thread (tx, ty) owns W[tx + 16a][ty + 16c], a, c ∈ {0, 1}.
            scalar_t acc[2][2] = {{S_ZERO, S_ZERO}, {S_ZERO, S_ZERO}};
            for (int r0 = rstart; r0 < mv; r0 += QR_RB) {
                for (int e = tid; e < QR_RB * QR_KB; e += QR_NT) {
                    const int rr = e % QR_RB, s = e / QR_RB;
                    Vs[rr][s] = qr_vhat(mode, V, ldv, mv, s0, sb, r0 + rr, s);
                }
                for (int e = tid; e < QR_RB * QR_NC; e += QR_NT) {
                    int rr, c;
                    if (rsC == 1) { rr = e % QR_RB; c = e / QR_RB; }
                    else          { c = e % QR_NC; rr = e / QR_NC; }
                    const int r = r0 + rr, j = j0 + c;
                    const scalar_t x = (r < mv && j < ncols) ? C[(long)r * rsC + (long)j * csC] : S_ZERO;
                    Cs[rr][c] = conj_c ? S_CONJ(x) : x;
                }
                barrier(CLK_LOCAL_MEM_FENCE);
                for (int rr = 0; rr < QR_RB; ++rr) {
                    const scalar_t v0 = S_CONJ(Vs[rr][tx]), v1 = S_CONJ(Vs[rr][tx + QR_LX]);
                    const scalar_t c0 = Cs[rr][ty], c1 = Cs[rr][ty + QR_LY];
                    acc[0][0] = S_FMA(v0, c0, acc[0][0]);
                    acc[0][1] = S_FMA(v0, c1, acc[0][1]);
                    acc[1][0] = S_FMA(v1, c0, acc[1][0]);
                    acc[1][1] = S_FMA(v1, c1, acc[1][1]);
                }
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            for (int a = 0; a < 2; ++a)
                for (int c = 0; c < 2; ++c) {
                    const int s = tx + a * QR_LX, j = j0 + ty + c * QR_LY;
                    scalar_t w = acc[a][c];
                    if (mode == 1 && s < sb && j < ncols) {
                        const scalar_t x = A1[(long)(s0 + s) * rsA1 + (long)j * csA1];
                        w += conj_c ? S_CONJ(x) : x;
                    }
                    Ws[s][ty + c * QR_LY] = w;
                }
            // T_s, the diagonal sub-block of T_b at (s0 − bs0, s0), upper triangular.
            for (int e = tid; e < QR_KB * QR_KB; e += QR_NT) {
                const int r = e % QR_KB, c = e / QR_KB;
                Ts[r][c] = (r <= c && c < sb) ? Tm[(s0 - bs0 + r) + (long)(s0 + c) * ldt] : S_ZERO;
            }
            barrier(CLK_LOCAL_MEM_FENCE);

            // W = op(T_s)·W: op(T)[s][t] = conj(T[t][s]) for Qᴴ, T[s][t] for Q.
            scalar_t nw[2][2] = {{S_ZERO, S_ZERO}, {S_ZERO, S_ZERO}};
            for (int t = 0; t < QR_KB; ++t) {
                const scalar_t w0 = Ws[t][ty], w1 = Ws[t][ty + QR_LY];
                const scalar_t t0 = apply_t ? S_CONJ(Ts[t][tx]) : Ts[tx][t];
                const scalar_t t1 = apply_t ? S_CONJ(Ts[t][tx + QR_LX]) : Ts[tx + QR_LX][t];
                nw[0][0] = S_FMA(t0, w0, nw[0][0]);
                nw[0][1] = S_FMA(t0, w1, nw[0][1]);
                nw[1][0] = S_FMA(t1, w0, nw[1][0]);
                nw[1][1] = S_FMA(t1, w1, nw[1][1]);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int a = 0; a < 2; ++a)
                for (int c = 0; c < 2; ++c) {
                    const int s = tx + a * QR_LX, j = j0 + ty + c * QR_LY;
                    Ws[s][ty + c * QR_LY] = nw[a][c];
                    if (mode == 1 && s < sb && j < ncols)
                        A1[(long)(s0 + s) * rsA1 + (long)j * csA1] -= conj_c ? S_CONJ(nw[a][c]) : nw[a][c];
                }
            barrier(CLK_LOCAL_MEM_FENCE);

            // C −= V̂·W, QR_RB rows at a time: thread (tx, ty) updates row r0 + tx, columns ty, ty + 16.
            for (int r0 = rstart; r0 < mv; r0 += QR_RB) {
                for (int e = tid; e < QR_RB * QR_KB; e += QR_NT) {
                    const int rr = e % QR_RB, s = e / QR_RB;
                    Vs[rr][s] = qr_vhat(mode, V, ldv, mv, s0, sb, r0 + rr, s);
                }
                barrier(CLK_LOCAL_MEM_FENCE);
                scalar_t u0 = S_ZERO, u1 = S_ZERO;
                for (int s = 0; s < QR_KB; ++s) {
                    const scalar_t v = Vs[tx][s];
                    u0 = S_FMA(v, Ws[s][ty], u0);
                    u1 = S_FMA(v, Ws[s][ty + QR_LY], u1);
                }
                if (conj_c) {
                    u0 = S_CONJ(u0);
                    u1 = S_CONJ(u1);
                }
                const int r = r0 + tx;
                if (r < mv) {
                    const int ja = j0 + ty, jb = j0 + ty + QR_LY;
                    if (ja < ncols) C[(long)r * rsC + (long)ja * csC] -= u0;
                    if (jb < ncols) C[(long)r * rsC + (long)jb * csC] -= u1;
                }
                barrier(CLK_LOCAL_MEM_FENCE);
            }
        }
    }
}
#undef Vs
#undef Cs
#undef Ts
