// Host launchers of the tile Cholesky factorization (potrf) and the triangular inverse (trtri),
// both recursive on halves so that nearly all their flops run in a few large GEMMs (gemm()'s
// dispatch: FP64 tensor cores on NVIDIA) and only the leaves, diagonal blocks of at most 64
// columns, run in one-work-group kernels.
//
// The recursion (lower; upper is its conjugate transpose) is the recursive Cholesky of Gustavson and
// Jonsson (IBM J. Res. Dev. 44(6), 2000) with its triangular solve done as a product with the
// inverse, as MAGMA's trsm does (ᴴ is ᵀ in real precisions):
//   [A11  .  ]     L11 = potrf(A11), W11 = L11⁻¹
//   [A21 A22 ]     L21 = A21·W11ᴴ;  A22 −= L21·L21ᴴ (herk);  L22 = potrf(A22), W22 = L22⁻¹
// and, where the parent needs this node's inverse too (a left half),
//   W21 = −W22·L21·W11,  so that  L⁻¹ = [W11 0; W21 W22].
// A leaf is factored and inverted by one launch of tessera_potrf (potrf.cl). trtri runs the same
// recursion on an already triangular matrix: all leaves inverted by one launch of
// tessera_trtri_blocks, then W21 = −W22·L21·W11 bottom-up. The products with an inverse use the
// whole square block, zeros included (W is cleared first), which costs some flops and saves
// launches: a 4096 tile takes 63 internal nodes of 3 to 5 launches each.
//
// Everything is enqueued on the one in-order queue and never waits; the inverses and a copy of
// one off-diagonal block live in dk.scratch() (potrf; its inverses in the caller's matrix when it
// asks for them) or in W and dk.scratch() (trtri).
#include "kernels/opencl/launch.hpp"
#include "kernels/opencl/launch_util.hpp"
#include "runtime/precisions.hpp"

#include <algorithm>

namespace tessera::ocl {
namespace {

/// One launch of tessera_potrf on the n×n leaf at A whose first column is col0 of the tile;
/// writes L⁻¹ (Upper: U⁻¹) to the n×n block at W when `invert`.
template <class T>
void potrf_leaf(const DeviceKernels& dk, const Params& p, cl_command_queue q, Uplo uplo, int64_t n, const Mat& A,
                int64_t col0, bool invert, const Mat& W) {
    cl_kernel kernel = dk.get("tessera_potrf");
    const size_t local[1] = {size_t(p.potrf_wg)};
    check_local(dk, "tessera_potrf", local, 1);
    const cl_int cn = to_int(n, "potrf", "n"), lower = uplo == Uplo::Lower, lda = to_int(A.ld, "potrf", "lda");
    const cl_int ccol0 = to_int(col0, "potrf", "col0"), cinvert = invert, ldw = to_int(W.ld, "potrf", "ldw");
    const cl_ulong offA = A.off, offW = W.off;
    const cl_mem info = dk.info_scratch();
    set_args(kernel, "clSetKernelArg(tessera_potrf)", cn, lower, A.mem, offA, lda, info, ccol0, cinvert, W.mem, offW,
             ldw);
    enqueue(q, kernel, 1, local, local, "clEnqueueNDRangeKernel(tessera_potrf)");
}

/// First column of the second half of an n-column node: half of its leaves (bs columns each).
int64_t split(int64_t n, int64_t bs) { return (n + bs - 1) / bs / 2 * bs; }

/// The recursion of potrf() and trtri() on one n×n matrix A (uplo triangle) with its inverse in W.
/// Blocks are addressed in L's orientation: for Upper, block (i, j) of L is block (j, i)ᵀ of A.
template <class T>
class CholeskyRecursion {
public:
    CholeskyRecursion(const DeviceKernels& dk, cl_command_queue q, Uplo uplo, int64_t bs, Mat A, Mat W, Mat Tmp)
        : dk_(dk), q_(q), p_(dk.params()), lower_(uplo == Uplo::Lower), bs_(bs), A_(A), W_(W), T_(Tmp) {}

