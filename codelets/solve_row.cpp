// solve_row codelet: one block row of a triangular solve by its diagonal tile's inverse,
// Y = op(W)·(B − Σ_j op(F_j)·X_j), B left holding the bracket (detail::DiagonalInverseSolves). As
// one task instead of one gemm task per tile: with one right-hand side each product is a short
// memory-bound launch, and on one GPU the solves of a dsposv at n = 32768 were 216 such tasks, each
// followed by ~30 µs of idle device while StarPU ended it and started the next (H200 trace of
// `tessera-tester posv_mixed --factor fp16`, bench/gpu_notes.md). Buffers: W, F_0..F_{c−1},
// X_0..X_{c−1}, B, Y.
#include "codelets/lu_codelet.hpp"
#include "codelets/tasks.hpp"
#include "kernels/cpu/blas.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct SolveRowArgs {
    uint32_t flags;
    Trans op;
    int32_t terms;  // c: the number of F_j (and X_j)
};

template <class T>
void solve_row_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<SolveRowArgs*>(cl_arg);
    const auto W = codelets::cpu_tile<T>(buffers[0]), B = codelets::cpu_tile<T>(buffers[1 + 2 * a.terms]);
    const auto Y = codelets::cpu_tile<T>(buffers[2 + 2 * a.terms]);
    for (int32_t j = 0; j < a.terms; ++j) {
        const auto F = codelets::cpu_tile<T>(buffers[1 + j]), X = codelets::cpu_tile<T>(buffers[1 + a.terms + j]);
        cpu::gemm<T>(a.op, Trans::NoTrans, B.m, B.n, X.m, T(-1), F.ptr, F.ld, X.ptr, X.ld, T(1), B.ptr, B.ld);
    }
    cpu::gemm<T>(a.op, Trans::NoTrans, Y.m, Y.n, B.m, T(1), W.ptr, W.ld, B.ptr, B.ld, T(0), Y.ptr, Y.ld);
}

template <class T>
void solve_row_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<SolveRowArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    void* b = buffers[1 + 2 * a.terms];
    void* y = buffers[2 + 2 * a.terms];
    const int64_t m = codelets::tile_rows(b), n = codelets::tile_cols(b);
    std::vector<ocl::NarrowTerm> terms;
    for (int32_t j = 0; j < a.terms; ++j)
        terms.push_back({codelets::ocl_tile<T>(buffers[1 + j]), codelets::ocl_tile<T>(buffers[1 + a.terms + j]),
                         codelets::tile_rows(buffers[1 + a.terms + j])});
    const ocl::Mat B = codelets::ocl_tile<T>(b);
    if (!ocl::gemm_narrow_sum<T>(w.kernels, w.queue, a.op, m, n, T(-1), terms, T(1), B))
        for (const ocl::NarrowTerm& t : terms)
            ocl::gemm<T>(w.kernels, w.queue, a.op, Trans::NoTrans, m, n, t.k, T(-1), t.A, t.B, T(1), B);
    ocl::gemm<T>(w.kernels, w.queue, a.op, Trans::NoTrans, codelets::tile_rows(y), n, m, T(1),
                 codelets::ocl_tile<T>(buffers[0]), B, T(0), codelets::ocl_tile<T>(y));
}

template <class T>
starpu_codelet& solve_row_codelet() {
    return codelets::named_var_codelet<T, solve_row_cpu<T>, solve_row_opencl<T>>("solve_row");
}

}  // namespace

template <class T>
void tasks::solve_row(Trans op, TileHandle W, const std::vector<TileHandle>& F, const std::vector<TileHandle>& X,
                      TileHandle B, TileHandle Y, int prio) {
    if (F.size() != X.size()) throw Error("tessera: solve_row needs one X tile per F tile");
    // flags: the op (the number of terms is in the footprint through the buffers).
    const SolveRowArgs args{codelets::pack_flags(codelets::op_flag<T>(op)), op, int32_t(F.size())};
    std::vector<codelets::Buffer> buffers;
    buffers.reserve(3 + 2 * F.size());
    buffers.emplace_back(W, STARPU_R);
    for (TileHandle h : F) buffers.emplace_back(h, STARPU_R);
    for (TileHandle h : X) buffers.emplace_back(h, STARPU_R);
    buffers.emplace_back(B, STARPU_RW);
    buffers.emplace_back(Y, STARPU_W);
    codelets::submit_buffers(solve_row_codelet<T>(), args, buffers, prio);
}

#define TESSERA_INSTANTIATE(T)                                                                                        \
    template void tasks::solve_row<T>(Trans, TileHandle, const std::vector<TileHandle>&, const std::vector<TileHandle>&, \
                                      TileHandle, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
