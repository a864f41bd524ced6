// Helpers of the complex GEMM on the NVIDIA path (gemm_complex.cpp): a complex product is one real
// product of twice the rows and twice the inner dimension, run by the real kernels of gemm_nv.cl.
// A complex column-major m×n matrix X is, in memory, the real 2m×n matrix X̃ with rows 2i = Re X(i,:)
// and 2i+1 = Im X(i,:) (leading dimension 2·ldx). For C = A·B (A m×k, B k×n):
//   C̃ = Â·B̃,  Â the real 2m×2k matrix with 2×2 blocks Â(2i.., 2p..) = [Re a  −Im a; Im a  Re a],
// a = A(i,p), since (Re a + i·Im a)(Re b + i·Im b) is [Re a −Im a; Im a Re a]·[Re b; Im b]. The
// product costs 2m·n·2k real multiply-adds: 8mnk flops, the same as the complex product.
// Launch of every kernel here: 2-D, one work-item per element, global size rounded up to the
// local size (the launcher uses 64×4).
#ifdef TESSERA_COMPLEX

// P = Â of alpha·op(A), op(A) m×k (trans: 0 = A, 1 = Aᵀ, 2 = Aᴴ); P real, 2m×2k, leading dimension ldp.
__kernel void tessera_cgemm_pack_a(const int m, const int k, const int trans, const scalar_t alpha,
                                   __global const scalar_t* A, const ulong offA, const int lda,
                                   __global real_t* P, const ulong offP, const int ldp)
{
    const int i = (int)get_global_id(0), p = (int)get_global_id(1);
    if (i >= m || p >= k) return;
    scalar_t v = trans ? A[offA + p + (long)i * lda] : A[offA + i + (long)p * lda];
    if (trans == 2) v = S_CONJ(v);
    v = S_MUL(alpha, v);
    __global real_t* c0 = P + offP + 2 * i + (long)(2 * p) * ldp;  // column 2p of Â, then 2p + 1
    __global real_t* c1 = c0 + ldp;
    c0[0] = v.x;
    c0[1] = v.y;
    c1[0] = -v.y;
    c1[1] = v.x;
}

// D = op(B), op(B) k×n (trans as above), D complex with leading dimension ldd.
__kernel void tessera_cgemm_pack_b(const int k, const int n, const int trans,
                                   __global const scalar_t* B, const ulong offB, const int ldb,
                                   __global scalar_t* D, const ulong offD, const int ldd)
{
    const int p = (int)get_global_id(0), j = (int)get_global_id(1);
    if (p >= k || j >= n) return;
    scalar_t v = trans ? B[offB + j + (long)p * ldb] : B[offB + p + (long)j * ldb];
    D[offD + p + (long)j * ldd] = trans == 2 ? S_CONJ(v) : v;
}

// C = beta·C on the m×n C (beta = 0 writes zeros without reading C).
__kernel void tessera_cscal(const int m, const int n, const scalar_t beta,
                            __global scalar_t* C, const ulong offC, const int ldc)
{
    const int i = (int)get_global_id(0), j = (int)get_global_id(1);
    if (i >= m || j >= n) return;
    const long idx = offC + i + (long)j * ldc;
    C[idx] = S_IS_ZERO(beta) ? S_ZERO : S_MUL(beta, C[idx]);
}

// C = P + beta·C on the triangle of the n×n C that tri selects (gemm.cl's flags: 1 lower, 2 upper,
// | 4 Hermitian: imaginary parts of the diagonal not read, and set to 0); beta = 0 does not read C.
__kernel void tessera_cadd_tri(const int n, const int tri_flags,
                               __global const scalar_t* P, const ulong offP, const int ldp, const scalar_t beta,
                               __global scalar_t* C, const ulong offC, const int ldc)
{
    const int i = (int)get_global_id(0), j = (int)get_global_id(1);
    const int tri = tri_flags & 3;
    if (i >= n || j >= n || (tri == 1 && i < j) || (tri == 2 && i > j)) return;
    const long idx = offC + i + (long)j * ldc;
    scalar_t v = P[offP + i + (long)j * ldp];
    if (!S_IS_ZERO(beta)) {
        scalar_t c0 = C[idx];
        if ((tri_flags & 4) && i == j) c0.y = (real_t)0;  // xHERK: not read, taken as 0
        v = S_FMA(beta, c0, v);
    }
    if ((tri_flags & 4) && i == j) v.y = (real_t)0;
    C[idx] = v;
}

#endif  // TESSERA_COMPLEX
