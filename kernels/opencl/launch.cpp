// Host launchers of the OpenCL tile kernels gemm, syrk, trsm and lacpy (gemm.cl, trsm.cl,
// lacpy.cl; gemm_nv.cl through gemm_select.hpp; potrf and trtri are in launch_potrf.cpp). Each
// sets the arguments of the device's cached cl_kernel and enqueues it on `q`, never waiting.
//
// Work-group geometry. The kernels take their tile sizes from TESSERA_* macros with #ifndef
// defaults; a device's table may override them through build_options(). The launchers read the
// same macros back from dk.options(), the program's build options (same defaults as the .cl files) and
// cross-check the local size against the kernel's reqd_work_group_size, so a mismatch throws
// instead of computing garbage (DeviceKernels::params). TESSERA_TRSM_BS, the block size of the
// blocked trsm below, is read the same way.
//
// gemm takes products with few columns to gemm_narrow (launch_narrow.cpp); gemm and syrk try the
// NVIDIA path (nv_gemm, FP64 tensor cores on compute capability ≥ 8.0) next and fall back to the
// portable tessera_gemm. trsm is blocked on the host so that most of its flops go through that
// same dispatch: it inverts its diagonal blocks of TESSERA_TRSM_BS rows (tessera_trtri_blocks, one
// launch), solves each leaf of TESSERA_TRSM_LEAF rows in one launch of tessera_trsm_leaf, and does
// the updates between leaves as GEMMs (diagonal-block inversion + GEMM, as in MAGMA's trsm; see
// BlockedTrsm). All of it is enqueued on the one in-order queue, so it still never waits; trsm's
// inverted blocks live in dk.scratch(), which relies on that queue's ordering.
#include "kernels/opencl/launch.hpp"

#include "kernels/opencl/gemm_select.hpp"
#include "kernels/opencl/launch_util.hpp"
#include "runtime/precisions.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace tessera::ocl {

void check_local(const DeviceKernels& dk, const char* name, const size_t* expect, int dims) {
    const std::array<size_t, 3>& got = dk.compiled_local(name);
    for (int d = 0; d < dims; ++d)
        if (got[d] != expect[d])
            throw Error(std::string("tessera::ocl: kernel ") + name +
                                     " was built for another work-group size than build_options() describes");
}

template <class T>
void trtri_blocks(const DeviceKernels& dk, cl_command_queue q, int64_t dim, bool lower, bool unit, bool conj,
                  cl_mem a, size_t offA, int64_t sai, int64_t sap, cl_mem w, size_t offW, int64_t ldw, size_t strideK) {
    cl_kernel kernel = dk.get("tessera_trtri_blocks");
    const size_t local[1] = {size_t(dk.params().trsm_bs)};
    check_local(dk, "tessera_trtri_blocks", local, 1);
    const cl_int cdim = to_int(dim, "trsm", "dim"), clower = lower, cunit = unit, cconj = conj;
    const cl_int csai = to_int(sai, "trsm", "lda"), csap = to_int(sap, "trsm", "lda"), cldw = to_int(ldw, "trsm", "ldw");
    const cl_ulong coffA = offA, coffW = offW, cstride = strideK;
    set_args(kernel, "clSetKernelArg(tessera_trtri_blocks)", cdim, clower, cunit, cconj, a, coffA, csai, csap, w,
             coffW, cldw, cstride);
    const size_t global[1] = {round_up(size_t(dim), local[0])};
    enqueue(q, kernel, 1, global, local, "clEnqueueNDRangeKernel(tessera_trtri_blocks)");
}

