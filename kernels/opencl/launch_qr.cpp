// Host launchers of tessera_qr_apply (qr.cl). The kernel applies op(Q) from the left through row and
// column strides; a right-side product C·op(Q) is the left product op(Q)ᴴ·Cᴴ on the conjugate-
// transposed view (strides swapped, conjugated, trans flipped; ᴴ is ᵀ for real T), so one kernel
// serves gemqrt and tpmqrt on both sides.
#include "kernels/opencl/launch_qr.hpp"

#include <climits>
#include <stdexcept>
#include <string>

#include "kernels/opencl/launch_util.hpp"
#include "runtime/precisions.hpp"

namespace tessera::ocl {
namespace {

constexpr size_t kLocalX = 16, kLocalY = 16, kColumns = 32;  // QR_LX, QR_LY, QR_NC of qr.cl

/// Left application on a strided view: C (mv×ncols) and, in mode 1, A1 (k×ncols).
struct View {
    Mat mat;
    cl_int rs, cs;  // element (i, j) at off + i·rs + j·cs
    cl_int conj;    // the view is the conjugate of what is stored
};

template <class T>
void apply(const DeviceKernels& dk, cl_command_queue q, const char* func, int mode, bool apply_t, int64_t mv,
           int64_t ncols, int64_t k, int64_t ib, const Mat& V, const Mat& Tf, const View& C, const View& A1) {
    if (ib < 1) throw std::invalid_argument(std::string("tessera::ocl::") + func + ": ib must be >= 1");
    if (ib > k) ib = k;  // LAPACK's layout for ib > k (see kernels/cpu/qr.hpp)
    cl_kernel kernel = dk.get("tessera_qr_apply");
    const cl_int cmode = mode, ct = apply_t, cmv = to_int(mv, func, "m"), cn = to_int(ncols, func, "n");
    const cl_int ck = to_int(k, func, "k"), cib = to_int(ib, func, "ib");
    const cl_int ldv = to_int(V.ld, func, "ldv"), ldt = to_int(Tf.ld, func, "ldt");
    const cl_ulong offV = V.off, offT = Tf.off, offC = C.mat.off, offA = A1.mat.off;
    set_args(kernel, "clSetKernelArg(tessera_qr_apply)", cmode, ct, cmv, cn, ck, cib, V.mem, offV, ldv, Tf.mem, offT,
             ldt, C.mat.mem, offC, C.rs, C.cs, A1.mat.mem, offA, A1.rs, A1.cs, C.conj);
    const size_t local[2] = {kLocalX, kLocalY};
    const size_t global[2] = {round_up(size_t(ncols), kColumns) / kColumns * kLocalX, kLocalY};
    enqueue(q, kernel, 2, global, local, "clEnqueueNDRangeKernel(tessera_qr_apply)");
}

View column_major(const Mat& m, const char* func, const char* arg) { return {m, 1, to_int(m.ld, func, arg), 0}; }
View conj_transposed(const Mat& m, const char* func, const char* arg) { return {m, to_int(m.ld, func, arg), 1, 1}; }

}  // namespace

template <class T>
void gemqrt(const DeviceKernels& dk, cl_command_queue q, Side side, Trans trans, int64_t m, int64_t n, int64_t k,
            int64_t ib, Mat V, Mat Tf, Mat C) {
    check_prec<T>(dk, "gemqrt");
    if (m == 0 || n == 0 || k == 0) return;
    const bool left = side == Side::Left;
    const int64_t mv = left ? m : n;
    if (k > mv) throw std::invalid_argument("tessera::ocl::gemqrt: k must be <= the rows of V");
    // Left: op(Q)·C. Right: C·op(Q) = (op(Q)ᴴ·Cᴴ)ᴴ, i.e. Qᴴ applied to Cᴴ for op = N.
    const bool apply_t = left ? trans != Trans::NoTrans : trans == Trans::NoTrans;
    const View c = left ? column_major(C, "gemqrt", "ldc") : conj_transposed(C, "gemqrt", "ldc");
    apply<T>(dk, q, "gemqrt", 0, apply_t, mv, left ? n : m, k, ib, V, Tf, c, c);
}

template <class T>
void tpmqrt(const DeviceKernels& dk, cl_command_queue q, Side side, Trans trans, int64_t m, int64_t n, int64_t k,
            int64_t ib, Mat V, Mat Tf, Mat A, Mat B) {
    check_prec<T>(dk, "tpmqrt");
    if (m == 0 || n == 0 || k == 0) return;
    const bool left = side == Side::Left;
    const bool apply_t = left ? trans != Trans::NoTrans : trans == Trans::NoTrans;
    const View b = left ? column_major(B, "tpmqrt", "ldb") : conj_transposed(B, "tpmqrt", "ldb");
    const View a = left ? column_major(A, "tpmqrt", "lda") : conj_transposed(A, "tpmqrt", "lda");
    apply<T>(dk, q, "tpmqrt", 1, apply_t, left ? m : n, left ? n : m, k, ib, V, Tf, b, a);
}

#define TESSERA_INSTANTIATE(T)                                                                                 \
    template void gemqrt<T>(const DeviceKernels&, cl_command_queue, Side, Trans, int64_t, int64_t, int64_t,   \
                            int64_t, Mat, Mat, Mat);                                                           \
    template void tpmqrt<T>(const DeviceKernels&, cl_command_queue, Side, Trans, int64_t, int64_t, int64_t,   \
                            int64_t, Mat, Mat, Mat, Mat);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::ocl
