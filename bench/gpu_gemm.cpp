// gpu_gemm: Tessera's NVIDIA OpenCL GEMM (kernels/opencl/gemm_nv.cl) on device-resident data, checked,
// next to CLBlast on the same buffers. Driven by bench/gpu_gemm.sh, which adds cuBLAS (torch) and
// prints the table. Built by CMake (tools/CMakeLists.txt), run only on the GPU machine.
//
//   gpu_gemm --check  [--prec d,s] [--variant OPTS]...   every trans/edge/offset case vs CBLAS
//                                                        and ocl::trsm through this GEMM
//   gpu_gemm --bench  [--prec d,s] [--variant OPTS]... [--sizes 1024,2048,4096,8192] [--clblast]
//                     [--forms nn,nt,tn]                  C = A·B (nn, default), C = A·Bᵀ (nt), C = Aᵀ·B (tn)
//   gpu_gemm --micro                                     mma.sync throughput per shape, FP64 and TF32
//   --emulate: pretend compute capability 9.0 and emulate mma through local memory (PoCL tests).
//   --tf32, --fp16: float products inside ocl::TensorProducts (gemm_nv_tf32.cl's tensor-core kernels),
//           checked against the unit roundoff of TF32 and FP16 (2^-11) instead of float's.
// A variant is a string of extra build options, e.g. "-DTESSERA_NVD_MMA=1688 -DTESSERA_NVD_ASYNC=1";
// its label is the options with "-DTESSERA_" removed. Machine-readable lines start with RESULT,
// CLBLAST, CHECK or MICRO.
#ifdef TESSERA_HAVE_CLBLAST
#include <clblast_c.h>
#endif

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "examples/common/tool_main.hpp"
#include "runtime/host_memory.hpp"
#include "tools/tune/cl_harness.hpp"

using namespace tessera;
using namespace tessera::harness;

namespace {

struct Args {
    bool check = false, bench = false, micro = false, clblast = false, emulate = false;
    ocl::TensorFormat format = ocl::TensorFormat::None;  // --tf32, --fp16
    std::vector<char> precs = {'d', 's'};
    std::vector<std::string> variants;
    std::vector<int> sizes = {1024, 2048, 4096, 8192};
    std::vector<std::string> forms = {"nn"};  // --bench: any of "nn" (C = A·B), "nt" (C = A·Bᵀ), "tn" (C = Aᵀ·B)
    std::string dump_dir;
    int reps = 5;
};

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, sep))
        if (!item.empty()) out.push_back(item);
    return out;
}

std::string label(const std::string& v) {
    std::string s = v.empty() ? "default" : v;
    for (size_t p; (p = s.find("-DTESSERA_")) != std::string::npos;) s.erase(p, 10);
    for (char& c : s)
        if (c == ' ') c = ',';
    return s;
}

ocl::DeviceInfo device_info(const Env& env, const Args& a) {
    ocl::DeviceInfo info = env.info;
    if (a.emulate) info.cc_major = 9, info.cc_minor = 0;
    return info;
}

/// The suffix of a result's label for the products' format.
std::string format_label(const Args& a) {
    return a.format == ocl::TensorFormat::Tf32 ? ",TF32" : a.format == ocl::TensorFormat::Fp16 ? ",FP16" : "";
}

/// The unit roundoff the checks scale by: 2^-11 for float with --tf32 or --fp16, else T's.
template <class T>
double unit_roundoff(const Args& a) {
    return a.format != ocl::TensorFormat::None && std::is_same_v<T, float> ? 0x1p-11 : std::numeric_limits<T>::epsilon() / 2;
}

std::string variant_opts(const Args& a, const std::string& v) {
    std::string o = v;
    if (a.emulate) o += " -DTESSERA_NV_SM=90 -DTESSERA_NV_EMULATE";
    return o;
}

