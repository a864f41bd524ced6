// Host launchers of the portable OpenCL tile kernels (gemm.cl, trsm.cl, potrf.cl, lacpy.cl).
// Each sets the arguments of the device's cached cl_kernel and enqueues it on `q`, never waiting.
//
// Work-group geometry. The kernels take their tile sizes from TESSERA_* macros with #ifndef
// defaults; a device's table may override them through build_options(). The launchers read the
// same macros back from build_options(dk.info(), dk.prec()) (same defaults as the .cl files) and
// cross-check the local size against the kernel's reqd_work_group_size, so a mismatch throws
// instead of computing garbage.
#include "kernels/opencl/launch.hpp"

#include <climits>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace tessera::ocl {
namespace {

/// Kernel parameters of one built program; defaults must match the #ifndef values in the .cl files.
struct Params {
    int gemm_mb = 64, gemm_nb = 64, gemm_kb = 16, gemm_tm = 4, gemm_tn = 4;
    int trsm_tb = 16, trsm_vb = 64;
    int potrf_wg = 256;
};

/// Value of "-DNAME=value" in `opts`, or `def`.
int macro_value(const std::string& opts, const char* name, int def) {
    const std::string key = std::string("-D") + name + "=";
    size_t pos = 0;
    while ((pos = opts.find(key, pos)) != std::string::npos) {
        if (pos == 0 || opts[pos - 1] == ' ') return std::stoi(opts.substr(pos + key.size()));
        pos += key.size();
    }
    return def;
}

Params params_of(const DeviceKernels& dk) {
    const std::string opts = build_options(dk.info(), dk.prec());
    Params p;
    if (opts.find("-DTESSERA_") == std::string::npos) return p;
    p.gemm_mb = macro_value(opts, "TESSERA_GEMM_MB", p.gemm_mb);
    p.gemm_nb = macro_value(opts, "TESSERA_GEMM_NB", p.gemm_nb);
    p.gemm_kb = macro_value(opts, "TESSERA_GEMM_KB", p.gemm_kb);
    p.gemm_tm = macro_value(opts, "TESSERA_GEMM_TM", p.gemm_tm);
    p.gemm_tn = macro_value(opts, "TESSERA_GEMM_TN", p.gemm_tn);
    p.trsm_tb = macro_value(opts, "TESSERA_TRSM_TB", p.trsm_tb);
    p.trsm_vb = macro_value(opts, "TESSERA_TRSM_VB", p.trsm_vb);
    p.potrf_wg = macro_value(opts, "TESSERA_POTRF_WG", p.potrf_wg);
    return p;
}

template <class T>
void check_prec(const DeviceKernels& dk, const char* func) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "real precisions only");
    const char want = std::is_same_v<T, float> ? 's' : 'd';
    if (dk.prec() != want)
        throw std::invalid_argument(std::string("tessera::ocl::") + func + ": kernels built for precision '" +
                                    dk.prec() + "', called with '" + want + "'");
}

cl_int to_int(int64_t v, const char* func, const char* arg) {
    if (v < 0 || v > INT_MAX)
        throw std::invalid_argument(std::string("tessera::ocl::") + func + ": argument '" + arg + "' = " +
                                    std::to_string(v) + " out of range");
    return cl_int(v);
}

/// Set the kernel's arguments in order; each must be a trivially copyable value (cl_mem included).
template <class... Args>
void set_args(cl_kernel kernel, const char* what, const Args&... args) {
    cl_uint index = 0;
    ((check(clSetKernelArg(kernel, index++, sizeof(Args), &args), what)), ...);
}

/// The local size the kernel was compiled for (reqd_work_group_size) must be `expect`.
void check_local(cl_kernel kernel, cl_command_queue q, const size_t* expect, int dims, const char* name) {
    size_t got[3] = {0, 0, 0};
    cl_device_id dev = nullptr;
    check(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, nullptr), "clGetCommandQueueInfo");
    check(clGetKernelWorkGroupInfo(kernel, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof got, got, nullptr),
          "clGetKernelWorkGroupInfo");
    for (int d = 0; d < dims; ++d)
        if (got[d] != expect[d])
            throw std::runtime_error(std::string("tessera::ocl: kernel ") + name +
                                     " was built for another work-group size than build_options() describes");
}

size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

void enqueue(cl_command_queue q, cl_kernel kernel, cl_uint dims, const size_t* global, const size_t* local,
             const char* what) {
    check(clEnqueueNDRangeKernel(q, kernel, dims, nullptr, global, local, 0, nullptr, nullptr), what);
}

