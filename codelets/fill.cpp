// CPU-only codelets that write a tile from the host: generate (a user function) and scale.
#include "codelets/codelet.hpp"
#include "codelets/tasks.hpp"
#include "runtime/precisions.hpp"

namespace tessera {
namespace {

template <class T>
struct GenerateArgs {
    uint32_t flags;
    const tasks::TileFunction<T>* f;  // kept alive by the task (submit's `keep`) until it has run
    int64_t i0, j0;
};

template <class T>
void generate_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<GenerateArgs<T>*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]);
    (*a.f)(a.i0, a.j0, A.m, A.n, A.ptr, A.ld);
}

template <class T>
starpu_codelet& generate_codelet() {
    return codelets::named_codelet<T, generate_cpu<T>>("generate", {STARPU_W});
}

template <class T>
struct ScaleArgs {
    uint32_t flags;
    Uplo uplo;
    T alpha;
};

// A = alpha·A on the tile or its uplo trapezoid; alpha = 0 overwrites (BLAS beta = 0 semantics).
template <class T>
void scale_cpu(void* buffers[], void* cl_arg) {
    const auto& a = *static_cast<ScaleArgs<T>*>(cl_arg);
    auto A = codelets::cpu_tile<T>(buffers[0]);
    for (int64_t j = 0; j < A.n; ++j) {
        const int64_t lo = a.uplo == Uplo::Upper ? 0 : a.uplo == Uplo::Lower ? std::min(j, A.m) : 0;
        const int64_t hi = a.uplo == Uplo::Upper ? std::min(j + 1, A.m) : A.m;
        for (int64_t i = lo; i < hi; ++i) {
            T& x = A.ptr[i + j * A.ld];
            x = a.alpha == T(0) ? T(0) : a.alpha * x;
        }
    }
}

template <class T>
starpu_codelet& scale_codelet() {
    return codelets::named_codelet<T, scale_cpu<T>>("scale", {STARPU_RW});
}

}  // namespace

template <class T>
void tasks::generate(std::shared_ptr<const TileFunction<T>> f, int64_t i0, int64_t j0, TileHandle A, int prio) {
    // Each task holds a reference to f until it has run. What f throws fails the task (guarded).
    GenerateArgs<T> args{0, f.get(), i0, j0};
    codelets::submit(generate_codelet<T>(), args, {A}, prio, f);
}

template <class T>
void tasks::scale(T alpha, TileHandle A, Uplo uplo, int prio) {
    if (alpha == T(1)) return;
    ScaleArgs<T> args{codelets::pack_flags(char(uplo)), uplo, alpha};
    codelets::submit(scale_codelet<T>(), args, {A}, prio);
}

#define TESSERA_INSTANTIATE(T) \
    template void tasks::generate<T>(std::shared_ptr<const TileFunction<T>>, int64_t, int64_t, TileHandle, int); \
    template void tasks::scale<T>(T, TileHandle, Uplo, int);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera
