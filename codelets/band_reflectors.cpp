// The codelet applying the band-to-tridiagonal stage's Q2 to a tile column of eigenvectors
// (tasks_eig.hpp): the tiles gathered into one column-major panel (codelets::CpuPanel), Q2 applied
// block reflector by block reflector (kernels/cpu/band_tridiag.hpp: xLARFT's T, GEMMs and a TRMM),
// scattered back. CPU only.
#include "codelets/lu_codelet.hpp"
#include "codelets/tasks_eig.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

template <class T>
struct ApplyArgs {
    uint32_t flags;
    int32_t ntiles;
    const cpu::BandReflectors<T>* q2;  // kept alive by the task (submit_buffers' keep)
};

template <class T>
void apply_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<ApplyArgs<T>*>(cl_arg);
    thread_local std::vector<T> work_buffer;
    const codelets::CpuPanel<T> panel(buffers, a.ntiles, work_buffer);
    a.q2->apply_left(panel.cols, panel.ptr, panel.ld);
    panel.scatter();
}

template <class T>
starpu_codelet& apply_codelet() {
    return codelets::named_var_codelet<T, apply_cpu<T>>("apply_band_reflectors");
}

}  // namespace

template <class T>
void tasks::apply_band_reflectors(std::shared_ptr<const cpu::BandReflectors<T>> q2,
                                  const std::vector<TileHandle>& column, int prio) {
    ApplyArgs<T> args{0, int32_t(column.size()), q2.get()};
    std::vector<codelets::Buffer> buffers;
    for (TileHandle h : column) buffers.emplace_back(h, STARPU_RW);
    codelets::submit_buffers(apply_codelet<T>(), args, buffers, prio, std::move(q2));
}

#define TESSERA_INSTANTIATE(T)                                                                      \
    template void tasks::apply_band_reflectors<T>(std::shared_ptr<const cpu::BandReflectors<T>>, \
                                                  const std::vector<TileHandle>&, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
