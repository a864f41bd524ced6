// LQ tile kernels gelqt, tplqt, gemlqt, tpmlqt (Chameleon's names; tasks_lq.hpp), each the QR kernel
// on conjugate-transposed operands: the LQ of a tile is the conjugate transpose of the QR of its
// conjugate transpose. gelqt and tplqt (CPU only, as geqrt and tpqrt) transpose their tiles into a
// per-thread scratch, call xGEQRT / xTPQRT (kernels/cpu/qr.hpp) and transpose back; gemlqt and
// tpmlqt transpose only the reflectors V and call xGEMQRT / xTPMQRT with the transposition flipped
// (op(Q_LQ) = op(Q̃ᴴ)), the tiles they update staying as they are; on OpenCL workers the same through
// ocl::gemqrt / ocl::tpmqrt, Vᴴ formed by ocl::conj_transpose in the device workspace. The T factors
// are therefore the QR kernels' (LAPACK xGELQT's T differs and is not used), so the factors of one
// factorization do not depend on which worker ran which task.
#include <vector>

#include "codelets/codelet.hpp"
#include "codelets/tasks_lq.hpp"
#include "kernels/cpu/qr.hpp"
#include "kernels/opencl/launch_qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

/// A per-thread scratch of at least `count` elements (apart from qr_work, which the QR kernels use).
template <class T>
T* lq_scratch(int64_t count) {
    thread_local std::vector<T> scratch;
    if (int64_t(scratch.size()) < count) scratch.resize(size_t(count));
    return scratch.data();
}

/// op(Q̃) for op(Q) with Q = Q̃ᴴ.
Trans flip(Trans t) { return t == Trans::NoTrans ? Trans::ConjTrans : Trans::NoTrans; }

void check_info(const char* routine, int info) {
    if (info != 0) throw Error(std::string(routine) + " returned info " + std::to_string(info));  // an argument LAPACK refused
}

struct FactorArgs {
    uint32_t flags;
    int64_t ib;
};

template <class T>
void gelqt_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<FactorArgs*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), Tf = codelets::cpu_tile<T>(buffers[1]);
    T* at = lq_scratch<T>(A.m * A.n);  // Aᴴ, n×m
    cpu::conj_transpose<T>(A.m, A.n, A.ptr, A.ld, at, A.n);
    check_info("xGEQRT", cpu::geqrt<T>(A.n, A.m, a.ib, at, A.n, Tf.ptr, Tf.ld));
    cpu::conj_transpose<T>(A.n, A.m, at, A.n, A.ptr, A.ld);
}

template <class T>
void tplqt_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<FactorArgs*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), B = codelets::cpu_tile<T>(buffers[1]);
    auto Tf = codelets::cpu_tile<T>(buffers[2]);
    T* at = lq_scratch<T>(A.m * A.n + B.m * B.n);  // Aᴴ (A.n × A.m), then Bᴴ (B.n × B.m)
    T* bt = at + A.m * A.n;
    cpu::conj_transpose<T>(A.m, A.n, A.ptr, A.ld, at, A.n);
    cpu::conj_transpose<T>(B.m, B.n, B.ptr, B.ld, bt, B.n);
    check_info("xTPQRT", cpu::tpqrt<T>(B.n, B.m, a.ib, at, A.n, bt, B.n, Tf.ptr, Tf.ld));
    cpu::conj_transpose<T>(A.n, A.m, at, A.n, A.ptr, A.ld);
    cpu::conj_transpose<T>(B.n, B.m, bt, B.n, B.ptr, B.ld);
}

struct ApplyArgs {
    uint32_t flags;
    Side side;
    Trans trans;
    int64_t ib;
};

template <class T>
void gemlqt_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<ApplyArgs*>(cl_arg);
    auto V = codelets::cpu_tile<T>(buffers[0]), Tf = codelets::cpu_tile<T>(buffers[1]);
    auto C = codelets::cpu_tile<T>(buffers[2]);
    T* vt = lq_scratch<T>(V.m * V.n);  // Vᴴ, the QR's V
    cpu::conj_transpose<T>(V.m, V.n, V.ptr, V.ld, vt, V.n);
    check_info("xGEMQRT", cpu::gemqrt<T>(a.side, flip(a.trans), C.m, C.n, std::min(V.m, V.n), a.ib, vt, V.n, Tf.ptr,
                                         Tf.ld, C.ptr, C.ld));
}

template <class T>
void tpmlqt_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<ApplyArgs*>(cl_arg);
    auto V = codelets::cpu_tile<T>(buffers[0]), Tf = codelets::cpu_tile<T>(buffers[1]);
    auto A1 = codelets::cpu_tile<T>(buffers[2]), A2 = codelets::cpu_tile<T>(buffers[3]);
    T* vt = lq_scratch<T>(V.m * V.n);
    cpu::conj_transpose<T>(V.m, V.n, V.ptr, V.ld, vt, V.n);
    check_info("xTPMQRT", cpu::tpmqrt<T>(a.side, flip(a.trans), A2.m, A2.n, V.m, a.ib, vt, V.n, Tf.ptr, Tf.ld, A1.ptr,
                                         A1.ld, A2.ptr, A2.ld));
}

