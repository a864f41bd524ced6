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