namespace {

/// Shared by gemm, syrk and herk: tri as gemm.cl's (0 = all of C, 1 = lower, 2 = upper, | 4 Hermitian).
template <class T>
void gemm_launch(const DeviceKernels& dk, const Params& p, cl_command_queue q, const char* func, Trans transA,
                 Trans transB, int64_t m, int64_t n, int64_t k, T alpha, const Mat& A, const Mat& B, T beta,
                 const Mat& C, cl_int tri) {
    cl_kernel kernel = dk.get("tessera_gemm");
    const size_t local[2] = {size_t(p.gemm_mb / p.gemm_tm), size_t(p.gemm_nb / p.gemm_tn)};
    check_local(dk, "tessera_gemm", local, 2);
    // With k == 0 or alpha == 0 the kernel never reads A or B; their ld may then be anything ≥ 1.
    const cl_int cm = to_int(m, func, "m"), cn = to_int(n, func, "n"), ck = to_int(k, func, "k");
    const cl_int ctA = trans_code(transA), ctB = trans_code(transB);
    const cl_ulong offA = A.off, offB = B.off, offC = C.off;
    const cl_int lda = to_int(A.ld, func, "lda"), ldb = to_int(B.ld, func, "ldb"), ldc = to_int(C.ld, func, "ldc");
    set_args(kernel, "clSetKernelArg(tessera_gemm)", cm, cn, ck, ctA, ctB, alpha, A.mem, offA, lda, B.mem, offB,
             ldb, beta, C.mem, offC, ldc, tri);
    const size_t global[2] = {round_up(size_t(m), size_t(p.gemm_mb)) / size_t(p.gemm_mb) * local[0],
                              round_up(size_t(n), size_t(p.gemm_nb)) / size_t(p.gemm_nb) * local[1]};
    enqueue(q, kernel, 2, global, local, "clEnqueueNDRangeKernel(tessera_gemm)");
}

/// xTRSM by diagonal-block inversion + GEMM (MAGMA's trsm; the inversion is LAPACK's xTRTI2).
/// Every case is M·X = alpha·Y, M dim×dim triangular, Y dim×nvec: Left, M = op(A) and Y = B;
/// Right, M = op(A)ᵀ and Y = Bᵀ. M(i,p) = A[i·sai + p·sap] (conjugated when op is ConjTrans: M = Aᴴ,
/// or conj(A) on the Right) and Y(i,v) = B[i·sbi + v·sbv] are views through strides, so a block of
/// M or of Y is a Mat with an op, and transposition costs nothing. The workspace (dk.scratch)
/// holds the inverted diagonal blocks W(K) = M(K,K)⁻¹ (bs×bs each, bs = trsm_bs).
///
/// solve() recurses on halves split at a leaf boundary; when M is lower (mirrored when upper)
///   X1 = M11⁻¹·(a·Y1);  Y2 = a·Y2 − M21·X1;  X2 = M22⁻¹·Y2,
/// so the off-diagonal updates are few large GEMMs (k up to dim/2) through gemm<T> (NVIDIA path
/// first, portable kernel otherwise). A leaf of at most trsm_leaf rows is one launch of
/// tessera_trsm_leaf (its diagonal blocks applied as W(K)·Y(K), its own off-diagonal blocks in
/// between): a tile trsm is a few launches, not three per diagonal block.
/// With at most kTrsmChainColumns columns of Y, more than one leaf and TESSERA_TRSM_CHAIN (on NVIDIA
/// GPUs by default), the whole solve is instead one launch of tessera_trsm_chain after the
/// inversion: the leaves and updates of one right-hand side are ~30 short launches one after
/// another (0.75 ms for a 4096 float tile on an H200, against 0.24 ms in one launch; bench/gpu_notes.md,
/// "The solves' triangles in one launch").
template <class T>
class BlockedTrsm {
public:
    BlockedTrsm(const DeviceKernels& dk, const Params& p, cl_command_queue q, Side side, Uplo uplo, Trans trans,
                Diag diag, int64_t m, int64_t n, const Mat& A, const Mat& B)
        : dk_(dk), q_(q), left_(side == Side::Left), trans_(trans),
          mtrans_(left_ ? is_trans(trans) : !is_trans(trans)),  // M = Aᵀ ?
          conj_(trans == Trans::ConjTrans),                     // M = conj(A) or Aᴴ
          lower_((uplo == Uplo::Lower) != mtrans_),              // M lower: forward substitution
          unit_(diag == Diag::Unit), dim_(left_ ? m : n), nvec_(left_ ? n : m), bs_(p.trsm_bs),
          leaf_(std::max<int64_t>(1, p.trsm_leaf / p.trsm_bs) * p.trsm_bs), ng_(p.trsm_ng), vw_(p.trsm_nv * p.trsm_ng),
          sai_(mtrans_ ? A.ld : 1), sap_(mtrans_ ? 1 : A.ld), sbi_(left_ ? 1 : B.ld), sbv_(left_ ? B.ld : 1),
          chain_(nvec_ <= kTrsmChainColumns && dim_ > leaf_ && waiting_kernel_enabled(p.trsm_chain, dk)),
          A_(A), B_(B) {}

