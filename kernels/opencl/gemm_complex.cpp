// The complex GEMM of the NVIDIA path: one real product on the real forms of the operands
// (gemm_complex.cl explains the form; the product runs in gemm_nv.cl's real kernels, FP64 tensor
// cores for z). See gemm_select.hpp.
#include "kernels/opencl/gemm_select.hpp"
#include "kernels/opencl/launch_util.hpp"

namespace tessera::ocl {
namespace {

/// One launch of an element-wise kernel of gemm_complex.cl over rows × cols.
template <class... Args>
void elementwise(const DeviceKernels& dk, cl_command_queue q, const char* name, int64_t rows, int64_t cols,
                 const Args&... args) {
    cl_kernel kernel = dk.get(name);
    set_args(kernel, name, args...);
    enqueue_2d(q, kernel, rows, cols, name);
}

/// 8-element multiples for the leading dimensions of the workspace (the real kernels' aligned copies).
size_t ld8(int64_t rows) { return round_up(size_t(rows), 8); }

}  // namespace

template <class T>
bool nv_gemm_complex(const DeviceKernels& dk, cl_command_queue q, Trans transA, Trans transB, int64_t m, int64_t n,
                     int64_t k, T alpha, Mat A, Mat B, T beta, Mat C, int tri) {
    using R = real_t<T>;
    check_prec<T>(dk, "gemm");
    if (!nv_gemm_available(dk) || k == 0 || alpha == T(0)) return false;
    if (m == 0 || n == 0) return true;
    const char* f = "gemm";
    const cl_int cm = to_int(m, f, "m"), cn = to_int(n, f, "n"), ck = to_int(k, f, "k");
    const cl_int lda = to_int(A.ld, f, "lda"), ldb = to_int(B.ld, f, "ldb"), ldc = to_int(C.ld, f, "ldc");
    // Workspace (in scalars T): Â (2m×2k reals = 2m·k scalars), then op(B) when transposed, then the
    // product when only a triangle of C is written.
    const size_t lda_hat = ld8(2 * m);  // reals
    const size_t a_size = lda_hat * size_t(k);  // scalars: lda_hat·2k reals
    const size_t ldbt = ld8(k), b_size = transB == Trans::NoTrans ? 0 : ldbt * size_t(n);
    const size_t ldp = ld8(m), p_size = tri ? ldp * size_t(n) : 0;
    cl_mem w = dk.scratch((a_size + b_size + p_size) * sizeof(T), DeviceKernels::Workspace::Gemm);

    const cl_ulong zero = 0, offA = A.off, offB = B.off, offC = C.off;
    const cl_int cta = trans_code(transA), ctb = trans_code(transB), cldah = to_int(int64_t(lda_hat), f, "m");
    elementwise(dk, q, "tessera_cgemm_pack_a", m, k, cm, ck, cta, alpha, A.mem, offA, lda, w, zero, cldah);
    Mat b_real{B.mem, 2 * B.off, 2 * B.ld};  // B̃: B's memory as reals
    if (transB != Trans::NoTrans) {
        const cl_ulong offBt = a_size;
        const cl_int cldbt = to_int(int64_t(ldbt), f, "k");
        elementwise(dk, q, "tessera_cgemm_pack_b", k, n, ck, cn, ctb, B.mem, offB, ldb, w, offBt, cldbt);
        b_real = Mat{w, 2 * a_size, int64_t(2 * ldbt)};
    }
    // The real product: C̃ = Â·B̃ + beta·C̃ for a real beta; a complex beta scales C first.
    Mat target{C.mem, 2 * C.off, 2 * C.ld};
    R beta_real = R(1);
    if (tri) {
        target = Mat{w, 2 * (a_size + b_size), int64_t(2 * ldp)};
        beta_real = R(0);
    } else if (beta.imag() == R(0)) {
        beta_real = beta.real();
    } else {
        elementwise(dk, q, "tessera_cscal", m, n, cm, cn, beta, C.mem, offC, ldc);
    }
    nv_gemm<R>(dk, q, Trans::NoTrans, Trans::NoTrans, 2 * m, n, 2 * k, R(1), Mat{w, 0, int64_t(lda_hat)}, b_real,
               beta_real, target, 0);
    if (tri) {
        const cl_ulong offP = a_size + b_size;
        const cl_int ctri = tri, cldp = to_int(int64_t(ldp), f, "m");
        elementwise(dk, q, "tessera_cadd_tri", n, n, cn, ctri, w, offP, cldp, beta, C.mem, offC, ldc);
    }
    return true;
}

template bool nv_gemm_complex<std::complex<float>>(const DeviceKernels&, cl_command_queue, Trans, Trans, int64_t,
                                                   int64_t, int64_t, std::complex<float>, Mat, Mat,
                                                   std::complex<float>, Mat, int);
template bool nv_gemm_complex<std::complex<double>>(const DeviceKernels&, cl_command_queue, Trans, Trans, int64_t,
                                                    int64_t, int64_t, std::complex<double>, Mat, Mat,
                                                    std::complex<double>, Mat, int);

}  // namespace tessera::ocl
