// One merge of the tridiagonal divide and conquer after xLAED2's deflation (tasks_eig.hpp:
// secular_merge): CPU, LAPACK's own xLAED3 (xLAED4's zero finder, the repaired vectors, two GEMMs);
// OpenCL, ocl::secular_merge (the roots by
// bisection on the device's compute units, the GEMMs there), where xLAED3 spends about 80 % of
// xSTEDC's time in its products and 15 % in xLAED4 (perf, LAPACKE_dstedc, n = 4096, one core).
#include "kernels/cpu/cblas_lapacke.hpp"  // first: it sets up <cblas.h> and <lapacke.h>

#include <algorithm>
#include <vector>

#include "codelets/codelet.hpp"
#include "codelets/tasks_eig.hpp"

extern "C" {
void slaed3_(const int* k, const int* n, const int* n1, float* d, float* q, const int* ldq, const float* rho,
             float* dlamda, const float* q2, const int* indx, const int* ctot, float* w, float* s, int* info);
void dlaed3_(const int* k, const int* n, const int* n1, double* d, double* q, const int* ldq, const double* rho,
             double* dlamda, const double* q2, const int* indx, const int* ctot, double* w, double* s, int* info);
}

namespace tessera {
namespace {

struct SecularArgs {
    uint32_t flags;
    ocl::SecularMerge m;
    int* info;
};

template <class R>
void secular_merge_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<SecularArgs*>(cl_arg);
    const ocl::SecularMerge& m = a.m;
    const int k = int(m.k), n = int(m.n1 + m.n2), n1 = int(m.n1);
    const R* vec = codelets::cpu_tile<R>(buffers[0]).ptr;
    R* lam = codelets::cpu_tile<R>(buffers[1]).ptr;
    const R* q2 = codelets::cpu_tile<R>(buffers[2]).ptr;
    auto q = codelets::cpu_tile<R>(buffers[3]);
    thread_local std::vector<R> work_buffer;
    thread_local std::vector<int> indx;
    R* s = codelets::workspace(work_buffer, size_t(n + 1) * size_t(k) + 2 * size_t(k));
    R* dlamda = s + size_t(n + 1) * size_t(k);
    R* w = dlamda + k;
    std::copy(vec, vec + k, dlamda);  // xLAED3 writes both
    std::copy(vec + k, vec + 2 * k, w);
    indx.resize(size_t(k));
    for (int i = 0; i < k; ++i) indx[size_t(i)] = int(vec[2 * k + i]) + 1;
    const int ctot2 = int(m.n12 - m.ctot1), ctot[4] = {int(m.ctot1), ctot2, int(m.n23) - ctot2, 0};
    const R rho = R(m.rho);
    const int ldq = int(q.ld);
    int info = 0;
    if constexpr (std::is_same_v<R, float>)
        slaed3_(&k, &n, &n1, lam, q.ptr, &ldq, &rho, dlamda, q2, indx.data(), ctot, w, s, &info);
    else
        dlaed3_(&k, &n, &n1, lam, q.ptr, &ldq, &rho, dlamda, q2, indx.data(), ctot, w, s, &info);
    *a.info = info;
}

template <class R>
void secular_merge_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<SecularArgs*>(cl_arg);
    auto wk = codelets::opencl_worker<R>();
    ocl::secular_merge<R>(wk.kernels, wk.queue, a.m, codelets::ocl_tile<R>(buffers[0]), codelets::ocl_tile<R>(buffers[1]),
                          codelets::ocl_tile<R>(buffers[2]), codelets::ocl_tile<R>(buffers[3]),
                          codelets::ocl_tile<R>(buffers[4]));
    *a.info = 0;  // bisection does not fail
}

template <class R>
starpu_codelet& secular_merge_codelet() {
    return codelets::named_codelet<R, secular_merge_cpu<R>, secular_merge_opencl<R>>(
        "secular_merge", {STARPU_R, STARPU_W, STARPU_R, STARPU_W, STARPU_SCRATCH});
}

}  // namespace

template <class R>
void tasks::secular_merge(const ocl::SecularMerge& m, TileHandle vec, TileHandle lam, TileHandle q2, TileHandle q,
                          TileHandle scratch, int* info, int prio) {
    const SecularArgs args{0, m, info};
    codelets::submit(secular_merge_codelet<R>(), args, {vec, lam, q2, q, scratch}, prio);
}

template void tasks::secular_merge<float>(const ocl::SecularMerge&, TileHandle, TileHandle, TileHandle, TileHandle,
                                          TileHandle, int*, int);
template void tasks::secular_merge<double>(const ocl::SecularMerge&, TileHandle, TileHandle, TileHandle, TileHandle,
                                           TileHandle, int*, int);

}  // namespace tessera