bool is_trans(Trans t) { return t != Trans::NoTrans; }  // ConjTrans == Trans for real types

/// Shared by gemm and syrk: tri 0 = all of C, 1 = lower, 2 = upper.
template <class T>
void gemm_launch(const DeviceKernels& dk, cl_command_queue q, const char* func, bool transA, bool transB,
                 int64_t m, int64_t n, int64_t k, T alpha, const Mat& A, const Mat& B, T beta, const Mat& C,
                 cl_int tri) {
    const Params p = params_of(dk);
    cl_kernel kernel = dk.get("tessera_gemm");
    const size_t local[2] = {size_t(p.gemm_mb / p.gemm_tm), size_t(p.gemm_nb / p.gemm_tn)};
    check_local(kernel, q, local, 2, "tessera_gemm");
    // With k == 0 or alpha == 0 the kernel never reads A or B; their ld may then be anything ≥ 1.
    const cl_int cm = to_int(m, func, "m"), cn = to_int(n, func, "n"), ck = to_int(k, func, "k");
    const cl_int ctA = transA, ctB = transB;
    const cl_ulong offA = A.off, offB = B.off, offC = C.off;
    const cl_int lda = to_int(A.ld, func, "lda"), ldb = to_int(B.ld, func, "ldb"), ldc = to_int(C.ld, func, "ldc");
    set_args(kernel, "clSetKernelArg(tessera_gemm)", cm, cn, ck, ctA, ctB, alpha, A.mem, offA, lda, B.mem, offB,
             ldb, beta, C.mem, offC, ldc, tri);
    const size_t global[2] = {round_up(size_t(m), size_t(p.gemm_mb)) / size_t(p.gemm_mb) * local[0],
                              round_up(size_t(n), size_t(p.gemm_nb)) / size_t(p.gemm_nb) * local[1]};
    enqueue(q, kernel, 2, global, local, "clEnqueueNDRangeKernel(tessera_gemm)");
}

}  // namespace

template <class T>
void gemm(const DeviceKernels& dk, cl_command_queue q, Trans transA, Trans transB, int64_t m, int64_t n,
          int64_t k, T alpha, Mat A, Mat B, T beta, Mat C) {
    check_prec<T>(dk, "gemm");
    if (m == 0 || n == 0) return;
    gemm_launch<T>(dk, q, "gemm", is_trans(transA), is_trans(transB), m, n, k, alpha, A, B, beta, C, 0);
}

template <class T>
void syrk(const DeviceKernels& dk, cl_command_queue q, Uplo uplo, Trans trans, int64_t n, int64_t k, T alpha,
          Mat A, T beta, Mat C) {
    check_prec<T>(dk, "syrk");
    if (n == 0) return;
    if (uplo == Uplo::General) throw std::invalid_argument("tessera::ocl::syrk: uplo must be Lower or Upper");
    // NoTrans: C = A·Aᵀ (A n×k); Trans: C = Aᵀ·A (A k×n).
    const bool t = is_trans(trans);
    gemm_launch<T>(dk, q, "syrk", t, !t, n, n, k, alpha, A, A, beta, C, uplo == Uplo::Lower ? 1 : 2);
}

template <class T>
void trsm(const DeviceKernels& dk, cl_command_queue q, Side side, Uplo uplo, Trans trans, Diag diag, int64_t m,
          int64_t n, T alpha, Mat A, Mat B) {
    check_prec<T>(dk, "trsm");
    if (m == 0 || n == 0) return;
    if (uplo == Uplo::General) throw std::invalid_argument("tessera::ocl::trsm: uplo must be Lower or Upper");
    // Reduce to M·X = alpha·Y (see trsm.cl): Left solves with M = op(A) on the columns of B;
    // Right solves X·op(A) = alpha·B as op(A)ᵀ·Xᵀ = alpha·Bᵀ on the rows of B.
    const bool left = side == Side::Left;
    const bool mtrans = left ? is_trans(trans) : !is_trans(trans);  // M = Aᵀ ?
    const cl_int lower = (uplo == Uplo::Lower) != mtrans;            // is M lower triangular?
    const cl_int unit = diag == Diag::Unit;
    const cl_int dim = to_int(left ? m : n, "trsm", left ? "m" : "n");
    const cl_int nvec = to_int(left ? n : m, "trsm", left ? "n" : "m");
    const cl_int lda = to_int(A.ld, "trsm", "lda"), ldb = to_int(B.ld, "trsm", "ldb");
    const cl_int sai = mtrans ? lda : 1, sap = mtrans ? 1 : lda;
    const cl_int sbi = left ? 1 : ldb, sbv = left ? ldb : 1;
    const cl_ulong offA = A.off, offB = B.off;

    const Params p = params_of(dk);
    cl_kernel kernel = dk.get("tessera_trsm");
    const size_t local[1] = {size_t(p.trsm_vb)};
    check_local(kernel, q, local, 1, "tessera_trsm");
    set_args(kernel, "clSetKernelArg(tessera_trsm)", dim, nvec, lower, unit, alpha, A.mem, offA, sai, sap, B.mem,
             offB, sbi, sbv);
    const size_t global[1] = {round_up(size_t(nvec), local[0])};
    enqueue(q, kernel, 1, global, local, "clEnqueueNDRangeKernel(tessera_trsm)");
}