template <class T>
bool run_checks(const Env& env, const Args& a, const std::string& variant) {
    const char prec = std::is_same_v<T, float> ? 's' : 'd';
    auto dk = build_kernels(env, prec, variant_opts(a, variant), device_info(env, a));
    if (!ocl::nv_gemm_available(*dk)) {
        std::printf("CHECK %c %s unavailable (no tessera_nvgemm kernels on this device)\n", prec, label(variant).c_str());
        return false;
    }
    if (a.format != ocl::TensorFormat::None && std::is_same_v<T, float> && !dk->has("tessera_nvgemm_nn_tf32")) {
        std::printf("CHECK %c %s,TF32 unavailable (no tessera_nvgemm_*_tf32 kernels)\n", prec, label(variant).c_str());
        return false;
    }
    std::mt19937_64 rng(42);
    double worst = 0;
    int fails = 0;
    const auto cases = standard_cases(a.emulate);
    const ocl::TensorProducts tensor(a.format);
    for (const GemmCase& c : cases) {
        std::string why;
        const double r = check_case<T>(env, *dk, nv_path<T>(), c, rng, &why, unit_roundoff<T>(a));
        worst = std::max(worst, r);
        if (!(r <= 60)) {
            ++fails;
            std::printf("  FAIL %c %s: residual %.3g %s\n", prec, c.str().c_str(), r, why.c_str());
        }
    }
    std::printf("CHECK %c %-40s cases=%zu fails=%d worst=%.3g %s\n", prec, (label(variant) + format_label(a)).c_str(), cases.size(), fails,
                worst, fails ? "FAILED" : "ok");
    std::fflush(stdout);
    return fails == 0;
}

// ---- trsm through the NVIDIA GEMM path ------------------------------------------------------
// ocl::trsm (diagonal-block inversion + GEMM, kernels/opencl/launch.cpp) on a program that holds
// the NVIDIA GEMM, so that all its GEMMs take nv_gemm: the 16 side/uplo/trans/diag cases at a few
// sizes (several diagonal blocks, a partial one, one right-hand side), with element offsets and
// padded leading dimensions, against CBLAS; and alpha = 0 over a NaN B. Prints one
// "CHECK <p> trsm <variant> ..." line like run_checks.

void trsm_ref(CBLAS_SIDE s, CBLAS_UPLO u, CBLAS_TRANSPOSE t, CBLAS_DIAG d, int m, int n, double alpha,
              const double* A, int lda, double* B, int ldb) {
    cblas_dtrsm(CblasColMajor, s, u, t, d, m, n, alpha, A, lda, B, ldb);
}
void trsm_ref(CBLAS_SIDE s, CBLAS_UPLO u, CBLAS_TRANSPOSE t, CBLAS_DIAG d, int m, int n, float alpha,
              const float* A, int lda, float* B, int ldb) {
    cblas_strsm(CblasColMajor, s, u, t, d, m, n, alpha, A, lda, B, ldb);
}