    /// Enqueue the whole solve of M·X = alpha·Y, X overwriting B (alpha ≠ 0: the caller handles 0).
    void run(T alpha) {
        const int64_t nblk = (dim_ + bs_ - 1) / bs_;
        const size_t wbytes = size_t(nblk * bs_ * bs_) * sizeof(T);
        w_ = dk_.scratch(wbytes + (chain_ ? size_t(1 + nblk) * sizeof(cl_int) : 0));
        trtri_blocks<T>(dk_, q_, dim_, lower_, unit_, conj_, A_.mem, A_.off, sai_, sap_, w_, 0, bs_, size_t(bs_ * bs_));
        if (chain_) return solve_chain(alpha, wbytes, nblk);
        solve(0, dim_, alpha);
    }

private:
    /// The whole solve in one launch of tessera_trsm_chain, its ticket and tags (1 + nblk ints
    /// after W's blocks, at byte `sync`) zeroed first.
    void solve_chain(T alpha, size_t sync, int64_t nblk) {
        const cl_int zero = 0;
        check(clEnqueueFillBuffer(q_, w_, &zero, sizeof zero, sync, size_t(1 + nblk) * sizeof(cl_int), 0, nullptr,
                                  nullptr),
              "clEnqueueFillBuffer(trsm chain tags)");
        cl_kernel kernel = dk_.get("tessera_trsm_chain");
        const size_t local[1] = {size_t(bs_ * ng_)};
        check_local(dk_, "tessera_trsm_chain", local, 1);
        const cl_int cdim = to_int(dim_, "trsm", "dim"), cnvec = to_int(nvec_, "trsm", "nvec");
        const cl_int clower = lower_, cconj = conj_;
        const cl_int csai = to_int(sai_, "trsm", "lda"), csap = to_int(sap_, "trsm", "lda");
        const cl_int csbi = to_int(sbi_, "trsm", "ldb"), csbv = to_int(sbv_, "trsm", "ldb");
        const cl_ulong offA = A_.off, offW = 0, offB = B_.off, offS = sync / sizeof(cl_int);
        set_args(kernel, "clSetKernelArg(tessera_trsm_chain)", cdim, cnvec, clower, cconj, alpha, A_.mem, offA, csai,
                 csap, w_, offW, B_.mem, offB, csbi, csbv, w_, offS);
        const size_t global[1] = {size_t(nblk) * local[0]};
        enqueue(q_, kernel, 1, global, local, "clEnqueueNDRangeKernel(tessera_trsm_chain)");
    }

    /// Rows r0 .. r0+n of M·X = a·Y (r0 a multiple of bs).
    void solve(int64_t r0, int64_t n, T a) {
        if (n <= leaf_) return solve_leaf(r0, n, a);
        const int64_t n1 = (n + leaf_ - 1) / leaf_ / 2 * leaf_, n2 = n - n1;
        if (lower_) {
            solve(r0, n1, a);
            update(r0 + n1, n2, r0, n1, a);
            solve(r0 + n1, n2, T(1));
        } else {
            solve(r0 + n1, n2, a);
            update(r0, n1, r0 + n1, n2, a);
            solve(r0, n1, T(1));
        }
    }

