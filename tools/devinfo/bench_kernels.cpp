// OpenCL C kernels of the microbenchmarks (see bench.hpp).
#include "tools/devinfo/bench.hpp"

namespace tessera::devinfo {

// fma_f32 / fma_f64: each work-item runs 8 independent FMA chains x = x*b + c, 128 FMAs per loop
// iteration (kFmaPerIteration in bench_compute.cpp), so the FMA pipes never wait on one chain's
// latency. Each chain is a vector of VW32 / VW64 lanes: 1 on GPUs (SIMT), the native vector width
// on CPUs, where the work-item loop around the iteration loop is not vectorized by the compiler. b and c are kernel arguments and the sum of the chains is stored, so nothing folds away.
// copy_f4: one float4 read and written per work-item. empty_kernel: launch latency.
static const char* kSource = R"CLC(
#ifdef HAS_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#define VEC_(T, n) T##n
#define VEC(T, n) VEC_(T, n)
#if VW32 == 1
typedef float f32v;
#else
typedef VEC(float, VW32) f32v;
#endif
#if defined(HAS_FP64) && VW64 == 1
typedef double f64v;
#elif defined(HAS_FP64)
typedef VEC(double, VW64) f64v;
#endif

#define S8(F) x0 = F(x0, bv, cv); x1 = F(x1, bv, cv); x2 = F(x2, bv, cv); x3 = F(x3, bv, cv); \
              x4 = F(x4, bv, cv); x5 = F(x5, bv, cv); x6 = F(x6, bv, cv); x7 = F(x7, bv, cv);
#define S32(F) S8(F) S8(F) S8(F) S8(F)
#define FMA_BODY(T, S, F)                                                               \
    const size_t gid = get_global_id(0);                                                \
    const T bv = (T)(b), cv = (T)(c);                                                   \
    T x0 = (T)((S)(gid & 1023) * (S)1e-4), x1 = x0 + (T)0.125, x2 = x0 + (T)0.25;       \
    T x3 = x0 + (T)0.375, x4 = x0 + (T)0.5, x5 = x0 + (T)0.625, x6 = x0 + (T)0.75;      \
    T x7 = x0 + (T)0.875;                                                               \
    for (int i = 0; i < iters; ++i) { S32(F) S32(F) S32(F) S32(F) }                     \
    out[gid] = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));

#ifdef USE_FMA32
#define FMA32(a, b, c) fma(a, b, c)
#else
#define FMA32(a, b, c) mad(a, b, c)
#endif
__kernel void fma_f32(__global f32v* out, const int iters, const float b, const float c) {
    FMA_BODY(f32v, float, FMA32)
}

#ifdef HAS_FP64
#ifdef USE_FMA64
#define FMA64(a, b, c) fma(a, b, c)
#else
#define FMA64(a, b, c) mad(a, b, c)
#endif
__kernel void fma_f64(__global f64v* out, const int iters, const double b, const double c) {
    FMA_BODY(f64v, double, FMA64)
}
#endif

__kernel void copy_f4(__global const float4* restrict src, __global float4* restrict dst) {
    const size_t i = get_global_id(0);
    dst[i] = src[i];
}

__kernel void empty_kernel(void) {}
)CLC";

const char* bench_kernel_source() { return kSource; }

int bench_vector_width(const DeviceProps& p, bool fp64) {
    if (!p.is_cpu()) return 1;
    const cl_uint w = fp64 ? p.native_width_double : p.native_width_float;
    return w == 2 || w == 4 || w == 8 || w == 16 ? int(w) : 1;
}

std::string bench_build_options(const DeviceProps& p) {
    std::string opts = "-DVW32=" + std::to_string(bench_vector_width(p, false)) +
                       " -DVW64=" + std::to_string(bench_vector_width(p, true));
    if (p.fp64) opts += " -DHAS_FP64";
    if (p.fma32) opts += " -DUSE_FMA32";
    if (p.fma64) opts += " -DUSE_FMA64";
    return opts;
}

}  // namespace tessera::devinfo