/// One trsm case; returns ‖X − X_ref‖₁ / (‖X_ref‖₁·dim·eps) (A is well conditioned by
/// construction), or +inf when B changed outside its m×n region or X holds a NaN/Inf.
template <class T>
double trsm_case(const Env& env, const ocl::DeviceKernels& dk, Side side, Uplo uplo, Trans tr, Diag diag, int m,
                 int n, T alpha, int idx, std::mt19937_64& rng) {
    const T nan = std::numeric_limits<T>::quiet_NaN(), sentinel = T(12345.5);
    const int na = side == Side::Left ? m : n, lda = na + idx % 4, ldb = m + idx % 3;
    const size_t offA = size_t(idx % 5), offB = size_t(idx % 7);
    // Referenced triangle: off-diagonal in [-1,1]/na, diagonal in [1,2] (NaN when Unit: it must
    // not be read); the other triangle and the padding NaN. `clean` is the CBLAS operand.
    std::vector<T> hA(offA + size_t(lda) * na + 3, nan), clean(size_t(na) * na, T(0));
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int j = 0; j < na; ++j)
        for (int i = 0; i < na; ++i) {
            T& a = hA[offA + i + size_t(j) * lda];
            T& c = clean[i + size_t(j) * na];
            if (i == j) {
                c = diag == Diag::Unit ? T(1) : T(1.5 + 0.5 * u(rng));
                a = diag == Diag::Unit ? nan : c;
            } else if (uplo == Uplo::Lower ? i > j : i < j) {
                a = c = T(u(rng) / na);
            }
        }
    std::vector<T> hB(offB + size_t(ldb) * n + 3, sentinel), x0(size_t(m) * n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) hB[offB + i + size_t(j) * ldb] = x0[i + size_t(j) * m] = alpha == T(0) ? nan : T(u(rng));
    Buffer<T> dA(env, hA.size()), dB(env, hB.size());
    dA.write(env, hA), dB.write(env, hB);
    ocl::trsm<T>(dk, env.queue, side, uplo, tr, diag, m, n, alpha, {dA.mem, offA, lda}, {dB.mem, offB, ldb});
    check(clFinish(env.queue), "clFinish");
    std::vector<T> out(hB.size());
    dB.read(env, out);
    std::vector<T> ref = x0;
    if (alpha == T(0)) std::fill(ref.begin(), ref.end(), T(0));
    else
        trsm_ref(side == Side::Left ? CblasLeft : CblasRight, uplo == Uplo::Lower ? CblasLower : CblasUpper,
                 tr == Trans::NoTrans ? CblasNoTrans : CblasTrans, diag == Diag::Unit ? CblasUnit : CblasNonUnit, m, n,
                 alpha, clean.data(), na, ref.data(), m);
    std::vector<T> dx(ref.size());
    for (size_t e = 0; e < out.size(); ++e) {
        const bool inside = e >= offB && (e - offB) % ldb < size_t(m) && (e - offB) / ldb < size_t(n);
        if (!inside) {
            if (out[e] != sentinel) return INFINITY;
            continue;
        }
        const size_t i = (e - offB) % ldb, j = (e - offB) / ldb;
        if (!std::isfinite(out[e])) return INFINITY;
        dx[i + j * m] = out[e] - ref[i + j * m];
    }
    const double num = norm1(m, n, dx.data(), m), den = norm1(m, n, ref.data(), m) * na * (std::numeric_limits<T>::epsilon() / 2);
    return num == 0 ? 0 : num / den;
}

template <class T>
bool run_trsm_checks(const Env& env, const Args& a, const std::string& variant) {
    const char prec = std::is_same_v<T, float> ? 's' : 'd';
    auto dk = build_kernels(env, prec, variant_opts(a, variant), device_info(env, a), nv_gemm_files({"getrf.cl", "trsm.cl", "lacpy.cl"}));
    if (!ocl::nv_gemm_available(*dk)) {
        std::printf("CHECK %c trsm %s unavailable (no tessera_nvgemm kernels on this device)\n", prec, label(variant).c_str());
        return false;
    }
    std::mt19937_64 rng(7);
    const int sizes[][2] = {{300, 200}, {64, 1}, {130, 257}};
    int cases = 0, fails = 0, idx = 0;
    double worst = 0;
    auto one = [&](Side s, Uplo u, Trans t, Diag d, int m, int n, T alpha) {
        const double r = trsm_case<T>(env, *dk, s, u, t, d, m, n, alpha, idx++, rng);
        ++cases, worst = std::max(worst, r);
        if (!(r <= 60)) {
            ++fails;
            std::printf("  FAIL %c trsm %c%c%c%c m=%d n=%d alpha=%g: %.3g\n", prec, char(s), char(u), char(t), char(d), m,
                        n, double(alpha), r);
        }
    };
    for (const auto& sz : sizes)
        for (Side s : {Side::Left, Side::Right})
            for (Uplo u : {Uplo::Lower, Uplo::Upper})
                for (Trans t : {Trans::NoTrans, Trans::Trans})
                    for (Diag d : {Diag::NonUnit, Diag::Unit}) one(s, u, t, d, sz[0], sz[1], T(-1.5));
    one(Side::Left, Uplo::Lower, Trans::NoTrans, Diag::NonUnit, 100, 30, T(0));
    std::printf("CHECK %c trsm %-35s cases=%d fails=%d worst=%.3g %s\n", prec, label(variant).c_str(), cases, fails,
                worst, fails ? "FAILED" : "ok");
    std::fflush(stdout);
    return fails == 0;
}