    /// Rows r0 .. r0+n (n ≤ leaf) in one launch of tessera_trsm_leaf.
    void solve_leaf(int64_t r0, int64_t n, T a) {
        cl_kernel kernel = dk_.get("tessera_trsm_leaf");
        const size_t local[1] = {size_t(bs_ * ng_)};
        check_local(dk_, "tessera_trsm_leaf", local, 1);
        const cl_int cr0 = to_int(r0, "trsm", "dim"), cn = to_int(n, "trsm", "dim");
        const cl_int cnvec = to_int(nvec_, "trsm", "nvec"), clower = lower_, cconj = conj_;
        const cl_int csai = to_int(sai_, "trsm", "lda"), csap = to_int(sap_, "trsm", "lda");
        const cl_int csbi = to_int(sbi_, "trsm", "ldb"), csbv = to_int(sbv_, "trsm", "ldb");
        const cl_ulong offA = A_.off, offW = 0, offB = B_.off;
        set_args(kernel, "clSetKernelArg(tessera_trsm_leaf)", cr0, cn, cnvec, clower, cconj, a, A_.mem, offA, csai,
                 csap, w_, offW, B_.mem, offB, csbi, csbv);
        const size_t global[1] = {size_t((nvec_ + vw_ - 1) / vw_) * local[0]};  // vw_ columns per work-group
        enqueue(q_, kernel, 1, global, local, "clEnqueueNDRangeKernel(tessera_trsm_leaf)");
    }

    /// Y(d0 .. d0+dn) = a·Y(d0 ..) − M(d0 .., s0 .. s0+sn)·X(s0 ..).
    void update(int64_t d0, int64_t dn, int64_t s0, int64_t sn, T a) {
        const Mat mds = m_block(d0, s0);
        if (left_)  // B(d, :) = a·B(d, :) − M(d, s)·B(s, :), M(d, s) = op(A)(d, s) = op(mds)
            gemm<T>(dk_, q_, mtrans_ ? trans_ : Trans::NoTrans, Trans::NoTrans, dn, nvec_, sn, T(-1), mds, y_rows(s0),
                    a, y_rows(d0));
        else  // B(:, d) = a·B(:, d) − B(:, s)·M(d, s)ᵀ, M(d, s)ᵀ = op(A)(s, d) = op(mds)
            gemm<T>(dk_, q_, Trans::NoTrans, mtrans_ ? Trans::NoTrans : trans_, nvec_, dn, sn, T(-1), y_rows(s0), mds,
                    a, y_rows(d0));
    }

    /// The block of M from (i0, p0), as stored in A: A(i0, p0), or A(p0, i0) when mtrans.
    Mat m_block(int64_t i0, int64_t p0) const { return {A_.mem, A_.off + size_t(i0 * sai_ + p0 * sap_), A_.ld}; }
    /// Rows i0.. of Y, as stored in B: B(i0, 0) when Left, B(0, i0) when Right.
    Mat y_rows(int64_t i0) const { return {B_.mem, B_.off + size_t(i0 * sbi_), B_.ld}; }

    const DeviceKernels& dk_;
    cl_command_queue q_;
    bool left_;
    Trans trans_;
    bool mtrans_, conj_, lower_, unit_;
    int64_t dim_, nvec_, bs_, leaf_, ng_, vw_, sai_, sap_, sbi_, sbv_;
    bool chain_;  ///< the whole solve in one launch (solve_chain)
    Mat A_, B_;
    cl_mem w_ = nullptr;
};

}  // namespace

template <class T>
void gemm(const DeviceKernels& dk, cl_command_queue q, Trans transA, Trans transB, int64_t m, int64_t n,
          int64_t k, T alpha, Mat A, Mat B, T beta, Mat C) {
    check_prec<T>(dk, "gemm");
    if (m == 0 || n == 0) return;
    if (gemm_narrow<T>(dk, q, transA, transB, m, n, k, alpha, A, B, beta, C)) return;  // few columns of C
    if (nv_gemm_any<T>(dk, q, transA, transB, m, n, k, alpha, A, B, beta, C, 0)) return;  // NVIDIA cc >= 8.0
    gemm_launch<T>(dk, dk.params(), q, "gemm", transA, transB, m, n, k, alpha, A, B, beta, C, 0);
}

