// CUDA C++ side of the OpenCL-vs-CUDA benchmark: the kernels of kernels.cl, statement for
// statement (work-item = thread, work-group = block, local memory = shared memory). Change both
// together. Tile parameters come from -DGEMM_MB=... on the nvcc command line (run.sh passes the
// same values to the OpenCL program).
#pragma once

#include <cstddef>
#include <cstdint>

#ifndef GEMM_MB
#define GEMM_MB 128
#endif
#ifndef GEMM_NB
#define GEMM_NB 128
#endif
#ifndef GEMM_KB
#define GEMM_KB 16
#endif
#ifndef GEMM_TM
#define GEMM_TM 8
#endif
#ifndef GEMM_TN
#define GEMM_TN 8
#endif
#define GEMM_LX (GEMM_MB / GEMM_TM)
#define GEMM_LY (GEMM_NB / GEMM_TN)
#define GEMM_NT (GEMM_LX * GEMM_LY)
#if GEMM_MB % GEMM_TM || GEMM_NB % GEMM_TN || (GEMM_MB * GEMM_KB) % GEMM_NT || (GEMM_NB * GEMM_KB) % GEMM_NT
#error "tile parameters: GEMM_MB (NB) must be a multiple of GEMM_TM (TN), and the staged tiles of the block size"
#endif
#define COPY_WG 256

namespace ovc_cuda {

// The generator of bench_common.hpp: an integer in [-7, 8] times 1/8.
__device__ __forceinline__ double gen_value(uint32_t i, uint32_t j, uint32_t seed) {
    uint32_t h = (i * 2654435761u) ^ (j * 2246822519u) ^ seed;
    h ^= h >> 15;
    return double(int((h >> 7) & 15u) - 7) * 0.125;
}

// X(i, j) = gen_value(i, j, seed). Grid (ceil(n / COPY_WG), n), block (COPY_WG, 1).
__global__ void gen_matrix(int n, double* X, uint32_t seed) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y;
    if (i < n && j < n) X[i + size_t(j) * n] = gen_value(uint32_t(i), uint32_t(j), seed);
}

// B = A, one double per thread. Grid (ceil(n / COPY_WG), n), block (COPY_WG, 1).
__global__ void copy_matrix(int n, const double* __restrict__ A, int lda, double* __restrict__ B, int ldb) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y;
    if (i < n && j < n) B[i + size_t(j) * ldb] = A[i + size_t(j) * lda];
}

// C = alpha·A·B + beta·C; same algorithm, sizes and launch shape as gemm_nn in kernels.cl.
// Grid (m / GEMM_MB, n / GEMM_NB), block (GEMM_LX, GEMM_LY).
__global__ void __launch_bounds__(GEMM_NT)
gemm_nn(int m, int n, int k, double alpha, const double* __restrict__ A, int lda, const double* __restrict__ B,
        int ldb, double beta, double* __restrict__ C, int ldc) {
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * GEMM_LX + tx;
    const int i0 = blockIdx.x * GEMM_MB, j0 = blockIdx.y * GEMM_NB;
    __shared__ double As[GEMM_KB][GEMM_MB + 1];
    __shared__ double Bs[GEMM_KB][GEMM_NB + 1];
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
            As[kk][ii] = A[(i0 + ii) + size_t(k0 + kk) * lda];
        }
#pragma unroll
        for (int l = 0; l < GEMM_NB * GEMM_KB / GEMM_NT; ++l) {
            const int e = tid + l * GEMM_NT;
            const int kk = e % GEMM_KB, jj = e / GEMM_KB;
            Bs[kk][jj] = B[(k0 + kk) + size_t(j0 + jj) * ldb];
        }
        __syncthreads();
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
        __syncthreads();
    }
#pragma unroll
    for (int c = 0; c < GEMM_TN; ++c) {
        const int j = j0 + ty + c * GEMM_LY;
#pragma unroll
        for (int r = 0; r < GEMM_TM; ++r) {
            const size_t idx = size_t(i0 + tx + r * GEMM_LX) + size_t(j) * ldc;
            C[idx] = beta == 0.0 ? alpha * acc[r][c] : alpha * acc[r][c] + beta * C[idx];
        }
    }
}

// sums[j] = Σ_i X(i, j): one block of COPY_WG threads per column. Grid n, block COPY_WG.
__global__ void column_sums(int n, const double* X, int ldx, double* sums) {
    __shared__ double part[COPY_WG];
    const int j = blockIdx.x, t = threadIdx.x;
    double s = 0.0;
    for (int i = t; i < n; i += COPY_WG) s += X[i + size_t(j) * ldx];
    part[t] = s;
    __syncthreads();
    for (int w = COPY_WG / 2; w > 0; w >>= 1) {
        if (t < w) part[t] += part[t + w];
        __syncthreads();
    }
    if (t == 0) sums[j] = part[0];
}

// *count += number of (i, j) with X(i, j) != gen_value(i, j, seed). Launch as gen_matrix.
__global__ void count_mismatches(int n, const double* X, int ldx, uint32_t seed, int* count) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y;
    if (i < n && j < n && X[i + size_t(j) * ldx] != gen_value(uint32_t(i), uint32_t(j), seed)) atomicAdd(count, 1);
}

}  // namespace ovc_cuda