/// Device-resident n×n×n problem: A, B random, C written by each call (alpha = 1, beta = 0).
template <class T>
struct Problem {
    int n;
    std::vector<T> hA, hB;
    Buffer<T> dA, dB, dC;
    Problem(const Env& env, int n_, uint64_t seed)
        : n(n_), hA(size_t(n_) * n_), hB(size_t(n_) * n_), dA(env, hA.size()), dB(env, hB.size()), dC(env, hA.size()) {
        uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
        auto next = [&s] {  // xorshift64*: fast fill of large matrices, values in [-1, 1)
            s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
            return double((s * 0x2545F4914F6CDD1Dull) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
        };
        for (T& x : hA) x = T(next());
        for (T& x : hB) x = T(next());
        dA.write(env, hA), dB.write(env, hB);
    }
    /// Poison C (NaN), for the checked run.
    void poison(const Env& env) {
        std::vector<T> nan(hA.size(), std::numeric_limits<T>::quiet_NaN());
        dC.write(env, nan);
    }
    /// Max over `samples` random entries of |C − ref| / (Σ_k |a_ik·op(b)_kj| · n · eps); NaN → inf.
    double sampled_residual(const Env& env, int samples, uint64_t seed, bool transB = false, bool transA = false,
                            double eps = std::numeric_limits<T>::epsilon() / 2) {
        std::vector<T> c(size_t(n) * n);
        dC.read(env, c);
        std::mt19937_64 rng(seed);
        std::uniform_int_distribution<int> d(0, n - 1);
        double worst = 0;
        for (int s = 0; s < samples + 2; ++s) {
            const int i = s == 0 ? 0 : s == 1 ? n - 1 : d(rng), j = s == 0 ? 0 : s == 1 ? n - 1 : d(rng);
            long double ref = 0, mag = 0;
            for (int l = 0; l < n; ++l) {
                const long double p = (long double)hA[transA ? l + size_t(i) * n : i + size_t(l) * n] *
                                      hB[transB ? j + size_t(l) * n : l + size_t(j) * n];
                ref += p, mag += p < 0 ? -p : p;
            }
            const double got = c[i + size_t(j) * n];
            if (!std::isfinite(got)) return INFINITY;
            worst = std::max(worst, double(std::fabs((long double)got - ref) / (mag * n * eps)));
        }
        return worst;
    }
};

#ifdef TESSERA_HAVE_CLBLAST
CLBlastStatusCode clblast_gemm(size_t n, double alpha, cl_mem A, cl_mem B, double beta, cl_mem C, cl_command_queue* q) {
    return CLBlastDgemm(CLBlastLayoutColMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n, n, alpha, A, 0, n, B, 0, n,
                        beta, C, 0, n, q, nullptr);
}
CLBlastStatusCode clblast_gemm(size_t n, float alpha, cl_mem A, cl_mem B, float beta, cl_mem C, cl_command_queue* q) {
    return CLBlastSgemm(CLBlastLayoutColMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n, n, alpha, A, 0, n, B, 0, n,
                        beta, C, 0, n, q, nullptr);
}
#endif

template <class T>
void run_bench(const Env& env, const Args& a) {
    const char prec = std::is_same_v<T, float> ? 's' : 'd';
    std::vector<std::unique_ptr<ocl::DeviceKernels>> dks;
    std::vector<std::string> vs = a.variants.empty() ? std::vector<std::string>{""} : a.variants;
    const ocl::TensorProducts tensor(a.format);
    for (const std::string& v : vs) {
        try {
            dks.push_back(build_kernels(env, prec, variant_opts(a, v), device_info(env, a)));
        } catch (const std::exception& e) {
            std::printf("RESULT %c build-failed %s: %.300s\n", prec, label(v).c_str(), e.what());
            dks.push_back(nullptr);
        }
    }
    for (int n : a.sizes) {
        Problem<T> p(env, n, 1000 + n);
        for (const std::string& form : a.forms) {
            const bool nt = form == "nt", tn = form == "tn";
            const std::string tag = std::string(1, prec) + (form == "nn" ? "" : form);  // RESULT's precision field
            const double flop = 2.0 * n * double(n) * n;
            const int per_batch = n <= 1024 ? 20 : n <= 2048 ? 10 : n <= 4096 ? 4 : 2;
            for (size_t vi = 0; vi < vs.size(); ++vi) {
                if (!dks[vi]) continue;
                const ocl::DeviceKernels& dk = *dks[vi];
                GemmCase c;
                c.m = c.n = c.k = n;
                const ocl::Mat A{p.dA.mem, 0, n}, B{p.dB.mem, 0, n}, C{p.dC.mem, 0, n};
                auto call = [&] {
                    if (!ocl::nv_gemm<T>(dk, env.queue, tn ? Trans::Trans : Trans::NoTrans, nt ? Trans::Trans : Trans::NoTrans,
                                         n, n, n, T(1), A, B, T(0), C))
                        throw std::runtime_error("nv_gemm unavailable");
                };
                p.poison(env);
                call();
                check(clFinish(env.queue), "clFinish");
                const double res = p.sampled_residual(env, 64, 7, nt, tn, unit_roundoff<T>(a));
                const double t = time_batches(env, call, a.reps, per_batch);
                std::printf("RESULT %s %d %-34s %8.2f TFLOP/s  %.3f ms  check=%.3g %s\n", tag.c_str(), n,
                            (label(vs[vi]) + format_label(a)).c_str(),
                            flop / t * 1e-12, t * 1e3, res, res <= 60 ? "ok" : "FAILED");
                std::fflush(stdout);
            }
        }
#ifdef TESSERA_HAVE_CLBLAST
        if (a.clblast) {
            cl_command_queue q = env.queue;
            auto call = [&] {
                const CLBlastStatusCode st = clblast_gemm(size_t(n), T(1), p.dA.mem, p.dB.mem, T(0), p.dC.mem, &q);
                if (st != CLBlastSuccess) throw std::runtime_error("CLBlast gemm failed: " + std::to_string(int(st)));
            };
            try {
                p.poison(env);
                call();
                check(clFinish(env.queue), "clFinish");
                const double res = p.sampled_residual(env, 64, 7);
                const double t = time_batches(env, call, a.reps, per_batch);
                std::printf("CLBLAST %c %d %8.2f TFLOP/s  %.3f ms  check=%.3g %s\n", prec, n, flop / t * 1e-12, t * 1e3,
                            res, res <= 60 ? "ok" : "FAILED");
            } catch (const std::exception& e) {
                std::printf("CLBLAST %c %d error: %s\n", prec, n, e.what());
            }
            std::fflush(stdout);
        }
#endif
    }
}

// mma.sync throughput per shape, FP64 (SHAPE 884 … 16816) and TF32 with FP32 accumulation (SHAPE
// 91684, 91688: m16n8k4, m16n8k8): 16 independent accumulator chains per warp.
const char* kMicroSource = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define CH 16
// The types of the mma, its accumulators' and operands' OpenCL types and asm constraints.
#if SHAPE > 90000
#define TYPES "f32.tf32.tf32.f32"
typedef float acc_t;  // TF32 operands: float bits in 32-bit registers
typedef uint op_t;
#define OP(v) as_uint((float)(v))
#define ACC "+f"
#define OPC "r"
#else
#define TYPES "f64.f64.f64.f64"
typedef double acc_t;
typedef double op_t;
#define OP(v) (v)
#define ACC "+d"
#define OPC "d"
#endif
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void mma_rate(__global double* out, const int iters, const double x, const double y) {
    const int lid = get_local_id(0);
    const op_t a0 = OP(x + lid), a1 = OP(x - lid), a2 = OP(x * lid), a3 = OP(y + lid), b0 = OP(y), b1 = OP(y * 0.5);
    acc_t c[CH][4];
    for (int u = 0; u < CH; ++u) { c[u][0] = u; c[u][1] = 0; c[u][2] = 0; c[u][3] = 0; }
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int u = 0; u < CH; ++u) {
#if SHAPE == 884
            asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                         : "+d"(c[u][0]), "+d"(c[u][1]) : "d"(a0), "d"(b0));
#elif SHAPE % 90000 == 1684
            asm volatile("mma.sync.aligned.m16n8k4.row.col." TYPES " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                         : ACC(c[u][0]), ACC(c[u][1]), ACC(c[u][2]), ACC(c[u][3]) : OPC(a0), OPC(a1), OPC(b0));
#elif SHAPE % 90000 == 1688
            asm volatile("mma.sync.aligned.m16n8k8.row.col." TYPES " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                         : ACC(c[u][0]), ACC(c[u][1]), ACC(c[u][2]), ACC(c[u][3])
                         : OPC(a0), OPC(a1), OPC(a2), OPC(a3), OPC(b0), OPC(b1));
#elif SHAPE == 16816
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%4,%5,%6,%7}, {%8,%9,%8,%9}, {%0,%1,%2,%3};"
                         : "+d"(c[u][0]), "+d"(c[u][1]), "+d"(c[u][2]), "+d"(c[u][3])
                         : "d"(a0), "d"(a1), "d"(a2), "d"(a3), "d"(b0), "d"(b1));
