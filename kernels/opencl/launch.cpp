// Host launchers of the portable OpenCL tile kernels (gemm.cl, trsm.cl, potrf.cl, lacpy.cl).
// Each sets the arguments of the device's cached cl_kernel and enqueues it on `q`, never waiting.
//
// Work-group geometry. The kernels take their tile sizes from TESSERA_* macros with #ifndef
// defaults; a device's table may override them through build_options(). The launchers read the
// same macros back from dk.options(), the program's build options (same defaults as the .cl files) and
// cross-check the local size against the kernel's reqd_work_group_size, so a mismatch throws
// instead of computing garbage. TESSERA_TRSM_BS (host only) and TESSERA_POTRF_BS, the block sizes
// of the blocked trsm and potrf drivers below, are read the same way.
//
// trsm and potrf are blocked on the host: trsm solves diagonal blocks of TESSERA_TRSM_BS rows
// with tessera_trsm and updates the rest with tessera_gemm; potrf factors diagonal blocks of
// TESSERA_POTRF_BS columns with tessera_potrf and updates with trsm and syrk (right-looking).
// All of it is enqueued on the one in-order queue, so it still never waits.
#include "kernels/opencl/launch.hpp"

#include "kernels/opencl/gemm_select.hpp"
#include "kernels/opencl/launch_util.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace tessera::ocl {
namespace {

/// Kernel parameters of one built program; defaults must match the #ifndef values in the .cl files.
struct Params {
    int gemm_mb = 64, gemm_nb = 64, gemm_kb = 16, gemm_tm = 4, gemm_tn = 4;
    int trsm_tb = 16, trsm_vb = 64;
    int trsm_bs = 64;    // host only: rows per diagonal solve of the blocked trsm
    int potrf_wg = 256;
    int potrf_bs = 32;   // columns per diagonal block of the blocked potrf (tessera_potrf's maximum n)
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
    const std::string& opts = dk.options();
    Params p;
    if (opts.find("-DTESSERA_") == std::string::npos) return p;
    p.gemm_mb = macro_value(opts, "TESSERA_GEMM_MB", p.gemm_mb);
    p.gemm_nb = macro_value(opts, "TESSERA_GEMM_NB", p.gemm_nb);
    p.gemm_kb = macro_value(opts, "TESSERA_GEMM_KB", p.gemm_kb);
    p.gemm_tm = macro_value(opts, "TESSERA_GEMM_TM", p.gemm_tm);
    p.gemm_tn = macro_value(opts, "TESSERA_GEMM_TN", p.gemm_tn);
    p.trsm_tb = macro_value(opts, "TESSERA_TRSM_TB", p.trsm_tb);
    p.trsm_vb = macro_value(opts, "TESSERA_TRSM_VB", p.trsm_vb);
    p.trsm_bs = macro_value(opts, "TESSERA_TRSM_BS", p.trsm_bs);
    p.potrf_wg = macro_value(opts, "TESSERA_POTRF_WG", p.potrf_wg);
    p.potrf_bs = macro_value(opts, "TESSERA_POTRF_BS", p.potrf_bs);
    if (p.trsm_bs < 1 || p.potrf_bs < 1) throw std::runtime_error("tessera::ocl: TESSERA_TRSM_BS/POTRF_BS must be >= 1");
    return p;
}


cl_int to_int(int64_t v, const char* func, const char* arg) {
    if (v < 0 || v > INT_MAX)
        throw std::invalid_argument(std::string("tessera::ocl::") + func + ": argument '" + arg + "' = " +
                                    std::to_string(v) + " out of range");
    return cl_int(v);
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

void enqueue(cl_command_queue q, cl_kernel kernel, cl_uint dims, const size_t* global, const size_t* local,
             const char* what) {
    check(clEnqueueNDRangeKernel(q, kernel, dims, nullptr, global, local, 0, nullptr, nullptr), what);
}

bool is_trans(Trans t) { return t != Trans::NoTrans; }  // ConjTrans == Trans for real types

/// Shared by gemm and syrk: tri 0 = all of C, 1 = lower, 2 = upper.
template <class T>
void gemm_launch(const DeviceKernels& dk, const Params& p, cl_command_queue q, const char* func, bool transA,
                 bool transB, int64_t m, int64_t n, int64_t k, T alpha, const Mat& A, const Mat& B, T beta,
                 const Mat& C, cl_int tri) {
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

/// One launch of tessera_trsm: M·X = alpha·Y with M dim×dim at A[offA + i·sai + p·sap] and the
/// nvec vectors Y(i, v) at B[offB + i·sbi + v·sbv] (see trsm.cl).
template <class T>
void trsm_solve(const DeviceKernels& dk, const Params& p, cl_command_queue q, int64_t dim, int64_t nvec, bool lower,
                bool unit, T alpha, cl_mem a, size_t offA, int64_t sai, int64_t sap, cl_mem b, size_t offB,
                int64_t sbi, int64_t sbv) {
    cl_kernel kernel = dk.get("tessera_trsm");
    const size_t local[1] = {size_t(p.trsm_vb)};
    check_local(kernel, q, local, 1, "tessera_trsm");
    const cl_int cdim = to_int(dim, "trsm", "dim"), cnvec = to_int(nvec, "trsm", "nvec");
    const cl_int clower = lower, cunit = unit;
    const cl_int csai = to_int(sai, "trsm", "lda"), csap = to_int(sap, "trsm", "lda");
    const cl_int csbi = to_int(sbi, "trsm", "ldb"), csbv = to_int(sbv, "trsm", "ldb");
    const cl_ulong coffA = offA, coffB = offB;
    set_args(kernel, "clSetKernelArg(tessera_trsm)", cdim, cnvec, clower, cunit, alpha, a, coffA, csai, csap, b,
             coffB, csbi, csbv);
    const size_t global[1] = {round_up(size_t(nvec), local[0])};
    enqueue(q, kernel, 1, global, local, "clEnqueueNDRangeKernel(tessera_trsm)");
}

/// xTRSM, blocked: every case is M·X = alpha·Y (Left: M = op(A), Y = B; Right: M = op(A)ᵀ,
/// Y = Bᵀ). Over diagonal blocks K of trsm_bs rows in solve order: X(K) = M(K,K)⁻¹·Y(K) with
/// tessera_trsm, then Y(rest) = a·Y(rest) − M(rest,K)·X(K) with tessera_gemm, where a = alpha at
/// the first block (which also scales the first solve) and 1 afterwards.
template <class T>
void trsm_blocked(const DeviceKernels& dk, const Params& p, cl_command_queue q, Side side, Uplo uplo, Trans trans,
                  Diag diag, int64_t m, int64_t n, T alpha, const Mat& A, const Mat& B) {
    const bool left = side == Side::Left;
    const bool mtrans = left ? is_trans(trans) : !is_trans(trans);  // M = Aᵀ ?
    const bool lower = (uplo == Uplo::Lower) != mtrans;              // M lower: forward substitution
    const int64_t dim = left ? m : n, nvec = left ? n : m;
    const int64_t lda = A.ld, ldb = B.ld;
    const int64_t sai = mtrans ? lda : 1, sap = mtrans ? 1 : lda;    // M(i,p) = A[i·sai + p·sap]
    const int64_t sbi = left ? 1 : ldb, sbv = left ? ldb : 1;        // Y(i,v) = B[i·sbi + v·sbv]
    const int64_t bs = p.trsm_bs, nblk = (dim + bs - 1) / bs;
    for (int64_t s = 0; s < nblk; ++s) {
        const int64_t k0 = (lower ? s : nblk - 1 - s) * bs, kn = std::min(bs, dim - k0);
        const T a = s == 0 ? alpha : T(1);
        trsm_solve<T>(dk, p, q, kn, nvec, lower, diag == Diag::Unit, a, A.mem, A.off + size_t(k0 * (sai + sap)),
                      sai, sap, B.mem, B.off + size_t(k0 * sbi), sbi, sbv);
        if (s == nblk - 1) break;
        const int64_t r0 = lower ? k0 + kn : 0, rn = lower ? dim - r0 : k0;  // the rows still to solve
        // M(rest, K): stored as A(rest, K) (op N) or, when mtrans, as A(K, rest) (op T).
        const Mat mrk{A.mem, A.off + size_t(mtrans ? k0 + r0 * lda : r0 + k0 * lda), lda};
        if (left)  // B(rest, :) = a·B(rest, :) − M(rest, K)·B(K, :)
            gemm_launch<T>(dk, p, q, "trsm", mtrans, false, rn, nvec, kn, T(-1), mrk,
                           Mat{B.mem, B.off + size_t(k0), ldb}, a, Mat{B.mem, B.off + size_t(r0), ldb}, 0);
        else  // B(:, rest) = a·B(:, rest) − B(:, K)·M(rest, K)ᵀ
            gemm_launch<T>(dk, p, q, "trsm", false, !mtrans, nvec, rn, kn, T(-1),
                           Mat{B.mem, B.off + size_t(k0 * ldb), ldb}, mrk, a,
                           Mat{B.mem, B.off + size_t(r0 * ldb), ldb}, 0);
    }
}

/// One launch of tessera_potrf on the n×n block at A whose first column is col0 of the tile.
template <class T>
void potrf_block(const DeviceKernels& dk, const Params& p, cl_command_queue q, Uplo uplo, int64_t n, const Mat& A,
                 int64_t col0) {
    cl_kernel kernel = dk.get("tessera_potrf");
    const size_t local[1] = {size_t(p.potrf_wg)};
    check_local(kernel, q, local, 1, "tessera_potrf");
    const cl_int cn = to_int(n, "potrf", "n"), lower = uplo == Uplo::Lower, lda = to_int(A.ld, "potrf", "lda");
    const cl_int ccol0 = to_int(col0, "potrf", "col0");
    const cl_ulong offA = A.off;
    const cl_mem info = dk.info_scratch();
    set_args(kernel, "clSetKernelArg(tessera_potrf)", cn, lower, A.mem, offA, lda, info, ccol0);
    enqueue(q, kernel, 1, local, local, "clEnqueueNDRangeKernel(tessera_potrf)");
}

}  // namespace

template <class T>
void gemm(const DeviceKernels& dk, cl_command_queue q, Trans transA, Trans transB, int64_t m, int64_t n,
          int64_t k, T alpha, Mat A, Mat B, T beta, Mat C) {
    check_prec<T>(dk, "gemm");
    if (m == 0 || n == 0) return;
    if (nv_gemm<T>(dk, q, transA, transB, m, n, k, alpha, A, B, beta, C)) return;  // NVIDIA cc >= 8.0 path
    gemm_launch<T>(dk, params_of(dk), q, "gemm", is_trans(transA), is_trans(transB), m, n, k, alpha, A, B, beta, C, 0);
}

template <class T>
void syrk(const DeviceKernels& dk, cl_command_queue q, Uplo uplo, Trans trans, int64_t n, int64_t k, T alpha,
          Mat A, T beta, Mat C) {
    check_prec<T>(dk, "syrk");
    if (n == 0) return;
    if (uplo == Uplo::General) throw std::invalid_argument("tessera::ocl::syrk: uplo must be Lower or Upper");
    // NoTrans: C = A·Aᵀ (A n×k); Trans: C = Aᵀ·A (A k×n).
    const bool t = is_trans(trans);
    const Trans ta = t ? Trans::Trans : Trans::NoTrans, tb = t ? Trans::NoTrans : Trans::Trans;
    if (nv_gemm<T>(dk, q, ta, tb, n, n, k, alpha, A, A, beta, C, uplo == Uplo::Lower ? 1 : 2)) return;
    gemm_launch<T>(dk, params_of(dk), q, "syrk", t, !t, n, n, k, alpha, A, A, beta, C, uplo == Uplo::Lower ? 1 : 2);
}

template <class T>
void trsm(const DeviceKernels& dk, cl_command_queue q, Side side, Uplo uplo, Trans trans, Diag diag, int64_t m,
          int64_t n, T alpha, Mat A, Mat B) {
    check_prec<T>(dk, "trsm");
    if (m == 0 || n == 0) return;
    if (uplo == Uplo::General) throw std::invalid_argument("tessera::ocl::trsm: uplo must be Lower or Upper");
    trsm_blocked<T>(dk, params_of(dk), q, side, uplo, trans, diag, m, n, alpha, A, B);
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
    const int64_t lda = A.ld;
    // Right-looking over diagonal blocks of potrf_bs columns. After a failing block the later
    // tessera_potrf launches do nothing (info protocol in potrf.cl); trsm and syrk still run on
    // the trailing part, whose contents are then unspecified, as in LAPACK.
    for (int64_t k0 = 0; k0 < n; k0 += p.potrf_bs) {
        const int64_t kn = std::min<int64_t>(p.potrf_bs, n - k0), r0 = k0 + kn, rn = n - r0;
        const Mat akk{A.mem, A.off + size_t(k0 + k0 * lda), lda};
        potrf_block<T>(dk, p, q, uplo, kn, akk, k0);
        if (rn == 0) break;
        const Mat a22{A.mem, A.off + size_t(r0 + r0 * lda), lda};
        if (uplo == Uplo::Lower) {  // L21 = A21·L11⁻ᵀ; A22 −= L21·L21ᵀ
            const Mat a21{A.mem, A.off + size_t(r0 + k0 * lda), lda};
            trsm_blocked<T>(dk, p, q, Side::Right, Uplo::Lower, Trans::Trans, Diag::NonUnit, rn, kn, T(1), akk, a21);
            gemm_launch<T>(dk, p, q, "potrf", false, true, rn, rn, kn, T(-1), a21, a21, T(1), a22, 1);
        } else {  // U12 = U11⁻ᵀ·A12; A22 −= U12ᵀ·U12
            const Mat a12{A.mem, A.off + size_t(k0 + r0 * lda), lda};
            trsm_blocked<T>(dk, p, q, Side::Left, Uplo::Upper, Trans::Trans, Diag::NonUnit, kn, rn, T(1), akk, a12);
            gemm_launch<T>(dk, p, q, "potrf", true, false, rn, rn, kn, T(-1), a12, a12, T(1), a22, 2);
        }
    }
    check(clEnqueueReadBuffer(q, dk.info_scratch(), CL_FALSE, 0, sizeof(cl_int), host_info, 0, nullptr, nullptr),
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
