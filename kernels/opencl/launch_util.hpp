// Helpers shared by the OpenCL launchers (launch*.cpp). Internal; StarPU-free.
#pragma once

#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "kernels/opencl/device.hpp"
#include "tessera/types.hpp"

namespace tessera::ocl {

/// Throw tessera::Error unless dk was built for T's precision.
template <class T>
void check_prec(const DeviceKernels& dk, const char* func) {
    const char want = prec_letter<T>();
    if (dk.prec() != want)
        throw Error(std::string("tessera::ocl::") + func + ": kernels built for precision '" +
                                    dk.prec() + "', called with '" + want + "'");
}

/// Set the kernel's arguments in order; each must be a trivially copyable value (cl_mem included).
template <class... Args>
void set_args(cl_kernel kernel, const char* what, const Args&... args) {
    cl_uint index = 0;
    ((check(clSetKernelArg(kernel, index++, sizeof(Args), &args), what)), ...);
}

/// x rounded up to a multiple of `to` (global work sizes).
inline size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

/// v as a kernel's int argument; throws tessera::Error naming func and arg when v < 0 or
/// v > INT_MAX.
inline cl_int to_int(int64_t v, const char* func, const char* arg) {
    if (v < 0 || v > INT_MAX)
        throw Error(std::string("tessera::ocl::") + func + ": argument '" + arg + "' = " +
                                    std::to_string(v) + " out of range");
    return cl_int(v);
}

/// Test-only: the nth kernel launch from now (1 = the next, through enqueue()) fails as if
/// clEnqueueNDRangeKernel had returned CL_OUT_OF_RESOURCES; 0 disarms. Thread-safe.
void inject_launch_failure(int nth);
/// Whether the launch now being made must fail (consumes one armed launch).
bool launch_failure_due();

/// Enqueue an NDRange launch without events (the queue is in order); throws tessera::Error
/// "<what> returned <code> (<name>)" on failure. Every kernel launch of the launchers goes here.
inline void enqueue(cl_command_queue q, cl_kernel kernel, cl_uint dims, const size_t* global, const size_t* local,
                    const char* what) {
    check(launch_failure_due() ? CL_OUT_OF_RESOURCES
                               : clEnqueueNDRangeKernel(q, kernel, dims, nullptr, global, local, 0, nullptr, nullptr),
          what);
}

/// One launch of an element-wise kernel over an m×n region: 2-D work-groups of 64×4, the global size
/// rounded up to them (lacpy.cl's kernels, gemm_complex.cl's); throws as enqueue().
inline void enqueue_2d(cl_command_queue q, cl_kernel kernel, int64_t m, int64_t n, const char* what) {
    const size_t local[2] = {64, 4};
    const size_t global[2] = {round_up(size_t(m), local[0]), round_up(size_t(n), local[1])};
    enqueue(q, kernel, 2, global, local, what);
}

/// The local size the kernel was compiled for (reqd_work_group_size) must be `expect`: throws
/// tessera::Error naming the kernel otherwise, instead of computing garbage.
void check_local(const DeviceKernels& dk, const char* name, const size_t* expect, int dims);

/// One launch of tessera_trtri_blocks (trsm.cl): W(K) = M(K,K)⁻¹, dense kn×kn (kn ≤ trsm_bs, zeros
/// in its other triangle) at W[offW + K·strideK], leading dimension ldw, for every diagonal block
/// K of the dim×dim triangular M(i,p) = A[offA + i·sai + p·sap], conjugated when `conj` (`lower`: M
/// lower triangular).
template <class T>
void trtri_blocks(const DeviceKernels& dk, cl_command_queue q, int64_t dim, bool lower, bool unit, bool conj,
                  cl_mem a, size_t offA, int64_t sai, int64_t sap, cl_mem w, size_t offW, int64_t ldw, size_t strideK);

/// A program built for an NVIDIA GPU of compute capability 8.0 or later (TESSERA_NV_SM defined: the
/// one-launch LU and QR leaves' register budgets and defaults, measured there).
inline bool nvidia_program(const DeviceKernels& dk) {
    return dk.options().find("-DTESSERA_NV_SM") != std::string::npos;
}

/// A kernel whose work-groups wait on each other (TESSERA_GETRF_GRID, TESSERA_QR_GRID,
/// TESSERA_TRSM_CHAIN): whether `setting` takes it on this program's device, 0 never, 1 on NVIDIA
/// GPUs (where it was measured), 2 on any device.
inline bool waiting_kernel_enabled(int setting, const DeviceKernels& dk) {
    return setting == 2 || (setting == 1 && nvidia_program(dk));
}

/// Whether op is a transposition (ConjTrans is Trans for real types).
inline bool is_trans(Trans t) { return t != Trans::NoTrans; }
/// op as the kernels' transA/transB argument: 0 = X, 1 = Xᵀ, 2 = Xᴴ (no conjugation in real programs).
inline cl_int trans_code(Trans t) { return t == Trans::NoTrans ? 0 : t == Trans::Trans ? 1 : 2; }

}  // namespace tessera::ocl