#endif
        }
    }
    acc_t s = 0;
    for (int u = 0; u < CH; ++u) s += c[u][0] + c[u][1] + c[u][2] + c[u][3];
    out[get_global_id(0)] = s;
}
)CL";

void run_micro(const Env& env) {
    const int shapes[] = {884, 1684, 1688, 16816, 91684, 91688};
    const double flops_per_mma[] = {512, 1024, 2048, 4096, 1024, 2048};
    const size_t local = 256, groups = size_t(std::max(1u, env.info.compute_units)) * 4;
    Buffer<double> out(env, groups * local);
    for (int s = 0; s < 6; ++s) {
        try {
            cl_program prog = build_program(env, kMicroSource, "-DSHAPE=" + std::to_string(shapes[s]));
            cl_int err = CL_SUCCESS;
            cl_kernel k = clCreateKernel(prog, "mma_rate", &err);
            check(err, "clCreateKernel");
            const int iters = int(20000 * 512 / flops_per_mma[s]);
            const double x = 1.0, y = 1e-9;
            check(clSetKernelArg(k, 0, sizeof out.mem, &out.mem), "arg");
            check(clSetKernelArg(k, 1, sizeof iters, &iters), "arg");
            check(clSetKernelArg(k, 2, sizeof x, &x), "arg");
            check(clSetKernelArg(k, 3, sizeof y, &y), "arg");
            const size_t global = groups * local;
            auto call = [&] {
                check(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr), "enqueue");
            };
            const double t = time_batches(env, call, 3, 1);
            const double flop = double(groups) * (local / 32) * iters * 16 * flops_per_mma[s];
            std::printf("MICRO mma %s shape %d: %.2f TFLOP/s (%.3f ms)\n", shapes[s] > 90000 ? "tf32" : "f64",
                        shapes[s] % 90000, flop / t * 1e-12, t * 1e3);
            clReleaseKernel(k);
            clReleaseProgram(prog);
        } catch (const std::exception& e) {
            std::printf("MICRO mma shape %d: error %.400s\n", shapes[s], e.what());
        }
        std::fflush(stdout);
    }
}