template <class T>
void syrk(const DeviceKernels& dk, cl_command_queue q, Uplo uplo, Trans trans, int64_t n, int64_t k, T alpha,
          Mat A, T beta, Mat C) {
    check_prec<T>(dk, "syrk");
    if (n == 0) return;
    if (uplo == Uplo::General) throw Error("tessera::ocl::syrk: uplo must be Lower or Upper");
    // NoTrans: C = A·Aᵀ (A n×k); Trans: C = Aᵀ·A (A k×n).
    const bool t = is_trans(trans);
    const Trans ta = t ? Trans::Trans : Trans::NoTrans, tb = t ? Trans::NoTrans : Trans::Trans;
    const cl_int tri = uplo == Uplo::Lower ? 1 : 2;
    if (nv_gemm_any<T>(dk, q, ta, tb, n, n, k, alpha, A, A, beta, C, tri)) return;
    gemm_launch<T>(dk, dk.params(), q, "syrk", ta, tb, n, n, k, alpha, A, A, beta, C, tri);
}

template <class T>
void herk(const DeviceKernels& dk, cl_command_queue q, Uplo uplo, Trans trans, int64_t n, int64_t k,
          real_t<T> alpha, Mat A, real_t<T> beta, Mat C) {
    if constexpr (!is_complex_v<T>) {
        syrk<T>(dk, q, uplo, trans, n, k, alpha, A, beta, C);
    } else {
        check_prec<T>(dk, "herk");
        if (n == 0) return;
        if (uplo == Uplo::General) throw Error("tessera::ocl::herk: uplo must be Lower or Upper");
        if (trans == Trans::Trans) throw Error("tessera::ocl::herk: trans must be NoTrans or ConjTrans");
        // NoTrans: C = A·Aᴴ (A n×k); ConjTrans: C = Aᴴ·A (A k×n). The diagonal stays real (tri | 4).
        const bool t = trans == Trans::ConjTrans;
        const Trans ta = t ? Trans::ConjTrans : Trans::NoTrans, tb = t ? Trans::NoTrans : Trans::ConjTrans;
        const cl_int tri = (uplo == Uplo::Lower ? 1 : 2) | 4;
        if (nv_gemm_any<T>(dk, q, ta, tb, n, n, k, T(alpha), A, A, T(beta), C, tri)) return;
        gemm_launch<T>(dk, dk.params(), q, "herk", ta, tb, n, n, k, T(alpha), A, A, T(beta), C, tri);
    }
}

template <class T>
void syr2k(const DeviceKernels& dk, cl_command_queue q, bool hermitian, Uplo uplo, Trans trans, int64_t n, int64_t k,
           T alpha, Mat A, Mat B, T beta, Mat C) {
    check_prec<T>(dk, "syr2k");
    if (n == 0) return;
    if (uplo == Uplo::General) throw Error("tessera::ocl::syr2k: uplo must be Lower or Upper");
    const bool herm = hermitian && is_complex_v<T>;
    if (herm && trans == Trans::Trans) throw Error("tessera::ocl::her2k: trans must be NoTrans or ConjTrans");
    // NoTrans: C = α·A·Bᵀ + α·B·Aᵀ (A, B n×k); Trans: C = α·Aᵀ·B + α·Bᵀ·A (k×n); ᴴ and conj(α) on
    // the second term for her2k. Two masked GEMMs on the triangle; for her2k both keep the diagonal
    // real (tri | 4): each term's diagonal imaginary part cancels the other's.
    const Trans tt = herm ? Trans::ConjTrans : Trans::Trans;
    const bool t = trans != Trans::NoTrans;
    const Trans ta = t ? tt : Trans::NoTrans, tb = t ? Trans::NoTrans : tt;
    const cl_int tri = (uplo == Uplo::Lower ? 1 : 2) | (herm ? 4 : 0);
    T alpha2 = alpha;
    if constexpr (is_complex_v<T>)
        if (herm) alpha2 = std::conj(alpha);
    if (!nv_gemm_any<T>(dk, q, ta, tb, n, n, k, alpha, A, B, beta, C, tri))
        gemm_launch<T>(dk, dk.params(), q, "syr2k", ta, tb, n, n, k, alpha, A, B, beta, C, tri);
    if (!nv_gemm_any<T>(dk, q, ta, tb, n, n, k, alpha2, B, A, T(1), C, tri))
        gemm_launch<T>(dk, dk.params(), q, "syr2k", ta, tb, n, n, k, alpha2, B, A, T(1), C, tri);
}

