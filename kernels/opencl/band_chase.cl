// tessera_band_chase: stage 2 of the two-stage Hermitian eigensolver on a device. The Hermitian band
// B (bandwidth kd, lower, in LAPACK xSYTRD_SB2ST's working band: full(i, j) = A[(i − j) + j·lda],
// lda ≥ 2·kd + 1, zeros below the band for the bulges) is reduced to real symmetric tridiagonal form
// by bulge chasing: the calls of LAPACK 3.7's xSB2ST_KERNELS / xHB2ST_KERNELS (types 1, 2 and 3, in
// xSYTRD_SB2ST's order within a sweep; Haidar, Ltaief, Dongarra, SC11), each by one work-group.
// The sweeps run concurrently as in LAPACK's OpenMP version: call id (1-based) of sweep s runs once
// sweep s−1 has finished or run its call id + 2 (kernels/cpu/band_tridiag.hpp, kLag). Work-groups take
// sweeps by ticket (sync[0], atomically incremented): a work-group waits only on the sweep taken just
// before its own, by a work-group that has started, so the wait ends whatever the number, order or
// residency of work-groups. sync[2 + s] is sweep s's progress (the last call id done; INT_MAX once
// done), published and read by the prelude's tessera_flag_publish / tessera_flag_read (release and
// acquire at GPU scope on NVIDIA); sync[1] is set when a work-group gave up waiting (the launcher
// then throws). The reflectors (want_q) go where kernels/cpu/band_tridiag.hpp keeps them: sweep s's
// vector starting at row r at V[s·(n−1) − s·(s−1)/2 + r − (s+1)], its τ at TAU[(s / kd)·n + r].
// sync holds 2 + (n − 1) ints, zero before the launch.
// Launch: local size CHASE_NT, any number of work-groups; kd ≤ CHASE_MAXKD.

#ifndef CHASE_NT
#define CHASE_NT 256  // work-items of a work-group (a multiple of 64)
#endif
#define CHASE_RW 64                    // lanes along the rows (or the columns) of a block
#define CHASE_P (CHASE_NT / CHASE_RW)  // shares of the other dimension
#define CHASE_MAXKD 256                // the widest band (ocl::kBandChaseMaxKd)
#define CHASE_BAND(i, j) A[(long)((i) - (j)) + (long)(j) * lda]  // full(i, j), i ≥ j

#if defined(TESSERA_NV_SM)
#define CHASE_SPINS (1 << 24)  // a few seconds on an H200 (one L2 read a spin)
#else
#define CHASE_SPINS (1 << 30)
#endif

#ifdef TESSERA_REAL_D
#define CHASE_SAFMIN 2.2250738585072014e-308
#else
#define CHASE_SAFMIN 1.17549435e-38f
#endif

// The sum (or, max_op, the largest) of every work-item's x, returned to all (red: CHASE_NT reals).
// On NVIDIA GPUs each warp reduces by butterfly shuffles and the warps meet in local memory: two
// barriers instead of a tree's log2(CHASE_NT) + 1.
#if defined(TESSERA_NV_SM)
inline real_t chase_reduce_real(real_t x, const int max_op, __local real_t* red)
{
    const int lid = (int)get_local_id(0);
    for (int m = 16; m > 0; m >>= 1) {
        const real_t o = tessera_shfl_xor_real(x, m);
        x = max_op ? fmax(x, o) : x + o;
    }
    if (lid % 32 == 0) red[lid / 32] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    real_t r = red[0];
    for (int k = 1; k < CHASE_NT / 32; ++k) r = max_op ? fmax(r, red[k]) : r + red[k];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}
#else
inline real_t chase_reduce_real(real_t x, const int max_op, __local real_t* red)
{
    return tessera_group_reduce(red, x, max_op, CHASE_NT);
}
#endif
inline scalar_t chase_sum(const scalar_t x, __local real_t* red)
{
#ifdef TESSERA_COMPLEX
    const real_t re = chase_reduce_real(x.x, 0, red);
    return (scalar_t)(re, chase_reduce_real(x.y, 0, red));
#else
    return chase_reduce_real(x, 0, red);
#endif
}