template <class T>
void potrf(const DeviceKernels& dk, cl_command_queue q, Uplo uplo, int64_t n, Mat A, int* host_info) {
    check_prec<T>(dk, "potrf");
    if (uplo == Uplo::General) throw std::invalid_argument("tessera::ocl::potrf: uplo must be Lower or Upper");
    if (n == 0) {  // nothing enqueued; LAPACK's info for n = 0
        if (host_info) *host_info = 0;
        return;
    }
    const Params p = params_of(dk);
    cl_kernel kernel = dk.get("tessera_potrf");
    const size_t local[1] = {size_t(p.potrf_wg)};
    check_local(kernel, q, local, 1, "tessera_potrf");
    const cl_int cn = to_int(n, "potrf", "n"), lower = uplo == Uplo::Lower, lda = to_int(A.ld, "potrf", "lda");
    const cl_ulong offA = A.off;
    const cl_mem info = dk.info_scratch();
    set_args(kernel, "clSetKernelArg(tessera_potrf)", cn, lower, A.mem, offA, lda, info);
    enqueue(q, kernel, 1, local, local, "clEnqueueNDRangeKernel(tessera_potrf)");
    check(clEnqueueReadBuffer(q, info, CL_FALSE, 0, sizeof(cl_int), host_info, 0, nullptr, nullptr),
          "clEnqueueReadBuffer(potrf info)");
}

template <class T>
void lacpy(const DeviceKernels& dk, cl_command_queue q, Uplo uplo, int64_t m, int64_t n, Mat A, Mat B) {
    check_prec<T>(dk, "lacpy");
    if (m == 0 || n == 0) return;
    cl_kernel kernel = dk.get("tessera_lacpy");
    const cl_int cm = to_int(m, "lacpy", "m"), cn = to_int(n, "lacpy", "n");
    const cl_int cu = uplo == Uplo::Lower ? 1 : uplo == Uplo::Upper ? 2 : 0;
    const cl_int lda = to_int(A.ld, "lacpy", "lda"), ldb = to_int(B.ld, "lacpy", "ldb");
    const cl_ulong offA = A.off, offB = B.off;
    set_args(kernel, "clSetKernelArg(tessera_lacpy)", cm, cn, cu, A.mem, offA, lda, B.mem, offB, ldb);
    const size_t local[2] = {64, 4};
    const size_t global[2] = {round_up(size_t(m), local[0]), round_up(size_t(n), local[1])};
    enqueue(q, kernel, 2, global, local, "clEnqueueNDRangeKernel(tessera_lacpy)");
}

#define TESSERA_INSTANTIATE(T)                                                                                 \
    template void gemm<T>(const DeviceKernels&, cl_command_queue, Trans, Trans, int64_t, int64_t, int64_t, T,  \
                          Mat, Mat, T, Mat);                                                                   \
    template void syrk<T>(const DeviceKernels&, cl_command_queue, Uplo, Trans, int64_t, int64_t, T, Mat, T,    \
                          Mat);                                                                                \
    template void trsm<T>(const DeviceKernels&, cl_command_queue, Side, Uplo, Trans, Diag, int64_t, int64_t, T, \
                          Mat, Mat);                                                                           \
    template void potrf<T>(const DeviceKernels&, cl_command_queue, Uplo, int64_t, Mat, int*);                  \
    template void lacpy<T>(const DeviceKernels&, cl_command_queue, Uplo, int64_t, int64_t, Mat, Mat);

TESSERA_INSTANTIATE(float)
TESSERA_INSTANTIATE(double)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::ocl
