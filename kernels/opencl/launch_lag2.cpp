// Host launchers of the precision conversions of the mixed-precision solvers (lacpy.cl's
// tessera_lag2_down and tessera_lag2_up, built in the d and z programs).
#include <complex>

#include "kernels/opencl/launch.hpp"
#include "kernels/opencl/launch_util.hpp"

namespace tessera::ocl {

template <class T>
void lag2_down(const DeviceKernels& dk, cl_command_queue q, Uplo uplo, int64_t m, int64_t n, double alpha, Mat A,
               Mat B, int* host_info) {
    check_prec<T>(dk, "lag2_down");
    const cl_int zero = 0;
    if (host_info)
        check(clEnqueueFillBuffer(q, dk.info_scratch(), &zero, sizeof zero, 0, sizeof zero, 0, nullptr, nullptr),
              "clEnqueueFillBuffer(lag2_down flag)");
    if (m > 0 && n > 0) {
        cl_kernel kernel = dk.get("tessera_lag2_down");
        const cl_int cm = to_int(m, "lag2_down", "m"), cn = to_int(n, "lag2_down", "n");
        const cl_int cu = uplo == Uplo::Lower ? 1 : uplo == Uplo::Upper ? 2 : 0;
        const cl_int lda = to_int(A.ld, "lag2_down", "lda"), ldb = to_int(B.ld, "lag2_down", "ldb");
        const cl_ulong offA = A.off, offB = B.off;
        const cl_mem flag = host_info ? dk.info_scratch() : nullptr;  // null: the kernel reports nothing
        const cl_double calpha = alpha;
        set_args(kernel, "clSetKernelArg(tessera_lag2_down)", cm, cn, cu, calpha, A.mem, offA, lda, B.mem, offB, ldb,
                 flag);
        enqueue_2d(q, kernel, m, n, "clEnqueueNDRangeKernel(tessera_lag2_down)");
    }
    if (host_info)
        check(clEnqueueReadBuffer(q, dk.info_scratch(), CL_FALSE, 0, sizeof(cl_int), host_info, 0, nullptr, nullptr),
              "clEnqueueReadBuffer(lag2_down flag)");
}

template <class T>
void lag2_up(const DeviceKernels& dk, cl_command_queue q, bool accumulate, int64_t m, int64_t n, Mat A, Mat B) {
    check_prec<T>(dk, "lag2_up");
    if (m == 0 || n == 0) return;
    cl_kernel kernel = dk.get("tessera_lag2_up");
    const cl_int cm = to_int(m, "lag2_up", "m"), cn = to_int(n, "lag2_up", "n"), acc = accumulate ? 1 : 0;
    const cl_int lda = to_int(A.ld, "lag2_up", "lda"), ldb = to_int(B.ld, "lag2_up", "ldb");
    const cl_ulong offA = A.off, offB = B.off;
    set_args(kernel, "clSetKernelArg(tessera_lag2_up)", cm, cn, acc, A.mem, offA, lda, B.mem, offB, ldb);
    enqueue_2d(q, kernel, m, n, "clEnqueueNDRangeKernel(tessera_lag2_up)");
}

#define TESSERA_INSTANTIATE(T)                                                                                      \
    template void lag2_down<T>(const DeviceKernels&, cl_command_queue, Uplo, int64_t, int64_t, double, Mat, Mat, int*); \
    template void lag2_up<T>(const DeviceKernels&, cl_command_queue, bool, int64_t, int64_t, Mat, Mat);
TESSERA_INSTANTIATE(double)
TESSERA_INSTANTIATE(std::complex<double>)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::ocl
