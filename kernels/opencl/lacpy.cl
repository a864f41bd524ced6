// tessera_lacpy: B = A on an m×n column-major region (LAPACK xLACPY); tessera_laset and
// tessera_geadd below.
// uplo: 0 = General (all of it), 1 = Lower trapezoid (i >= j), 2 = Upper trapezoid (i <= j);
// elements outside the trapezoid are neither read nor written.
// Launch: 2-D, one work-item per element, global size rounded up to the local size (any local
// size works; the launcher uses 64×4).
__kernel void tessera_lacpy(const int m, const int n, const int uplo,
                            __global const scalar_t* A, const ulong offA, const int lda,
                            __global scalar_t* B, const ulong offB, const int ldb)
{
    const int i = (int)get_global_id(0);
    const int j = (int)get_global_id(1);
    if (i >= m || j >= n) return;
    if ((uplo == 1 && i < j) || (uplo == 2 && i > j)) return;
    B[offB + i + (long)j * ldb] = A[offA + i + (long)j * lda];
}

// tessera_conj_transpose: B = Aᴴ (Aᵀ for real scalars), A m×n, B n×m (the LQ kernels' operands
// for the QR kernels, codelets/lq_kernels.cpp). Launch: like tessera_lacpy, over A's m×n.
__kernel void tessera_conj_transpose(const int m, const int n, __global const scalar_t* A, const ulong offA,
                                     const int lda, __global scalar_t* B, const ulong offB, const int ldb)
{
    const int i = (int)get_global_id(0);
    const int j = (int)get_global_id(1);
    if (i >= m || j >= n) return;
    B[offB + j + (long)i * ldb] = S_CONJ(A[offA + i + (long)j * lda]);
}

// tessera_laset: B(i, j) = beta when i == j, alpha otherwise, on the m×n region (LAPACK xLASET,
// uplo General). Launch: like tessera_lacpy.
__kernel void tessera_laset(const int m, const int n, const scalar_t alpha, const scalar_t beta,
                            __global scalar_t* B, const ulong offB, const int ldb)
{
    const int i = (int)get_global_id(0);
    const int j = (int)get_global_id(1);
    if (i >= m || j >= n) return;
    B[offB + i + (long)j * ldb] = i == j ? beta : alpha;
}

// tessera_geadd: B = alpha·A + beta·B on the m×n region (ScaLAPACK's PxGEADD, PLASMA's geadd).
// Launch: like tessera_lacpy.
__kernel void tessera_geadd(const int m, const int n, const scalar_t alpha, __global const scalar_t* A,
                            const ulong offA, const int lda, const scalar_t beta, __global scalar_t* B,
                            const ulong offB, const int ldb)
{
    const int i = (int)get_global_id(0);
    const int j = (int)get_global_id(1);
    if (i >= m || j >= n) return;
    const long b = offB + i + (long)j * ldb;
    B[b] = S_FMA(alpha, A[offA + i + (long)j * lda], S_MUL(beta, B[b]));
}

#ifdef TESSERA_COMPLEX
// tessera_scale_real_part: B = alpha·Re(A) on the m×n region, imaginary parts zero: A's imaginary
// parts are not read (a Hermitian matrix's diagonal, xHEMM's convention; an Inf or NaN there stays
// out). Launch: like tessera_lacpy.
__kernel void tessera_scale_real_part(const int m, const int n, const real_t alpha, __global const scalar_t* A,
                                      const ulong offA, const int lda, __global scalar_t* B, const ulong offB,
                                      const int ldb)
{
    const int i = (int)get_global_id(0);
    const int j = (int)get_global_id(1);
    if (i >= m || j >= n) return;
    B[offB + i + (long)j * ldb] = (scalar_t)(alpha * A[offA + i + (long)j * lda].x, (real_t)0);
}
#endif

#if defined(TESSERA_PREC_D) || defined(TESSERA_PREC_Z)
// The low precision of a d or z program (the mixed-precision solvers: LAPACK's xLAG2S / xLAT2S /
// xLAG2C, and back). lag2_low_t: float or float2.
#ifdef TESSERA_COMPLEX
typedef float2 lag2_low_t;
#define LAG2_DOWN(a) ((float2)((float)(a).x, (float)(a).y))
#define LAG2_UP(a) ((double2)((double)(a).x, (double)(a).y))
#define LAG2_OUT(a) (fabs((a).x) > (double)FLT_MAX || fabs((a).y) > (double)FLT_MAX)
#else
typedef float lag2_low_t;
#define LAG2_DOWN(a) ((float)(a))
#define LAG2_UP(a) ((double)(a))
#define LAG2_OUT(a) (fabs(a) > (double)FLT_MAX)
#endif

// tessera_lag2_down: B = alpha·A rounded to the low precision on the m×n region or its uplo
// trapezoid (as tessera_lacpy; alpha a power of 2, exact); unless flag is null, *flag = 1 when an
// entry of alpha·A (a real or an imaginary part) lies outside ±FLT_MAX
// (xLAG2S's RMAX; NaN is converted, not reported; the launcher clears the flag). Launch: like
// tessera_lacpy.
__kernel void tessera_lag2_down(const int m, const int n, const int uplo, const real_t alpha,
                                __global const scalar_t* A, const ulong offA,
                                const int lda, __global lag2_low_t* B, const ulong offB, const int ldb,
                                __global int* flag)
{
    const int i = (int)get_global_id(0);
    const int j = (int)get_global_id(1);
    if (i >= m || j >= n) return;
    if ((uplo == 1 && i < j) || (uplo == 2 && i > j)) return;
    const scalar_t a = A[offA + i + (long)j * lda] * alpha;
    if (flag && LAG2_OUT(a)) *flag = 1;
    B[offB + i + (long)j * ldb] = LAG2_DOWN(a);
}

// tessera_lag2_up: B = A (accumulate 0) or B + A (1), A in the low precision widened (xLAG2D, then
// the refinement's update). Launch: like tessera_lacpy.
__kernel void tessera_lag2_up(const int m, const int n, const int accumulate, __global const lag2_low_t* A,
                              const ulong offA, const int lda, __global scalar_t* B, const ulong offB, const int ldb)
{
    const int i = (int)get_global_id(0);
    const int j = (int)get_global_id(1);
    if (i >= m || j >= n) return;
    const long b = offB + i + (long)j * ldb;
    const scalar_t a = LAG2_UP(A[offA + i + (long)j * lda]);
    B[b] = accumulate ? B[b] + a : a;
}
#endif