template <class T>
void trsm(const DeviceKernels& dk, cl_command_queue q, Side side, Uplo uplo, Trans trans, Diag diag, int64_t m,
          int64_t n, T alpha, Mat A, Mat B) {
    check_prec<T>(dk, "trsm");
    if (m == 0 || n == 0) return;
    if (uplo == Uplo::General) throw Error("tessera::ocl::trsm: uplo must be Lower or Upper");
    if (alpha == T(0)) {  // B = 0, reading neither A nor B (BLAS): a GEMM with k = 0 and beta = 0
        gemm<T>(dk, q, Trans::NoTrans, Trans::NoTrans, m, n, 0, T(0), B, B, T(0), B);
        return;
    }
    BlockedTrsm<T>(dk, dk.params(), q, side, uplo, trans, diag, m, n, A, B).run(alpha);
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
    enqueue_2d(q, kernel, m, n, "clEnqueueNDRangeKernel(tessera_lacpy)");
}

template <class T>
void conj_transpose(const DeviceKernels& dk, cl_command_queue q, int64_t m, int64_t n, Mat A, Mat B) {
    check_prec<T>(dk, "conj_transpose");
    if (m == 0 || n == 0) return;
    cl_kernel kernel = dk.get("tessera_conj_transpose");
    const cl_int cm = to_int(m, "conj_transpose", "m"), cn = to_int(n, "conj_transpose", "n");
    const cl_int lda = to_int(A.ld, "conj_transpose", "lda"), ldb = to_int(B.ld, "conj_transpose", "ldb");
    const cl_ulong offA = A.off, offB = B.off;
    set_args(kernel, "clSetKernelArg(tessera_conj_transpose)", cm, cn, A.mem, offA, lda, B.mem, offB, ldb);
    enqueue_2d(q, kernel, m, n, "clEnqueueNDRangeKernel(tessera_conj_transpose)");
}

#define TESSERA_INSTANTIATE(T)                                                                                 \
    template void gemm<T>(const DeviceKernels&, cl_command_queue, Trans, Trans, int64_t, int64_t, int64_t, T,  \
                          Mat, Mat, T, Mat);                                                                   \
    template void syrk<T>(const DeviceKernels&, cl_command_queue, Uplo, Trans, int64_t, int64_t, T, Mat, T,    \
                          Mat);                                                                                \
    template void syr2k<T>(const DeviceKernels&, cl_command_queue, bool, Uplo, Trans, int64_t, int64_t, T, Mat, Mat, \
                           T, Mat);                                                                             \
    template void trsm<T>(const DeviceKernels&, cl_command_queue, Side, Uplo, Trans, Diag, int64_t, int64_t, T, \
                          Mat, Mat);                                                                           \
    template void herk<T>(const DeviceKernels&, cl_command_queue, Uplo, Trans, int64_t, int64_t, real_t<T>, Mat, \
                          real_t<T>, Mat);                                                                     \
    template void trtri_blocks<T>(const DeviceKernels&, cl_command_queue, int64_t, bool, bool, bool, cl_mem,      \
                                 size_t, int64_t, int64_t, cl_mem, size_t, int64_t, size_t);                   \
    template void lacpy<T>(const DeviceKernels&, cl_command_queue, Uplo, int64_t, int64_t, Mat, Mat);                  \
    template void conj_transpose<T>(const DeviceKernels&, cl_command_queue, int64_t, int64_t, Mat, Mat);

TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::ocl
