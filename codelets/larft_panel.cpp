// Codelets between LAPACK's xGEQRF layout (Householder vectors below the diagonal, scalars tau) and
// QRForm::ColumnPanel's factors (one T per tile column). larft_panel: a column's T from its vectors
// and tau (xLARFT on blocks of kLarftBlock reflectors, level 2, merged by cpu::larft's xHERK and
// xTRMMs, level 3: a plain xLARFT of a whole tall panel would read V once per reflector);
// t_diagonal: tau back out of a T (xLARFT's T(i, i) is tau_i). CPU only: the panel is read as one
// column-major array (codelets::CpuPanel), tau lives on the host.
#include <algorithm>
#include <string>
#include <vector>

#include "codelets/lu_codelet.hpp"
#include "codelets/tasks_qr.hpp"
#include "kernels/cpu/qr.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

constexpr int64_t kLarftBlock = 32;  // reflectors per xLARFT call (LAPACK's own xGEQRF block)

struct LarftArgs {
    uint32_t flags;
    int32_t ntiles;
    const void* tau;
};

// Buffers: the tiles of the column, top to bottom (R), then T (W).
template <class T>
void larft_panel_cpu(void* buffers[], void* cl_arg) {
    const auto& args = *static_cast<LarftArgs*>(cl_arg);
    thread_local std::vector<T> panel_buffer, blocks;
    const codelets::CpuPanel<T> panel(buffers, args.ntiles, panel_buffer);  // read only: never scattered
    auto Tt = codelets::cpu_tile<T>(buffers[args.ntiles]);
    for (int64_t j = 0; j < Tt.n; ++j) std::fill(Tt.ptr + j * Tt.ld, Tt.ptr + j * Tt.ld + Tt.m, T(0));
    const int64_t k = std::min(panel.rows, panel.cols);
    if (k == 0) return;
    const T* tau = static_cast<const T*>(args.tau);
    const int64_t ib = std::min(kLarftBlock, k);
    T* tf = codelets::workspace(blocks, size_t(ib * k));  // block b's T in rows 0..ib of columns b..
    for (int64_t b = 0; b < k; b += ib) {
        const int info = cpu::larft_forward<T>(panel.rows - b, std::min(ib, k - b), panel.ptr + b + b * panel.ld,
                                               panel.ld, tau + b, tf + b * ib, ib);
        if (info != 0) throw Error("xLARFT returned info " + std::to_string(info));  // an argument LAPACK refused
    }
    cpu::larft<T>(false, panel.rows, k, ib, panel.ptr, panel.ld, tf, ib, Tt.ptr, Tt.ld);
}

template <class T>
starpu_codelet& larft_panel_codelet() {
    return codelets::named_var_codelet<T, larft_panel_cpu<T>>("larft_panel");
}

struct DiagonalArgs {
    uint32_t flags;
    int64_t k;
    void* tau;
};

template <class T>
void t_diagonal_cpu(void* buffers[], void* cl_arg) {
    const auto& args = *static_cast<DiagonalArgs*>(cl_arg);
    auto Tt = codelets::cpu_tile<T>(buffers[0]);
    T* tau = static_cast<T*>(args.tau);
    for (int64_t i = 0; i < args.k; ++i) tau[i] = Tt.ptr[i + i * Tt.ld];
}

template <class T>
starpu_codelet& t_diagonal_codelet() {
    return codelets::named_codelet<T, t_diagonal_cpu<T>>("t_diagonal", {STARPU_R});
}

}  // namespace

template <class T>
void tasks::larft_panel(const std::vector<TileHandle>& column, const T* tau, TileHandle Tt, int prio) {
    LarftArgs args{0, int32_t(column.size()), tau};
    std::vector<codelets::Buffer> buffers;
    buffers.reserve(column.size() + 1);
    for (TileHandle h : column) buffers.emplace_back(h, STARPU_R);
    buffers.emplace_back(Tt, STARPU_W);
    codelets::submit_buffers(larft_panel_codelet<T>(), args, buffers, prio);
}

template <class T>
void tasks::t_diagonal(int64_t k, TileHandle Tt, T* tau, int prio) {
    if (k <= 0) return;
    DiagonalArgs args{0, k, tau};
    codelets::submit(t_diagonal_codelet<T>(), args, {Tt}, prio);
}

#define TESSERA_INSTANTIATE(T)                                                                      \
    template void tasks::larft_panel<T>(const std::vector<TileHandle>&, const T*, TileHandle, int); \
    template void tasks::t_diagonal<T>(int64_t, TileHandle, T*, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
