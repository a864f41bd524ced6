// Householder QR of a leaf of a tile's columns (launch_qr_panel.cpp), one work-group: LAPACK
// xGEQR2 (the block of a tile, `tri` = 1) or xTPQR2 with l = 0 (a triangle stacked on a tile,
// `tri` = 0), with the leaf's T (xLARFT) built on the way; the reflector is qr_grid.cl's qr_reflector.

#define TESSERA_QRL_WG 64
#define TESSERA_QRL_MAX 32

#ifdef TESSERA_COMPLEX
#define QRL_ABSMAX(a) fmax(fabs((a).x), fabs((a).y))
#define QRL_SQ(a) ((a).x * (a).x + (a).y * (a).y)
#define QRL_IMAG(a) ((a).y)
#else
#define QRL_ABSMAX(a) fabs(a)
#define QRL_SQ(a) ((a) * (a))
#define QRL_IMAG(a) ((real_t)0)
#endif

// tessera_qr_leaf: the nc ≤ TESSERA_QRL_MAX reflectors of a leaf. Column j's reflector acts on
// [Top(j, j); X(xs .. mx, j)] with xs = j + 1 when `tri` (Top and X are the same matrix: xGEQR2 on
// the block whose (0, 0) is Top's) and xs = 0 otherwise (Top is the triangle R, X the tile under
// it). Per column, as xGEQR2: xLARFG (beta = −sign(Re alpha)·‖(alpha, x)‖, tau = (beta − alpha) /
// beta, x scaled by 1/(alpha − beta), Top(j, j) = beta; tau = 0 when x = 0 and alpha is real; no
// rescaling of tiny norms), then H(j)ᴴ = I − conj(tau)·v·vᴴ applied to the leaf's columns right of
// j, and T's column j (xLARFT: T(0:j, j) = −tau·T(0:j, 0:j)·V(:, 0:j)ᴴ·v, T(j, j) = tau) written
// to Tf (ld ldt, upper triangle only).
// Launch: 1-D, exactly one work-group of TESSERA_QRL_WG work-items.
__kernel __attribute__((reqd_work_group_size(TESSERA_QRL_WG, 1, 1)))
void tessera_qr_leaf(const int nc, const int mx, const int tri,
                     __global scalar_t* Top, const ulong offTop, const int ldtop,
                     __global scalar_t* X, const ulong offX, const int ldx,
                     __global scalar_t* Tf, const ulong offT, const int ldt)
{
    __local real_t red[TESSERA_QRL_WG];
    __local scalar_t dots[TESSERA_QRL_WG * TESSERA_QRL_MAX];  // [lid][q], then the sums in [0][q]
    __local scalar_t coef[TESSERA_QRL_MAX];
    __local scalar_t tau_l[1];
    const int lid = (int)get_local_id(0);
    Top += offTop;
    X += offX;
    Tf += offT;
    for (int j = 0; j < nc; ++j) {
        const int xs = tri ? j + 1 : 0;
        __global scalar_t* x = X + (long)j * ldx;
        // ‖x‖ scaled by its largest entry, as xNRM2 avoids overflow.
        real_t mymax = (real_t)0;
        for (int r = xs + lid; r < mx; r += TESSERA_QRL_WG) mymax = fmax(mymax, QRL_ABSMAX(x[r]));
        const real_t scale = tessera_group_reduce(red, mymax, 1, TESSERA_QRL_WG);
        real_t mysum = (real_t)0;
        if (scale > (real_t)0)
            for (int r = xs + lid; r < mx; r += TESSERA_QRL_WG) {
                const scalar_t y = x[r] / scale;
                mysum += QRL_SQ(y);
            }
        const real_t xnorm = scale * sqrt(tessera_group_reduce(red, mysum, 0, TESSERA_QRL_WG));
        const scalar_t alpha = Top[j + (long)j * ldtop];
        scalar_t tau, mult;
        real_t beta;
        qr_reflector(alpha, xnorm, &tau, &mult, &beta);  // qr_grid.cl
        const int identity = xnorm == (real_t)0 && QRL_IMAG(alpha) == (real_t)0;
        if (!identity) {
            for (int r = xs + lid; r < mx; r += TESSERA_QRL_WG) x[r] = S_MUL(x[r], mult);
            barrier(CLK_GLOBAL_MEM_FENCE);
            if (lid == 0) Top[j + (long)j * ldtop] = S_FROM_REAL(beta);
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
        // dots[q] = Σ_r conj(X(r, q))·v(r) over r ≥ xs, for every column q ≠ j of the leaf.
        for (int q = 0; q < nc; ++q) {
            scalar_t acc = S_ZERO;
            if (q != j)
                for (int r = xs + lid; r < mx; r += TESSERA_QRL_WG)
                    acc = S_FMA(S_CONJ(X[r + (long)q * ldx]), x[r], acc);
            dots[lid * TESSERA_QRL_MAX + q] = acc;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int s = TESSERA_QRL_WG / 2; s > 0; s >>= 1) {
            if (lid < s)
                for (int q = 0; q < nc; ++q) dots[lid * TESSERA_QRL_MAX + q] += dots[(lid + s) * TESSERA_QRL_MAX + q];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        // Right of j: w = Top(j, c) + vᴴ·X(:, c); Top(j, c) −= conj(tau)·w; X(:, c) gets the rest below.
        // Left of j: w_p = v_pᴴ·v, whose T column needs T(0:j, 0:j) (in Tf, written before).
        if (lid == 0) tau_l[0] = tau;
        for (int c = j + 1 + lid; c < nc; c += TESSERA_QRL_WG) {
            const scalar_t w = Top[j + (long)c * ldtop] + S_CONJ(dots[c]);
            const scalar_t cw = S_MUL(S_CONJ(tau), w);
            Top[j + (long)c * ldtop] -= cw;
            coef[c] = cw;
        }
        for (int p = lid; p < j; p += TESSERA_QRL_WG) {
            scalar_t sum = S_ZERO;
            for (int q = p; q < j; ++q) {
                scalar_t wq = dots[q];
                if (tri) wq += S_CONJ(X[j + (long)q * ldx]);
                sum = S_FMA(Tf[p + (long)q * ldt], wq, sum);
            }
            Tf[p + (long)j * ldt] = -S_MUL(tau, sum);
        }
        if (lid == 0) Tf[j + (long)j * ldt] = tau;
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        for (int r = xs + lid; r < mx; r += TESSERA_QRL_WG) {
            const scalar_t v = x[r];
            for (int c = j + 1; c < nc; ++c) X[r + (long)c * ldx] = S_FMA(-coef[c], v, X[r + (long)c * ldx]);
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }
}