    /// Factor rows and columns r0 .. r0+n; W gets this node's inverse when `need_inverse`.
    void factor(int64_t r0, int64_t n, bool need_inverse) {
        if (n <= bs_) {
            potrf_leaf<T>(dk_, p_, q_, lower_ ? Uplo::Lower : Uplo::Upper, n, at(A_, r0, r0), r0, need_inverse,
                          at(W_, r0, r0));
            return;
        }
        const int64_t n1 = split(n, bs_), n2 = n - n1, r1 = r0 + n1;
        factor(r0, n1, true);
        const Mat a21 = off_diag(A_, r1, r0), w11 = at(W_, r0, r0), t = T_;
        if (lower_) {  // L21 = A21·W11ᴴ (GEMMs cannot run in place: A21 is copied first)
            lacpy<T>(dk_, q_, Uplo::General, n2, n1, a21, t);
            gemm<T>(dk_, q_, Trans::NoTrans, Trans::ConjTrans, n2, n1, n1, T(1), t, w11, T(0), a21);
            herk<T>(dk_, q_, Uplo::Lower, Trans::NoTrans, n2, n1, -1, a21, 1, at(A_, r1, r1));
        } else {  // U12 = W11ᴴ·A12, W11 = U11⁻¹
            lacpy<T>(dk_, q_, Uplo::General, n1, n2, a21, t);
            gemm<T>(dk_, q_, Trans::ConjTrans, Trans::NoTrans, n1, n2, n1, T(1), w11, t, T(0), a21);
            herk<T>(dk_, q_, Uplo::Upper, Trans::ConjTrans, n2, n1, -1, a21, 1, at(A_, r1, r1));
        }
        factor(r1, n2, need_inverse);
        if (need_inverse) combine_inverse(r0, n1, n2);
    }

    /// Invert the triangular rows and columns r0 .. r0+n into W, whose leaves are already inverted.
    void invert(int64_t r0, int64_t n) {
        if (n <= bs_) return;
        const int64_t n1 = split(n, bs_), n2 = n - n1;
        invert(r0, n1);
        invert(r0 + n1, n2);
        combine_inverse(r0, n1, n2);
    }

private:
    /// W21 = −W22·L21·W11 (Upper: W12 = −W11·U12·W22) for the node at r0 with halves n1, n2.
    void combine_inverse(int64_t r0, int64_t n1, int64_t n2) {
        const int64_t r1 = r0 + n1;
        const Mat a21 = off_diag(A_, r1, r0), w11 = at(W_, r0, r0), w22 = at(W_, r1, r1), w21 = off_diag(W_, r1, r0);
        if (lower_) {
            gemm<T>(dk_, q_, Trans::NoTrans, Trans::NoTrans, n2, n1, n1, T(1), a21, w11, T(0), T_);
            gemm<T>(dk_, q_, Trans::NoTrans, Trans::NoTrans, n2, n1, n2, T(-1), w22, T_, T(0), w21);
        } else {
            gemm<T>(dk_, q_, Trans::NoTrans, Trans::NoTrans, n1, n2, n1, T(1), w11, a21, T(0), T_);
            gemm<T>(dk_, q_, Trans::NoTrans, Trans::NoTrans, n1, n2, n2, T(-1), T_, w22, T(0), w21);
        }
    }

    /// The off-diagonal block of L at rows r1.., columns r0.. as stored: (r1, r0) when lower,
    /// (r0, r1) when upper.
    Mat off_diag(const Mat& M, int64_t r1, int64_t r0) const { return lower_ ? at(M, r1, r0) : at(M, r0, r1); }

