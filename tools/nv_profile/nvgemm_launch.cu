// nvgemm_launch: one of gemm_nv_s.cl / gemm_nv_tf32.cl's float kernels (tessera_nvgemm_{nn,nt,tn,tt}[_tf32|_f16])
// launched from the PTX that NVIDIA's OpenCL compiled (`gpu_gemm --dump-ptx DIR`) through the CUDA driver
// API, so that Nsight Compute, which profiles CUDA launches only, can profile our OpenCL kernels
// (tools/nv_profile/profile.sh; bench/gpu_notes.md, "The TF32 GEMM's conversions").
//   nvgemm_launch FILE.ptx KERNEL m n k reps
// C (m×n, column-major, ldc = m) = op(A)·op(B), A and B uniform in [-0.5, 0.5), the kernels' arguments
// (m, n, k, alpha, A, offA, lda, B, offB, ldb, beta, C, offC, ldc, tri) in the OpenCL order; one
// work-group of 256 work-items per 128×128 block, as gemm_select.cpp launches them. NVIDIA's OpenCL
// PTX reads get_group_id as %envreg0 + %ctaid (%envreg: the launch's offsets, which a CUDA launch does
// not set), so every %envregN is replaced by 0 before loading. Prints the median time of `reps`
// launches (CUDA events), TFLOP/s and the largest |C − A·B| / Σ|a·b| over 64 sampled entries against
// a double reference (pass below 1e-2: TF32 and FP16 round to 2^-11).
#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#define CK(x)                                                                  \
    do {                                                                       \
        CUresult r_ = (x);                                                     \
        if (r_ != CUDA_SUCCESS) {                                              \
            const char* s_ = "?";                                              \
            cuGetErrorString(r_, &s_);                                         \
            std::printf("nvgemm_launch: %s: %s\n", #x, s_);                    \
            std::exit(1);                                                      \
        }                                                                      \
    } while (0)

int main(int argc, char** argv) {
    if (argc != 7) {
        std::printf("usage: nvgemm_launch FILE.ptx KERNEL m n k reps\n");
        return 2;
    }
    std::ifstream f(argv[1]);
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string ptx = std::regex_replace(ss.str(), std::regex("%envreg[0-9]+"), "0");
    const char* name = argv[2];
    int m = std::atoi(argv[3]), n = std::atoi(argv[4]), k = std::atoi(argv[5]);
    const int reps = std::max(1, std::atoi(argv[6]));
    const std::string form = std::string(name).substr(std::strlen("tessera_nvgemm_"), 2);
    const bool ta = form[0] == 't', tb = form[1] == 't';

    CK(cuInit(0));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    CUmodule mod;
    static char log[16384];
    CUjit_option opt[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void* val[] = {log, (void*)sizeof log};
    if (cuModuleLoadDataEx(&mod, ptx.c_str(), 2, opt, val) != CUDA_SUCCESS) {
        std::printf("nvgemm_launch: loading %s failed: %s\n", argv[1], log);
        return 1;
    }
    CUfunction fn;
    CK(cuModuleGetFunction(&fn, mod, name));
    int regs = 0, smem = 0, lmem = 0;
    cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn);
    cuFuncGetAttribute(&smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn);
    cuFuncGetAttribute(&lmem, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn);

    const int lda = ta ? k : m, ldb = tb ? n : k, ldc = m;
    const size_t sa = size_t(lda) * (ta ? m : k), sb = size_t(ldb) * (tb ? k : n), sc = size_t(ldc) * n;
    std::vector<float> hA(sa), hB(sb), hC(sc);
    std::srand(1);
    for (auto& x : hA) x = std::rand() / float(RAND_MAX) - 0.5f;
    for (auto& x : hB) x = std::rand() / float(RAND_MAX) - 0.5f;
    CUdeviceptr dA, dB, dC;
    CK(cuMemAlloc(&dA, sa * 4));
    CK(cuMemAlloc(&dB, sb * 4));
    CK(cuMemAlloc(&dC, sc * 4));
    CK(cuMemcpyHtoD(dA, hA.data(), sa * 4));
    CK(cuMemcpyHtoD(dB, hB.data(), sb * 4));
    CK(cuMemsetD32(dC, 0, sc));
    float alpha = 1.f, beta = 0.f;
    unsigned long long offA = 0, offB = 0, offC = 0;
    int lda_ = lda, ldb_ = ldb, ldc_ = ldc, tri = 0;
    void* args[] = {&m, &n, &k, &alpha, &dA, &offA, &lda_, &dB, &offB, &ldb_, &beta, &dC, &offC, &ldc_, &tri};
    const unsigned grid = unsigned((m + 127) / 128) * unsigned((n + 127) / 128);
    CUevent e0, e1;
    CK(cuEventCreate(&e0, 0));
    CK(cuEventCreate(&e1, 0));
    std::vector<float> ms;
    for (int i = 0; i < reps; ++i) {
        CK(cuEventRecord(e0, 0));
        CK(cuLaunchKernel(fn, grid, 1, 1, 256, 1, 1, 0, 0, args, nullptr));
        CK(cuEventRecord(e1, 0));
        CK(cuEventSynchronize(e1));
        float t = 0;
        CK(cuEventElapsedTime(&t, e0, e1));
        ms.push_back(t);
    }
    CK(cuMemcpyDtoH(hC.data(), dC, sc * 4));
    double worst = 0;
    for (int s = 0; s < 64; ++s) {
        const int i = int((s * 7919L) % m), j = int((s * 104729L) % n);
        double ref = 0, mag = 0;
        for (int l = 0; l < k; ++l) {
            const double a = ta ? hA[l + size_t(i) * lda] : hA[i + size_t(l) * lda];
            const double b = tb ? hB[j + size_t(l) * ldb] : hB[l + size_t(j) * ldb];
            ref += a * b, mag += std::fabs(a * b);
        }
        worst = std::fmax(worst, std::fabs(hC[i + size_t(j) * ldc] - ref) / mag);
    }
    std::sort(ms.begin(), ms.end());
    const double med = ms[ms.size() / 2];
    std::printf("%s m=%d n=%d k=%d: %d registers, %d B local memory, %d B static shared; median of %d %.3f ms, "
                "%.1f TFLOP/s; sampled error %.3g %s\n",
                name, m, n, k, regs, lmem, smem, reps, med, 2.0 * m * n * k / med / 1e9, worst,
                worst < 1e-2 ? "pass" : "FAIL");
    return worst < 1e-2 ? 0 : 1;
}