/// Write the program binary (PTX on NVIDIA) of each precision's first variant to DIR/tessera_<p>.ptx.
void dump_ptx(const Env& env, const Args& a) {
    for (char p : a.precs) {
        const std::string v = a.variants.empty() ? "" : a.variants[0];
        const std::string opts = ocl::build_options(device_info(env, a), p) + " " + variant_opts(a, v);
        cl_program prog = build_program(env, program_subset(nv_gemm_files()), opts);
        size_t size = 0;
        check(clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr), "clGetProgramInfo");
        std::vector<unsigned char> bin(size);
        unsigned char* ptr = bin.data();
        check(clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr), "clGetProgramInfo");
        const std::string path = a.dump_dir + "/tessera_" + p + ".ptx";
        while (!bin.empty() && bin.back() == 0) bin.pop_back();  // NVIDIA ends the PTX with NULs; ptxas rejects them
        if (FILE* f = std::fopen(path.c_str(), "wb")) {
            std::fwrite(bin.data(), 1, bin.size(), f);
            std::fclose(f);
            std::printf("wrote %s (%zu bytes, options: %s)\n", path.c_str(), size, opts.c_str());
        }
        clReleaseProgram(prog);
    }
}

constexpr const char* kUsage =
    "usage: gpu_gemm [--check] [--bench] [--micro] [--clblast] [--emulate] [--tf32|--fp16] [--prec d,s] [--variant OPTS]... "
    "[--sizes N,...] [--forms nn,nt,tn] [--reps R] [--dump-ptx DIR]";

