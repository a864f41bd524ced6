// Launcher of the NVIDIA GEMM kernels (gemm_nv.cl); see gemm_select.hpp.
#include "kernels/opencl/gemm_select.hpp"
#include "kernels/opencl/launch_util.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <type_traits>

#include "kernels/opencl/nv_shapes.hpp"

namespace tessera::ocl {
namespace {

constexpr const char* kFunc = "nv_gemm";  // for to_int's messages

/// The products gemm_nv*.cl has kernels for: op(A) and op(B) each untransposed (N) or transposed (T).
enum Form { kNN, kNT, kTN, kTT, kForms };
/// The kernels of one form:
/// - kVec: tessera_nvgemm_XY, 16-byte copies from the sources that allow them (aligned offsets
///   and leading dimensions; see nv_gemm);
/// - kAny: _u, any sources;
/// - kBig: _big, NN only, double: 128×128 blocks with the fragment prefetch (gemm_nv_d.cl);
/// - kMbar: _mbar, NN, NT and TN, double: whole blocks, slabs tracked by mbarriers (gemm_nv_d_mbar.cl);
/// - kVecSplit, kAnySplit: float's split-k code of kVec and kAny, in kernels of their own.
enum Variant { kVec, kAny, kBig, kMbar, kVecSplit, kAnySplit, kVariants };

/// The kernel of each form and variant; nullptr where gemm_nv*.cl has none.
constexpr const char* kKernel[kForms][kVariants] = {
    {"tessera_nvgemm_nn", "tessera_nvgemm_nn_u", "tessera_nvgemm_nn_big", "tessera_nvgemm_nn_mbar",
     "tessera_nvgemm_nn_split", "tessera_nvgemm_nn_u_split"},
    {"tessera_nvgemm_nt", "tessera_nvgemm_nt_u", nullptr, "tessera_nvgemm_nt_mbar", "tessera_nvgemm_nt_split",
     "tessera_nvgemm_nt_u_split"},
    {"tessera_nvgemm_tn", "tessera_nvgemm_tn_u", nullptr, "tessera_nvgemm_tn_mbar", "tessera_nvgemm_tn_split",
     "tessera_nvgemm_tn_u_split"},
    {"tessera_nvgemm_tt", "tessera_nvgemm_tt_u", nullptr, nullptr, "tessera_nvgemm_tt_split",
     "tessera_nvgemm_tt_u_split"},
};
/// Block sizes, double: the never-launched kernel of each variant whose reqd_work_group_size
/// (WM, WN, 1) gives its block of C, (64·WM) × (32·WN) (gemm_nv_d.cl). Float: kFloatBlock².
constexpr const char* kGeometryKernel[kVariants] = {
    "tessera_nvgemm_geometry",      "tessera_nvgemm_geometry", "tessera_nvgemm_geometry_big",
    "tessera_nvgemm_geometry_mbar", "tessera_nvgemm_geometry", "tessera_nvgemm_geometry"};

/// Work-group shape a kernel was compiled for (reqd_work_group_size), and the block of C it computes.
struct Geometry {
    size_t local[3];
    int64_t bm, bn;
};

/// The geometry of kKernel[form][v] (which the program must have: throws tessera::Error otherwise,
/// or when its work-group disagrees with its block).
Geometry geometry(const DeviceKernels& dk, Form form, Variant v) {
    Geometry g{};
    const std::array<size_t, 3>& local = dk.compiled_local(kKernel[form][v]);
    std::copy(local.begin(), local.end(), g.local);
    const size_t threads = local[0] * local[1] * local[2];
    if (real_prec(dk.prec()) == 'd') {
        const std::array<size_t, 3>& w = dk.compiled_local(kGeometryKernel[v]);
        g.bm = nv::kDoubleRowsPerWarp * int64_t(w[0]), g.bn = nv::kDoubleColumnsPerWarp * int64_t(w[1]);
        if (threads != nv::kWarp * w[0] * w[1])
            throw Error("tessera::ocl::nv_gemm: tessera_nvgemm work-group size disagrees with its geometry");
    } else {
        if (threads != nv::kFloatWorkItems) throw Error("tessera::ocl::nv_gemm: unexpected work-group size of tessera_nvgemm");
        g.bm = g.bn = nv::kFloatBlock;
    }
    return g;
}

/// How many work-groups share each block's k (split k, gemm_nv.cl's nvg_split_k), for `blocks`
/// blocks of C that compute (syrk: those that meet the triangle), each at least kMinSplitDepth
/// deep and at most max_splits ways (the TESSERA_NV_SPLITK kernel parameter):
/// - blocks ≤ units, kernels of which a compute unit holds two (`one_per_unit` false): as many
///   ways as fill kGroupsPerUnit (two) work-groups per unit;
/// - otherwise a unit's time is the number of blocks it runs, so the busiest one runs
///   ceil(blocks / units) (272 blocks of a syrk of 2048 on 132 units: 3, where 2.06 would be
///   even); s ways cost ceil(s·blocks / units) / s of that, and a split is taken when it saves at
///   least a fifth (costs at most kMaxSplitCost of the unsplit; the partial products' round trip
///   is the rest): up to kMaxSplitsManyBlocks (4) ways, or up to `most` for fewer blocks than
///   units (64 blocks of a 1024 product on 132 units: 2 ways).
int64_t split_k(size_t blocks, int64_t k, double alpha, int64_t units, int64_t max_splits, bool one_per_unit) {
    constexpr int64_t kMinSplitDepth = 128;       // k of each split at least
    constexpr int64_t kGroupsPerUnit = 2;         // work-groups a compute unit holds (all but the _mbar kernels)
    constexpr int64_t kMaxSplitsManyBlocks = 4;   // most ways for as many blocks as units or more
    constexpr double kMaxSplitCost = 0.8;         // a split's rounds relative to the unsplit ones, at most
    if (alpha == 0 || blocks == 0) return 1;
    const int64_t most = std::min<int64_t>(k / kMinSplitDepth, std::max<int64_t>(1, max_splits));
    const int64_t b = int64_t(blocks);
    if (b == units || (b < units && !one_per_unit))
        return std::clamp<int64_t>(kGroupsPerUnit * units / b, 1, std::max<int64_t>(1, most));
    const auto rounds = [&](int64_t s) { return double((s * b + units - 1) / units) / double(s); };
    int64_t best = 1;
    for (int64_t s = 2; s <= (b < units ? most : std::min<int64_t>(kMaxSplitsManyBlocks, most)); ++s)
        if (rounds(s) <= kMaxSplitCost * rounds(1) && rounds(s) < rounds(best)) best = s;
    return best;
}

/// Blocks of an mb×nb grid of bm×bn blocks that meet C's triangle (tri 1: lower, 2: upper; 0: all).
size_t working_blocks(int64_t mb, int64_t nb, int64_t bm, int64_t bn, int tri) {
    if (tri == 0) return size_t(mb * nb);
    size_t count = 0;
    for (int64_t bj = 0; bj < nb; ++bj) {
        // Lower: block row bi meets it when its last row (bi+1)·bm − 1 ≥ the first column bj·bn;
        // upper: when its first row bi·bm ≤ the last column (bj+1)·bn − 1.
        const int64_t first = (bj * bn + 1 + bm - 1) / bm - 1;  // lower: the smallest such bi
        const int64_t last = ((bj + 1) * bn - 1) / bm;          // upper: the largest such bi
        count += size_t(tri == 1 ? std::max<int64_t>(0, mb - std::max<int64_t>(0, first))
                                 : std::min<int64_t>(mb, last + 1));
    }
    return count;
}

/// C = beta·C + the sum of the `splits` partial products in w (m×n each, leading dimension m; tri:
/// the triangle only).
template <class T>
void reduce(const DeviceKernels& dk, cl_command_queue q, int64_t m, int64_t n, int64_t splits, T beta, cl_mem w, Mat C,
            int tri) {
    cl_kernel kernel = dk.get("tessera_nvgemm_reduce");
    const cl_int cm = to_int(m, kFunc, "m"), cn = to_int(n, kFunc, "n"), cs = cl_int(splits);
    const cl_int ldc = to_int(C.ld, kFunc, "ldc");
    const cl_int ctri = tri;
    const cl_ulong offC = C.off;
    set_args(kernel, "clSetKernelArg(tessera_nvgemm_reduce)", cm, cn, cs, beta, w, cm, C.mem, offC, ldc, ctri);
    const size_t global[2] = {size_t(m), size_t(n)};
    enqueue(q, kernel, 2, global, nullptr, "clEnqueueNDRangeKernel(tessera_nvgemm_reduce)");
}

}  // namespace

namespace {
thread_local TensorFormat tensor_products = TensorFormat::None;
}

TensorProducts::TensorProducts(TensorFormat format) : saved_(tensor_products) { tensor_products = format; }
TensorProducts::~TensorProducts() { tensor_products = saved_; }
TensorFormat TensorProducts::active() { return tensor_products; }

bool nv_gemm_available(const DeviceKernels& dk) {
    if (dk.info().cc_major < 8) return false;
    return dk.has("tessera_nvgemm_nn");  // false for a program built without -DTESSERA_NV_SM
}

namespace {

// kKernel's name of (form, v) with the suffix of a tensor format (_tf32, _f16), made once, so that a
// launch builds no string; empty where kKernel has none.
const std::string& tensor_name(Form form, Variant v, TensorFormat f) {
    static const auto names = [] {
        std::array<std::array<std::array<std::string, kVariants>, kForms>, 2> t;
        for (int fo = 0; fo < kForms; ++fo)
            for (int va = 0; va < kVariants; ++va)
                if (const char* k = kKernel[fo][va]) {
                    t[0][size_t(fo)][size_t(va)] = std::string(k) + "_tf32";
                    t[1][size_t(fo)][size_t(va)] = std::string(k) + "_f16";
                }
        return t;
    }();
    return names[f == TensorFormat::Fp16][size_t(form)][size_t(v)];
}

// In a TensorProducts scope, float takes the tensor-core kernel of the same form and variant
// (gemm_nv_tf32.cl: the same blocks, launch and arguments) in the scope's format where the program
// has it; Fp16 takes TF32 where the program has no FP16 kernel (NN and TT: FP16 does not pay there),
// the same unit roundoff with more range.
const char* tensor_kernel(const DeviceKernels& dk, Form form, Variant v) {
    const TensorFormat f = TensorProducts::active();
    if (f == TensorFormat::None) return kKernel[form][v];
    if (f == TensorFormat::Fp16) {
        const std::string& f16 = tensor_name(form, v, TensorFormat::Fp16);
        if (dk.has(f16.c_str())) return f16.c_str();
    }
    const std::string& tf32 = tensor_name(form, v, TensorFormat::Tf32);
    return dk.has(tf32.c_str()) ? tf32.c_str() : kKernel[form][v];
}

// Tensor-core NN products of at least TESSERA_NVT_NN_ROWS rows run as NT ones on Bᵀ (a copy in the
// Transposed workspace, tessera_nvgemm_transpose): the NT kernels copy B with cp.async and round it
// to TF32 with one integer add, where the NN ones stage it through registers and keep cvt.rna
// (bench/gpu_notes.md, "The TF32 GEMM's conversions"). The copy moves 8·k·n bytes, against the
// product's 2·m·n·k flops. Each product copies its own B, also when several products read the same
// one (an LU's U-row tile, once per trailing tile below it: open, bench/gpu_notes.md). The copy is
// gemm_nv_tf32.cl's own tiled kernel, not lacpy.cl's tessera_conj_transpose (one element per
// work-item, writes a column apart), which the GEMM-only programs of gpu_gemm do not hold.
bool transposed_nn(const DeviceKernels& dk, int64_t m, int64_t k) {
    const int rows = dk.params().nvt_nn_rows;
    return rows > 0 && m >= rows && k > 0 && TensorProducts::active() != TensorFormat::None &&
           dk.has("tessera_nvgemm_transpose") && dk.has(tensor_name(kNT, kVec, TensorFormat::Tf32).c_str());
}

bool nn_through_transposed(const DeviceKernels& dk, cl_command_queue q, int64_t m, int64_t n, int64_t k, float alpha,
                           Mat A, Mat B, float beta, Mat C) {
    const int64_t ldbt = (n + 31) / 32 * 32;  // 128-byte columns: the NT kernel's 16-byte copies
    const Mat Bt{dk.scratch(size_t(ldbt * k) * sizeof(float), DeviceKernels::Workspace::Transposed), 0, ldbt};
    cl_kernel kernel = dk.get("tessera_nvgemm_transpose");
    const cl_int rows = to_int(k, kFunc, "k"), cols = to_int(n, kFunc, "n"), ldb = to_int(B.ld, kFunc, "ldb");
    const cl_int ldt = to_int(ldbt, kFunc, "n");
    const cl_ulong offB = B.off, offT = 0;
    set_args(kernel, "clSetKernelArg(tessera_nvgemm_transpose)", rows, cols, B.mem, offB, ldb, Bt.mem, offT, ldt);
    const size_t local[2] = {32, 8}, global[2] = {size_t((k + 31) / 32 * 32), size_t((n + 31) / 32 * 8)};
    enqueue(q, kernel, 2, global, local, "clEnqueueNDRangeKernel(tessera_nvgemm_transpose)");
    // TF32 also in an FP16 scope: the NN products ran in TF32 there (tensor_kernel), and their
    // operands (an LU's) are not scaled into FP16's range.
    const TensorProducts tf32(TensorFormat::Tf32);
    return nv_gemm<float>(dk, q, Trans::NoTrans, Trans::Trans, m, n, k, alpha, A, Bt, beta, C, 0);
}

}  // namespace

template <class T>
bool nv_gemm(const DeviceKernels& dk, cl_command_queue q, Trans transA, Trans transB, int64_t m, int64_t n,
             int64_t k, T alpha, Mat A, Mat B, T beta, Mat C, int tri) {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "real precisions only");
    if (real_prec(dk.prec()) != (std::is_same_v<T, float> ? 's' : 'd'))
        throw Error("tessera::ocl::nv_gemm: kernels built for another precision");
    if (!nv_gemm_available(dk)) return false;
    if (tri < 0 || tri > 2) throw Error("tessera::ocl::nv_gemm: tri must be 0, 1 or 2");
    if (m == 0 || n == 0) return true;
    const bool ta = transA != Trans::NoTrans, tb = transB != Trans::NoTrans;
    const Form form = Form(2 * int(ta) + int(tb));
    if constexpr (std::is_same_v<T, float>)
        if (form == kNN && tri == 0 && transposed_nn(dk, m, k))
            return nn_through_transposed(dk, q, m, n, k, alpha, A, B, beta, C);
    // kVec copies nv::kCopyBytes (16) at a time from the sources it can, which needs their offsets
    // and leading dimensions to be multiples of 16 bytes' worth of elements; kAny takes any.
    // Double copies so along A's rows and B's k (A and B untransposed), float along A's rows (A
    // untransposed) and from B in either form.
    constexpr bool dbl = std::is_same_v<T, double>;
    constexpr int64_t per_copy = nv::kCopyBytes / int64_t(sizeof(T));
    const auto aligned = [](const Mat& X) { return X.off % per_copy == 0 && X.ld % per_copy == 0; };
    const bool vec_a = ta || aligned(A), vec_b = (dbl && tb) || aligned(B);
    Variant v = vec_a && vec_b ? kVec : kAny;
    // Large NN products with 16-byte copies: kBig (128×128 blocks with the fragment prefetch;
    // gemm_nv.cl) where the program has it and its blocks fill every compute unit at least once
    // (bench/gpu_gemm.sh, dgemm NN: +4..6 % at n = 2048..8192 on an H100; smaller products lose).
    // (A program built with TESSERA_NVD_BIG=0, as tessera-tune's candidates, has no such kernel.)
    const int64_t units = int64_t(std::max(1u, dk.info().compute_units));
    if (dbl && form == kNN && v == kVec && tri == 0 && dk.has(kKernel[kNN][kBig])) {
        const Geometry big = geometry(dk, kNN, kBig);
        if (((m + big.bm - 1) / big.bm) * ((n + big.bn - 1) / big.bn) >= units) v = kBig;
    }
    // NN, NT and TN products of whole blocks (128×128) and slabs (8 deep) with 16-byte aligned
    // sources, enough blocks for every compute unit: kMbar (slabs tracked by mbarriers, no
    // work-group barrier; gemm_nv_d_mbar.cl; NN +14..20 %, NT +13..18 % at 2048..8192,
    // bench/gpu_gemm.sh, dgemm NN and NT on an H100) where the program has them. Built with TESSERA_NVD_MBAR_TRI,
    // also xSYRK's triangles; with TESSERA_NVD_MBAR_FEW, also fewer blocks than units (split k
    // then fills the units; both still to be measured: bench/gpu_gemm.sh with VARIANTS_D); built with
    // TESSERA_NVD_MBAR_TN, TN products too (tessera_nvgemm_tn_mbar, whose Aᵀ copies take any A).
    const Params& p = dk.params();
    const char* mbar = kKernel[form][kMbar];
    if (dbl && (v == kVec || v == kBig) && mbar && (tri == 0 || p.nvd_mbar_tri) && (form == kTN || aligned(A)) &&
        aligned(B) && k % nv::kDoubleSlabK == 0 && dk.has(mbar)) {
        const Geometry mg = geometry(dk, form, kMbar);
        if (m % mg.bm == 0 && n % mg.bn == 0 &&
            (p.nvd_mbar_few || int64_t(working_blocks(m / mg.bm, n / mg.bn, mg.bm, mg.bn, tri)) >= units))
            v = kMbar;
    }
    const Geometry g = geometry(dk, form, v);
    const int64_t mblocks = (m + g.bm - 1) / g.bm, nblocks = (n + g.bn - 1) / g.bn;
    const size_t blocks = size_t(mblocks * nblocks);
    const bool one_per_unit = v == kMbar;  // 83 KB of local memory (the others fit two a unit)
    const int64_t splits =
        split_k(working_blocks(mblocks, nblocks, g.bm, g.bn, tri), k, alpha, units, p.nv_splitk, one_per_unit);
    if (!dbl && splits > 1) v = v == kVec ? kVecSplit : kAnySplit;  // float: split code in kernels of its own
    // With split k the kernel writes its partial products, alpha applied, into the SplitK workspace
    // (leading dimension m, beta 0), and reduce() adds them to beta·C.
    const Mat out = splits > 1 ? Mat{dk.scratch(size_t(splits * m * n) * sizeof(T), DeviceKernels::Workspace::SplitK), 0, m}
                               : C;
    const T out_beta = splits > 1 ? T(0) : beta;
    const char* name = dbl ? kKernel[form][v] : tensor_kernel(dk, form, v);
    cl_kernel kernel = dk.get(name);
    const cl_int cm = to_int(m, kFunc, "m"), cn = to_int(n, kFunc, "n"), ck = to_int(k, kFunc, "k");
    const cl_int lda = to_int(A.ld, kFunc, "lda"), ldb = to_int(B.ld, kFunc, "ldb"), ldc = to_int(out.ld, kFunc, "ldc");
    const cl_int ctri = tri;
    const cl_ulong offA = A.off, offB = B.off, offC = out.off;
    set_args(kernel, "clSetKernelArg(tessera_nvgemm)", cm, cn, ck, alpha, A.mem, offA, lda, B.mem, offB, ldb, out_beta,
             out.mem, offC, ldc, ctri);
    const size_t global[3] = {blocks * g.local[0], g.local[1] * size_t(splits), g.local[2]};
    enqueue(q, kernel, 3, global, g.local, "clEnqueueNDRangeKernel(tessera_nvgemm)");
    if (splits > 1) reduce<T>(dk, q, m, n, splits, beta, out.mem, C, tri);
    return true;
}

template bool nv_gemm<float>(const DeviceKernels&, cl_command_queue, Trans, Trans, int64_t, int64_t, int64_t, float,
                             Mat, Mat, float, Mat, int);
template bool nv_gemm<double>(const DeviceKernels&, cl_command_queue, Trans, Trans, int64_t, int64_t, int64_t,
                              double, Mat, Mat, double, Mat, int);

}  // namespace tessera::ocl