/// Vᴴ of the OpenCL worker's tile V in its device workspace (Workspace::Panel: the QR update
/// launchers use Workspace::Launcher and gemm the others), for ocl::gemqrt / ocl::tpmqrt.
template <class T>
ocl::Mat device_vt(const codelets::OpenCLWorker& w, void* buffer) {
    const int64_t m = codelets::tile_rows(buffer), n = codelets::tile_cols(buffer);
    const ocl::Mat vt{w.kernels.scratch(size_t(m * n) * sizeof(T), ocl::DeviceKernels::Workspace::Panel), 0, n};
    ocl::conj_transpose<T>(w.kernels, w.queue, m, n, codelets::ocl_tile<T>(buffer), vt);
    return vt;
}

template <class T>
void gemlqt_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<ApplyArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    const int64_t k = std::min(codelets::tile_rows(buffers[0]), codelets::tile_cols(buffers[0]));
    ocl::gemqrt<T>(w.kernels, w.queue, a.side, flip(a.trans), codelets::tile_rows(buffers[2]),
                   codelets::tile_cols(buffers[2]), k, a.ib, device_vt<T>(w, buffers[0]),
                   codelets::ocl_tile<T>(buffers[1]), codelets::ocl_tile<T>(buffers[2]));
}

template <class T>
void tpmlqt_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<ApplyArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    ocl::tpmqrt<T>(w.kernels, w.queue, a.side, flip(a.trans), codelets::tile_rows(buffers[3]),
                   codelets::tile_cols(buffers[3]), codelets::tile_rows(buffers[0]), a.ib, device_vt<T>(w, buffers[0]),
                   codelets::ocl_tile<T>(buffers[1]), codelets::ocl_tile<T>(buffers[2]),
                   codelets::ocl_tile<T>(buffers[3]));
}

template <class T>
uint32_t apply_flags(Side side, Trans trans, int64_t ib) {
    return codelets::pack_flags(char(side), codelets::op_flag<T>(trans)) ^ (uint32_t(ib) << 16);
}

}  // namespace

template <class T>
void tasks::gelqt(int64_t ib, TileHandle A, TileHandle Tf, int prio) {
    static starpu_codelet& cl = codelets::named_codelet<T, gelqt_cpu<T>>("gelqt", {STARPU_RW, STARPU_W});
    codelets::submit(cl, FactorArgs{uint32_t(ib), ib}, {A, Tf}, prio);
}

template <class T>
void tasks::tplqt(int64_t ib, TileHandle A, TileHandle B, TileHandle Tf, int prio) {
    static starpu_codelet& cl = codelets::named_codelet<T, tplqt_cpu<T>>("tplqt", {STARPU_RW, STARPU_RW, STARPU_W});
    codelets::submit(cl, FactorArgs{uint32_t(ib), ib}, {A, B, Tf}, prio);
}

template <class T>
void tasks::gemlqt(Side side, Trans trans, int64_t ib, TileHandle V, TileHandle Tf, TileHandle C, int prio) {
    static starpu_codelet& cl = codelets::named_codelet<T, gemlqt_cpu<T>, gemlqt_opencl<T>>("gemlqt", {STARPU_R, STARPU_R, STARPU_RW});
    codelets::submit(cl, ApplyArgs{apply_flags<T>(side, trans, ib), side, trans, ib}, {V, Tf, C}, prio);
}

template <class T>
void tasks::tpmlqt(Side side, Trans trans, int64_t ib, TileHandle V, TileHandle Tf, TileHandle A1, TileHandle A2,
                   int prio) {
    static starpu_codelet& cl =
        codelets::named_codelet<T, tpmlqt_cpu<T>, tpmlqt_opencl<T>>("tpmlqt", {STARPU_R, STARPU_R, STARPU_RW, STARPU_RW});
    codelets::submit(cl, ApplyArgs{apply_flags<T>(side, trans, ib), side, trans, ib}, {V, Tf, A1, A2}, prio);
}

#define TESSERA_INSTANTIATE(T)                                                                               \
    template void tasks::gelqt<T>(int64_t, TileHandle, TileHandle, int);                                     \
    template void tasks::tplqt<T>(int64_t, TileHandle, TileHandle, TileHandle, int);                         \
    template void tasks::gemlqt<T>(Side, Trans, int64_t, TileHandle, TileHandle, TileHandle, int);           \
    template void tasks::tpmlqt<T>(Side, Trans, int64_t, TileHandle, TileHandle, TileHandle, TileHandle, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