    const DeviceKernels& dk_;
    cl_command_queue q_;
    Params p_;
    bool lower_;
    int64_t bs_;
    Mat A_, W_, T_;
};

/// Leading dimension for a scratch matrix of `rows` rows: a multiple of 8 elements, as the GEMM
/// kernels' aligned loads prefer.
int64_t scratch_ld(int64_t rows) { return int64_t(round_up(size_t(rows), 8)); }

/// The copy of one off-diagonal block of an n×n recursion, at element `off` of the buffer s: the
/// block is n2×n1 (lower) or n1×n2 (upper), with n1 ≤ split(n) and n2 ≤ n at every node.
Mat tmp_block(cl_mem s, size_t off, Uplo uplo, int64_t n, int64_t bs) {
    return {s, off, scratch_ld(uplo == Uplo::Lower ? n : split(n, bs))};
}
size_t tmp_elems(Uplo uplo, int64_t n, int64_t bs) {
    return size_t(uplo == Uplo::Lower ? scratch_ld(n) * split(n, bs) : scratch_ld(split(n, bs)) * n);
}

}  // namespace

template <class T>
void potrf(const DeviceKernels& dk, cl_command_queue q, Uplo uplo, int64_t n, Mat A, int* host_info,
           const Mat* inverse) {
    check_prec<T>(dk, "potrf");
    if (uplo == Uplo::General) throw Error("tessera::ocl::potrf: uplo must be Lower or Upper");
    to_int(n, "potrf", "n");
    if (n == 0) {  // nothing enqueued; LAPACK's info for n = 0
        if (host_info) *host_info = 0;
        return;
    }
    // Scratch: the inverses W (n×n, cleared: the products use whole blocks; the caller's `inverse`
    // when given) and the copy of one off-diagonal block (at most n × split(n)).
    const int64_t bs = dk.params().potrf_bs, ld = inverse ? 0 : scratch_ld(n);
    cl_mem s = dk.scratch((size_t(ld * n) + tmp_elems(uplo, n, bs)) * sizeof(T));
    const Mat W = inverse ? *inverse : Mat{s, 0, ld}, Tmp = tmp_block(s, size_t(ld * n), uplo, n, bs);
    if (n > bs || inverse) laset<T>(dk, q, n, n, T(0), T(0), W);
    // After a failing leaf the later leaves do nothing (info protocol in potrf.cl) and the GEMMs
    // still run on the rest, whose contents are then unspecified, as in LAPACK.
    CholeskyRecursion<T>(dk, q, uplo, bs, A, W, Tmp).factor(0, n, inverse != nullptr);
    check(clEnqueueReadBuffer(q, dk.info_scratch(), CL_FALSE, 0, sizeof(cl_int), host_info, 0, nullptr, nullptr),
          "clEnqueueReadBuffer(potrf info)");
}

template <class T>
void trtri(const DeviceKernels& dk, cl_command_queue q, Uplo uplo, Diag diag, int64_t n, Mat A, Mat W) {
    check_prec<T>(dk, "trtri");
    if (uplo == Uplo::General) throw Error("tessera::ocl::trtri: uplo must be Lower or Upper");
    to_int(n, "trtri", "n");
    if (n == 0) return;
    const int64_t bs = dk.params().trsm_bs;
    const bool lower = uplo == Uplo::Lower;
    laset<T>(dk, q, n, n, T(0), T(0), W);
    trtri_blocks<T>(dk, q, n, lower, diag == Diag::Unit, false, A.mem, A.off, 1, A.ld, W.mem, W.off, W.ld,
                    size_t(bs * (W.ld + 1)));
    if (n <= bs) return;
    const Mat Tmp = tmp_block(dk.scratch(tmp_elems(uplo, n, bs) * sizeof(T)), 0, uplo, n, bs);
    CholeskyRecursion<T>(dk, q, uplo, bs, A, W, Tmp).invert(0, n);
}

#define TESSERA_INSTANTIATE(T)                                                                \
    template void potrf<T>(const DeviceKernels&, cl_command_queue, Uplo, int64_t, Mat, int*, const Mat*); \
    template void trtri<T>(const DeviceKernels&, cl_command_queue, Uplo, Diag, int64_t, Mat, Mat);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::ocl