inline real_t chase_abs1(const scalar_t x)  // max(|re|, |im|): the scale of the norm
{
#ifdef TESSERA_COMPLEX
    return fmax(fabs(x.x), fabs(x.y));
#else
    return fabs(x);
#endif
}
inline real_t chase_abs2(const scalar_t x)  // |x|²
{
#ifdef TESSERA_COMPLEX
    return x.x * x.x + x.y * x.y;
#else
    return x * x;
#endif
}

// LAPACK xLARFG on x = X[0 .. m) (X[0] = alpha): H = I − τ·v·vᴴ with Hᴴ·x = (β, 0, …, 0), β real.
// v (v[0] = 1) into v, τ into *tau; X[0] = β and the rest of X zeroed, as xSB2ST_KERNELS leaves its
// column. Where x(1..) = 0 and alpha is real, τ = 0 (H = I) and X is left as it is. xLARFG's
// rescaling when |β| < safe minimum is done by the factor f = (1/safmin)^k on the scalars.
inline void chase_larfg(const int m, __global scalar_t* X, __local scalar_t* v, __local scalar_t* tau,
                        __local real_t* redr, __local scalar_t* shared_scal)
{
    const int lid = (int)get_local_id(0);
    real_t amax = 0;
    for (int i = 1 + lid; i < m; i += CHASE_NT) amax = fmax(amax, chase_abs1(X[i]));
    const real_t scale = chase_reduce_real(amax, 1, redr);
    real_t ssq = 0;
    if (scale > (real_t)0)
        for (int i = 1 + lid; i < m; i += CHASE_NT) ssq += chase_abs2(X[i] / scale);
    ssq = chase_reduce_real(ssq, 0, redr);
    if (lid == 0) {
        const scalar_t alpha = X[0];
        const real_t xnorm = scale * sqrt(ssq);
        scalar_t t = S_ZERO, scal = S_ONE;
        real_t f = 1, beta;
#ifdef TESSERA_COMPLEX
        const real_t alphr = alpha.x, alphi = alpha.y;
#else
        const real_t alphr = alpha, alphi = 0;
#endif
        if (xnorm == (real_t)0 && alphi == (real_t)0) {
            beta = alphr;  // H = I
        } else {
            const real_t w = fmax(fmax(fabs(alphr), fabs(alphi)), xnorm);
            real_t ar = alphr, ai = alphi, xn = xnorm;
            beta = -copysign(w * sqrt((ar / w) * (ar / w) + (ai / w) * (ai / w) + (xn / w) * (xn / w)), ar);
            for (int k = 0; fabs(beta) < CHASE_SAFMIN && k < 20; ++k) {  // xLARFG's KNT loop
                f /= CHASE_SAFMIN;
                ar /= CHASE_SAFMIN, ai /= CHASE_SAFMIN, xn /= CHASE_SAFMIN, beta /= CHASE_SAFMIN;
            }
            const real_t w2 = fmax(fmax(fabs(ar), fabs(ai)), xn);
            beta = -copysign(w2 * sqrt((ar / w2) * (ar / w2) + (ai / w2) * (ai / w2) + (xn / w2) * (xn / w2)), ar);
#ifdef TESSERA_COMPLEX
            t = (scalar_t)((beta - ar) / beta, -ai / beta);
            scal = S_INV((scalar_t)(ar - beta, ai));
#else
            t = (beta - ar) / beta;
            scal = (real_t)1 / (ar - beta);
#endif
            scal = scal * f;
            beta = beta / f;
        }
        *tau = t;
        *shared_scal = scal;
        X[0] = S_FROM_REAL(beta);
        v[0] = S_ONE;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const scalar_t scal = *shared_scal;
    for (int i = 1 + lid; i < m; i += CHASE_NT) {
        v[i] = S_MUL(X[i], scal);
        X[i] = S_ZERO;
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

// LAPACK xLARFY (lower): the Hermitian len×len block D = full(r0.., r0..) ← H·D·Hᴴ, H = I − τ·v·vᴴ:
// w = τ·D·v, w += −½·τ·(wᴴv)·v, D −= v·wᴴ + w·vᴴ (its diagonal kept real, as xHER2).
inline void chase_larfy(const int len, const int r0, __global scalar_t* A, const int lda, __local scalar_t* v,
                        const scalar_t tau, __local scalar_t* w, __local scalar_t* part, __local real_t* red)
{
    const int lid = (int)get_local_id(0), lane = lid % CHASE_RW, p = lid / CHASE_RW;
    for (int i = lane; i < len; i += CHASE_RW) {
        scalar_t acc = S_ZERO;
        for (int j = p; j < len; j += CHASE_P) {
            const scalar_t d = i >= j ? CHASE_BAND(r0 + i, r0 + j) : S_CONJ(CHASE_BAND(r0 + j, r0 + i));
            acc = S_FMA(d, v[j], acc);
        }
        part[p * CHASE_MAXKD + i] = acc;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    scalar_t dot = S_ZERO;
    for (int i = lid; i < len; i += CHASE_NT) {
        scalar_t s = part[i];
        for (int q = 1; q < CHASE_P; ++q) s += part[q * CHASE_MAXKD + i];
        s = S_MUL(tau, s);
        w[i] = s;
        dot = S_FMA(S_CONJ(s), v[i], dot);
    }
    dot = chase_sum(dot, red);  // its barriers also order w's stores before the reads below
    const scalar_t alpha = S_MUL(S_FROM_REAL((real_t)-0.5), S_MUL(tau, dot));
    for (int i = lid; i < len; i += CHASE_NT) w[i] = S_FMA(alpha, v[i], w[i]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = p; j < len; j += CHASE_P) {
        const scalar_t vj = S_CONJ(v[j]), wj = S_CONJ(w[j]);
        for (int i = j + lane; i < len; i += CHASE_RW) {
            scalar_t d = CHASE_BAND(r0 + i, r0 + j) - (S_MUL(v[i], wj) + S_MUL(w[i], vj));
            if (i == j) d = S_FROM_REAL(S_REAL(d));
            CHASE_BAND(r0 + i, r0 + j) = d;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

// xSB2ST_KERNELS' type 2 on M = full(j1 .. j1+lm, st .. st+len): M = M·H (H = I − τ·v·vᴴ, the
// reflector of the block above), then the reflector u of M's first column (LAPACK xLARFG; β into
// M(0, 0)) applied from the left to M's other columns with conj(τ2): M −= conj(τ2)·u·(uᴴ·M).
// u and τ2 replace v and τ.
inline void chase_type2(const int lm, const int len, const int j1, const int st, __global scalar_t* A, const int lda,
                        __local scalar_t* v, __local scalar_t* tau, __local scalar_t* u, __local scalar_t* w,
                        __local scalar_t* part, __local real_t* redr, __local scalar_t* shared_scal)
{
    const int lid = (int)get_local_id(0), lane = lid % CHASE_RW, p = lid / CHASE_RW;
    const scalar_t t = *tau;
    for (int i = lane; i < lm; i += CHASE_RW) {  // y = M·v over p's share of the columns
        scalar_t acc = S_ZERO;
        for (int j = p; j < len; j += CHASE_P) acc = S_FMA(CHASE_BAND(j1 + i, st + j), v[j], acc);
        part[p * CHASE_MAXKD + i] = acc;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = lid; i < lm; i += CHASE_NT) {
        scalar_t s = part[i];
        for (int q = 1; q < CHASE_P; ++q) s += part[q * CHASE_MAXKD + i];
        w[i] = S_MUL(t, s);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = p; j < len; j += CHASE_P) {
        const scalar_t vj = S_CONJ(v[j]);
        for (int i = lane; i < lm; i += CHASE_RW) CHASE_BAND(j1 + i, st + j) -= S_MUL(w[i], vj);
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    chase_larfg(lm, &CHASE_BAND(j1, st), u, tau, redr, shared_scal);
    const scalar_t t2 = S_CONJ(*tau);
    for (int j = 1 + lane; j < len; j += CHASE_RW) {  // q_j = Σ_i conj(u_i)·M(i, j) over p's share of the rows
        scalar_t acc = S_ZERO;
        for (int i = p; i < lm; i += CHASE_P) acc = S_FMA(S_CONJ(u[i]), CHASE_BAND(j1 + i, st + j), acc);
        part[p * CHASE_MAXKD + j] = acc;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 1 + lid; j < len; j += CHASE_NT) {
        scalar_t s = part[j];
        for (int q = 1; q < CHASE_P; ++q) s += part[q * CHASE_MAXKD + j];
        w[j] = S_MUL(t2, s);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 1 + p; j < len; j += CHASE_P)
        for (int i = lane; i < lm; i += CHASE_RW) CHASE_BAND(j1 + i, st + j) -= S_MUL(u[i], w[j]);
    for (int i = lid; i < lm; i += CHASE_NT) v[i] = u[i];
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

// The reflector just made (v[0 .. len), τ), starting at row r of sweep s, into V and TAU (want_q).
inline void chase_keep(const int n, const int kd, const int s, const int r, const int len, __local const scalar_t* v,
                       const scalar_t tau, __global scalar_t* V, __global scalar_t* TAU)
{
    const int lid = (int)get_local_id(0);
    const long slot = (long)s * (n - 1) - (long)s * (s - 1) / 2 + (r - (s + 1));
    for (int i = lid; i < len; i += CHASE_NT) V[slot + i] = v[i];
    if (lid == 0) TAU[(long)(s / kd) * n + r] = tau;
}

__kernel __attribute__((reqd_work_group_size(CHASE_NT, 1, 1))) void tessera_band_chase(
    const int n, const int kd, const int want_q, __global scalar_t* A_, const ulong offA, const int lda,
    __global scalar_t* V_, const ulong offV, __global scalar_t* TAU_, const ulong offT, __global int* sync_,
    const ulong offS)
{
    __local scalar_t v[CHASE_MAXKD], u[CHASE_MAXKD], w[CHASE_MAXKD], part[CHASE_P * CHASE_MAXKD];
    __local real_t redr[CHASE_NT];
    __local scalar_t tau, scal;
    __local int ticket, seen;
    const int lid = (int)get_local_id(0);
    __global scalar_t* A = A_ + offA;
    __global scalar_t* V = V_ + offV;
    __global scalar_t* TAU = TAU_ + offT;
    volatile __global int* sync = (volatile __global int*)(sync_ + offS);
    const int sweeps = kd >= 2 ? n - 1 : 0;
    for (;;) {
        if (lid == 0) {
            ticket = atomic_inc(sync);
            seen = 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const int s = ticket, sweep = s + 1;  // LAPACK's 1-based sweep
        if (s >= sweeps) return;
        for (int id = 1;; ++id) {
            // The call as kernels/cpu/band_tridiag.cpp's kernel_call numbers it (1-based st, ed).
            const int ttype = id == 1 ? 1 : id % 2 + 2;
            const int colpt = (ttype == 2 ? id / 2 : (id + 1) / 2) * kd + sweep;
            const int st = colpt - kd + 1, ed = min(colpt, n);
            const int last = ttype == 2 ? colpt >= n - 1 : (st >= ed - 1 && ed == n);
            if (s > 0 && lid == 0 && seen < id + 2) {
                int spins = 0, got = tessera_flag_read(sync + 2 + s - 1);
                while (got < id + 2 && ++spins < CHASE_SPINS) got = tessera_flag_read(sync + 2 + s - 1);
                if (got < id + 2) atomic_xchg(sync + 1, 1);  // gave up: the launcher fails
                seen = got;
            }
            barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
            const int st0 = st - 1, len = ed - st + 1;  // 0-based first row, rows of the block
            if (ttype == 1) {
                chase_larfg(len, &CHASE_BAND(st0, st0 - 1), v, &tau, redr, &scal);
                if (want_q) chase_keep(n, kd, s, st0, len, v, tau, V, TAU);
            }
            if (ttype != 2) {
                chase_larfy(len, st0, A, lda, v, tau, w, part, redr);
            } else if (ed < n) {
                const int j1 = ed, lm = min(ed + kd, n) - ed;  // 0-based rows of the block below
                chase_type2(lm, len, j1, st0, A, lda, v, &tau, u, w, part, redr, &scal);
                if (want_q) chase_keep(n, kd, s, j1, lm, v, tau, V, TAU);
            }
            barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
            if (lid == 0) tessera_flag_publish(sync + 2 + s, last ? INT_MAX : id);
            if (last) break;
        }
        barrier(CLK_LOCAL_MEM_FENCE);  // `ticket` read by all before it is taken again
    }
}
