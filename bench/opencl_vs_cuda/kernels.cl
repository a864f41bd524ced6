// OpenCL C side of the OpenCL-vs-CUDA benchmark. cuda_kernels.cuh holds the same kernels in
// CUDA C++, statement for statement: change both together.
//
// Matrices are column-major, double precision. Tile parameters come from the build options
// (-DGEMM_MB=... , the same values nvcc gets); the defaults below match cuda_kernels.cuh.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#ifndef GEMM_MB
#define GEMM_MB 128  // rows of C per work-group
#endif
#ifndef GEMM_NB
#define GEMM_NB 128  // columns of C per work-group
#endif
#ifndef GEMM_KB
#define GEMM_KB 16   // k-slice staged in local memory per step
#endif
#ifndef GEMM_TM
#define GEMM_TM 8    // rows of one work-item's register tile
#endif
#ifndef GEMM_TN
#define GEMM_TN 8    // columns of one work-item's register tile
#endif
#define GEMM_LX (GEMM_MB / GEMM_TM)
#define GEMM_LY (GEMM_NB / GEMM_TN)
#define GEMM_NT (GEMM_LX * GEMM_LY)
#if GEMM_MB % GEMM_TM || GEMM_NB % GEMM_TN || (GEMM_MB * GEMM_KB) % GEMM_NT || (GEMM_NB * GEMM_KB) % GEMM_NT
#error "tile parameters: GEMM_MB (NB) must be a multiple of GEMM_TM (TN), and the staged tiles of the work-group size"
#endif
#define COPY_WG 256  // work-group width of copy_matrix and the checking kernels

// The generator of bench_common.hpp: an integer in [-7, 8] times 1/8.
inline double gen_value(uint i, uint j, uint seed) {
    uint h = (i * 2654435761u) ^ (j * 2246822519u) ^ seed;
    h ^= h >> 15;
    return (double)((int)((h >> 7) & 15u) - 7) * 0.125;
}

// X(i, j) = gen_value(i, j, seed). Global (round_up(n, COPY_WG), n).
__kernel void gen_matrix(const int n, __global double* X, const uint seed) {
    const int i = (int)get_global_id(0), j = (int)get_global_id(1);
    if (i < n && j < n) X[i + (size_t)j * n] = gen_value((uint)i, (uint)j, seed);
}

// B = A, one double per work-item. Global (round_up(n, COPY_WG), n), local (COPY_WG, 1).
__kernel void copy_matrix(const int n, __global const double* restrict A, const int lda,
                          __global double* restrict B, const int ldb) {
    const int i = (int)get_global_id(0), j = (int)get_global_id(1);
    if (i < n && j < n) B[i + (size_t)j * ldb] = A[i + (size_t)j * lda];
}

// C = alpha·A·B + beta·C with m, n multiples of GEMM_MB, GEMM_NB and k of GEMM_KB (the host
// checks). Each work-group computes a GEMM_MB × GEMM_NB block of C: per k-step it stages the
// A and B slices in local memory (coalesced loads), then each work-item accumulates a
// GEMM_TM × GEMM_TN register tile whose rows are strided by GEMM_LX and columns by GEMM_LY.
// Global (m / GEMM_TM, n / GEMM_TN), local (GEMM_LX, GEMM_LY).
__kernel __attribute__((reqd_work_group_size(GEMM_LX, GEMM_LY, 1)))
void gemm_nn(const int m, const int n, const int k, const double alpha,
             __global const double* restrict A, const int lda,
             __global const double* restrict B, const int ldb,
             const double beta, __global double* restrict C, const int ldc) {
    const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
    const int tid = ty * GEMM_LX + tx;
    const int i0 = (int)get_group_id(0) * GEMM_MB, j0 = (int)get_group_id(1) * GEMM_NB;
    __local double As[GEMM_KB][GEMM_MB + 1];
    __local double Bs[GEMM_KB][GEMM_NB + 1];
    double acc[GEMM_TM][GEMM_TN];
#pragma unroll
    for (int r = 0; r < GEMM_TM; ++r)
#pragma unroll
        for (int c = 0; c < GEMM_TN; ++c) acc[r][c] = 0.0;

    for (int k0 = 0; k0 < k; k0 += GEMM_KB) {
#pragma unroll
        for (int l = 0; l < GEMM_MB * GEMM_KB / GEMM_NT; ++l) {
            const int e = tid + l * GEMM_NT;
            const int ii = e % GEMM_MB, kk = e / GEMM_MB;
            As[kk][ii] = A[(i0 + ii) + (size_t)(k0 + kk) * lda];
        }
#pragma unroll
        for (int l = 0; l < GEMM_NB * GEMM_KB / GEMM_NT; ++l) {
            const int e = tid + l * GEMM_NT;
            const int kk = e % GEMM_KB, jj = e / GEMM_KB;
            Bs[kk][jj] = B[(k0 + kk) + (size_t)(j0 + jj) * ldb];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int kk = 0; kk < GEMM_KB; ++kk) {
            double a[GEMM_TM], b[GEMM_TN];
#pragma unroll
            for (int r = 0; r < GEMM_TM; ++r) a[r] = As[kk][tx + r * GEMM_LX];
#pragma unroll
            for (int c = 0; c < GEMM_TN; ++c) b[c] = Bs[kk][ty + c * GEMM_LY];
#pragma unroll
            for (int r = 0; r < GEMM_TM; ++r)
#pragma unroll
                for (int c = 0; c < GEMM_TN; ++c) acc[r][c] = fma(a[r], b[c], acc[r][c]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#pragma unroll
    for (int c = 0; c < GEMM_TN; ++c) {
        const int j = j0 + ty + c * GEMM_LY;
#pragma unroll
        for (int r = 0; r < GEMM_TM; ++r) {
            const size_t idx = (size_t)(i0 + tx + r * GEMM_LX) + (size_t)j * ldc;
            C[idx] = beta == 0.0 ? alpha * acc[r][c] : alpha * acc[r][c] + beta * C[idx];
        }
    }
}

// sums[j] = Σ_i X(i, j): one work-group of COPY_WG per column. Global (n·COPY_WG), local COPY_WG.
__kernel __attribute__((reqd_work_group_size(COPY_WG, 1, 1)))
void column_sums(const int n, __global const double* X, const int ldx, __global double* sums) {
    __local double part[COPY_WG];
    const int j = (int)get_group_id(0), t = (int)get_local_id(0);
    double s = 0.0;
    for (int i = t; i < n; i += COPY_WG) s += X[i + (size_t)j * ldx];
    part[t] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = COPY_WG / 2; w > 0; w >>= 1) {
        if (t < w) part[t] += part[t + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (t == 0) sums[j] = part[0];
}

// *count += number of (i, j) with X(i, j) != gen_value(i, j, seed). Global as gen_matrix.
__kernel void count_mismatches(const int n, __global const double* X, const int ldx, const uint seed,
                               __global int* count) {
    const int i = (int)get_global_id(0), j = (int)get_global_id(1);
    if (i < n && j < n && X[i + (size_t)j * ldx] != gen_value((uint)i, (uint)j, seed)) atomic_inc(count);
}