/// Parse argv; throws tessera::Error (exit code 2) naming the option for a missing or invalid value.
Args parse_args(int argc, char** argv) {
    Args a;
    for (int i = 1; i < argc; ++i) {
        const std::string s = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw Error(s + " needs a value; " + kUsage);
            return argv[++i];
        };
        if (s == "--check") a.check = true;
        else if (s == "--bench") a.bench = true;
        else if (s == "--micro") a.micro = true;
        else if (s == "--clblast") a.clblast = true;
        else if (s == "--emulate") a.emulate = true;
        else if (s == "--tf32") a.format = ocl::TensorFormat::Tf32;
        else if (s == "--fp16") a.format = ocl::TensorFormat::Fp16;
        else if (s == "--dump-ptx") a.dump_dir = value();
        else if (s == "--variant") a.variants.push_back(value());
        else if (s == "--reps") a.reps = parse_int_option("--reps", value(), 1);
        else if (s == "--prec") {
            a.precs.clear();
            for (const auto& p : split(value(), ',')) {
                if (p != "d" && p != "s") throw Error("--prec: expected d, s or d,s, got '" + p + "'");
                a.precs.push_back(p[0]);
            }
        } else if (s == "--forms") {
            a.forms.clear();
            for (const auto& f : split(value(), ',')) {
                if (f != "nn" && f != "nt" && f != "tn")
                    throw Error("--forms: expected a list of nn, nt, tn, got '" + f + "'");
                a.forms.push_back(f);
            }
        } else if (s == "--sizes") {
            a.sizes.clear();
            for (const auto& p : split(value(), ',')) {
                const int n = parse_int_option("--sizes", p, 1);
                // The benchmark's host copies of A, B and C (double at most).
                detail::require_host_arrays("--sizes " + p, n, n, sizeof(double), 3);
                a.sizes.push_back(n);
            }
        } else {
            throw Error("unknown argument '" + s + "'; " + kUsage);
        }
    }
    return a;
}

// Exit status (examples/common/tool_main.hpp): 0 every check passed; 1 a check or the device failed;
// 2 refused: bad arguments, or --sizes whose matrices do not fit in host memory.
int gpu_gemm_main(int argc, char** argv) {
    const Args a = parse_args(argc, argv);
    Env env;
    std::printf("device: %s\n", env.describe().c_str());
#ifndef TESSERA_HAVE_CLBLAST
    if (a.clblast) std::printf("CLBLAST not built in (no clblast_c.h at configure time)\n");
#endif
    bool ok = true;
    if (!a.dump_dir.empty()) dump_ptx(env, a);
    if (a.micro) run_micro(env);
    if (a.check)
        for (char p : a.precs)
            for (const std::string& v : a.variants.empty() ? std::vector<std::string>{""} : a.variants)
                try {
                    ok &= p == 'd' ? run_checks<double>(env, a, v) : run_checks<float>(env, a, v);
                    ok &= p == 'd' ? run_trsm_checks<double>(env, a, v) : run_trsm_checks<float>(env, a, v);
                } catch (const std::exception& e) {
                    std::printf("CHECK %c %s error: %.2000s\n", p, label(v).c_str(), e.what());
                    ok = false;
                }
    if (a.bench)
        for (char p : a.precs) p == 'd' ? run_bench<double>(env, a) : run_bench<float>(env, a);
    return ok ? tool::kOk : tool::kFailed;
}

}  // namespace

int main(int argc, char** argv) {
    return tool::guarded_main("gpu_gemm", [&] { return gpu_gemm_main(argc, argv); });
}
