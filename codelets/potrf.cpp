// potrf codelets: Cholesky of one diagonal tile, reporting LAPACK's info into a Sequence slot;
// potrf_inverse also writes the factor's inverse (the tile Cholesky's panel on OpenCL devices), on
// the device's panel queue where it has one.
#include <map>
#include <mutex>

#include "codelets/codelet.hpp"
#include "codelets/tasks.hpp"
#include "kernels/cpu/blas.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

struct PotrfArgs {
    uint32_t flags;
    Uplo uplo;
    int* info;  // Sequence slot; written by the CPU kernel or by the OpenCL read-back
};

template <class T>
void potrf_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<PotrfArgs*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]);
    *a.info = cpu::potrf<T>(a.uplo, A.n, A.ptr, A.ld);
}

template <class T>
void potrf_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<PotrfArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    ocl::potrf<T>(w.kernels, w.queue, a.uplo, codelets::tile_cols(buffers[0]), codelets::ocl_tile<T>(buffers[0]), a.info);
}

template <class T>
starpu_codelet& potrf_codelet() {
    return codelets::named_codelet<T, potrf_cpu<T>, potrf_opencl<T>>("potrf", {STARPU_RW});
}

// potrf_inverse: the same, and W = the factor's inverse (trtri's result: zeros in W's other triangle).
template <class T>
void potrf_inverse_cpu(void* buffers[], void* cl_arg) {
    potrf_cpu<T>(buffers, cl_arg);
    const auto& a = *static_cast<PotrfArgs*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]), W = codelets::cpu_tile<T>(buffers[1]);
    cpu::trtri<T>(a.uplo, Diag::NonUnit, W.n, A.ptr, A.ld, W.ptr, W.ld);  // after a failure W is unspecified
}

template <class T>
void potrf_inverse_opencl(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<PotrfArgs*>(cl_arg);
    auto w = codelets::opencl_worker<T>();
    const ocl::Mat W = codelets::ocl_tile<T>(buffers[1]);
    ocl::potrf<T>(w.kernels, w.queue, a.uplo, codelets::tile_cols(buffers[0]), codelets::ocl_tile<T>(buffers[0]), a.info,
                  &W);
}

template <class T>
starpu_codelet& potrf_inverse_codelet() {
    return codelets::named_codelet<T, potrf_inverse_cpu<T>, potrf_inverse_opencl<T>>("potrf_inverse",
                                                                                    {STARPU_RW, STARPU_W});
}

// potrf_inverse on the device's panel queue (runtime_internal.hpp, PanelQueue): run by a CPU worker
// with the tiles on the device's memory node (starpu_codelet::specific_nodes), so that the device's
// own worker runs the trailing updates meanwhile; the kernels are the OpenCL implementation's,
// enqueued on the second queue and waited for here (also when a launch throws, so that no kernel
// still uses the tiles once StarPU has them back).
template <class T>
void potrf_inverse_panel(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<PotrfArgs*>(cl_arg);
    const int devid = starpu_memory_node_get_devid(unsigned(starpu_task_get_current_data_node(0)));
    detail::PanelQueue panel = detail::panel_queue(devid, prec_letter<T>());
    struct Finish {
        cl_command_queue q;
        ~Finish() { clFinish(q); }
    } finish{panel.queue};
    const ocl::Mat W = codelets::ocl_tile<T>(buffers[1]);
    ocl::potrf<T>(panel.kernels, panel.queue, a.uplo, codelets::tile_cols(buffers[0]), codelets::ocl_tile<T>(buffers[0]),
                  a.info, &W);
    ocl::check(clFinish(panel.queue), "clFinish(panel queue)");
}

/// The panel codelet of the device whose memory node is `node` (one per node: the node is the
/// codelet's, not the task's, in StarPU 1.3). No perfmodel: only CPU workers run it, so there is
/// no placement to predict, and its time depends on what runs beside it (7.7 ms alone, 15–35 ms
/// beside the updates on an H200): StarPU 1.3's history discards such samples as errors and resets
/// (STARPU_HISTORY_MAX_ERROR), so a model stayed uncalibrated for good (one sample after 84 tasks).
template <class T>
starpu_codelet& potrf_inverse_panel_codelet(int node) {
    static std::mutex lock;
    static auto& by_node = *new std::map<int, starpu_codelet>;  // kept until exit, as StarPU may read them
    static const char* name = codelets::kept_name(prec_letter<T>() + std::string("potrf_inverse_panel"));
    std::lock_guard<std::mutex> guard(lock);
    auto it = by_node.find(node);
    if (it == by_node.end()) {
        starpu_codelet cl = codelets::codelet_of_guarded(name, codelets::guarded<potrf_inverse_panel<T>>, nullptr,
                                                         {STARPU_RW, STARPU_W}, nullptr);
        cl.specific_nodes = 1;
        cl.nodes[0] = cl.nodes[1] = node;
        it = by_node.emplace(node, cl).first;
    }
    return it->second;
}

}  // namespace

template <class T>
void tasks::potrf(Uplo uplo, TileHandle A, int* info, int prio) {
    PotrfArgs args{codelets::pack_flags(char(uplo)), uplo, info};
    codelets::submit(potrf_codelet<T>(), args, {A}, prio);
}

template <class T>
void tasks::potrf_inverse(Uplo uplo, TileHandle A, TileHandle W, int* info, int prio) {
    PotrfArgs args{codelets::pack_flags(char(uplo)), uplo, info};
    if (const int node = detail::panel_queue_node(A, prec_letter<T>()); node >= 0) {
        detail::prepare_opencl(prec_letter<T>());  // the program, built before the task rather than in it
        codelets::submit(potrf_inverse_panel_codelet<T>(node), args, {A, W}, prio);
    } else {
        codelets::submit(potrf_inverse_codelet<T>(), args, {A, W}, prio);
    }
}

#define TESSERA_INSTANTIATE(T)                                          \
    template void tasks::potrf<T>(Uplo, TileHandle, int*, int);         \
    template void tasks::potrf_inverse<T>(Uplo, TileHandle, TileHandle, int*, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
