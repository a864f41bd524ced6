// heevd / syevd: the two-stage Hermitian eigensolver (tessera/eig.hpp). Stage 1 is a task graph
// (he2hb.hpp); the band is then copied to the host and its bulges chased (kernels/cpu/band_tridiag.hpp's
// working band) on an OpenCL GPU (ocl::band_chase) or as pipelined CPU tasks (tasks::run_chase), then
// xSTERF / bisection or xSTEDC; the eigenvectors come back through Q2 (on that GPU, or CPU tasks) and
// Q1 (tile GEMMs).
#include "kernels/cpu/cblas_lapacke.hpp"  // first: it sets up <cblas.h> and <lapacke.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <initializer_list>
#include <limits>
#include <memory>
#include <string>

#include "algorithms/common.hpp"
#include "algorithms/he2hb.hpp"
#include "algorithms/host_tiles.hpp"
#include "algorithms/tridiag_dc.hpp"
#include "codelets/handles.hpp"
#include "codelets/tasks_eig.hpp"
#include "codelets/tasks_qr.hpp"
#include "kernels/opencl/launch.hpp"
#include "runtime/host_memory.hpp"
#include "runtime/precisions.hpp"
#include "tessera/eig.hpp"
#include "tessera/norms.hpp"

namespace tessera {

namespace {

// B = sigma·A as a full Hermitian matrix on B's lower tiles and whole diagonal tiles, from A's uplo
// triangle (the diagonal's imaginary parts taken as zero, as xHEEVD): A's valid copy is in main
// memory and B was just made. Tile (i, j), i > j, of B is A's tile (i, j) (Lower) or the conjugate
// transpose of A's tile (j, i) (Upper); a diagonal tile is mirrored on the host. With sigma = 1 the
// tiles below the diagonal are copied by tasks submitted into the caller's sequence (tasks::lacpy,
// tasks::conj_transpose; on a GPU on the device, where stage 1 wants B: the host loop took 0.26–0.30 s
// of the 3.3 s of dsyevd values only at n = 16384 on an H200), else on the host with the scaling.
template <class T>
void hermitian_working_copy(const TileMatrix<T>& A, Uplo uplo, real_t<T> sigma, TileMatrix<T>& B) {
    const int64_t nt = A.nt();
    const bool lower = uplo == Uplo::Lower, by_tasks = sigma == 1;
    {
        const CallerBlasThreads host;  // the workers, idle, would spin on the cores the host loops need
        for (int64_t j = 0; j < nt; ++j)
            for (int64_t i = j; i < nt; ++i) {
                if (i != j && by_tasks) continue;
                const T* a = lower ? A.tile_data(i, j) : A.tile_data(j, i);
                const int64_t lda = lower ? A.tile_ld(i) : A.tile_ld(j);
                T* b = B.tile_data(i, j);
                const int64_t ldb = B.tile_ld(i), rows = B.tile_rows(i), cols = B.tile_cols(j);
                for (int64_t c = 0; c < cols; ++c)
                    for (int64_t r = 0; r < rows; ++r) {
                        if (i == j && r <= c) continue;  // the diagonal tile's lower triangle first
                        b[r + c * ldb] = sigma * (lower ? a[r + c * lda] : conjugate(a[c + r * lda]));
                    }
                if (i != j) continue;
                for (int64_t c = 0; c < cols; ++c) {
                    b[c + c * ldb] = T(sigma * std::real(a[c + c * lda]));
                    for (int64_t r = 0; r < c; ++r) b[r + c * ldb] = conjugate(b[c + r * ldb]);
                }
            }
    }
    if (!by_tasks) return;
    for (int64_t j = 0; j < nt; ++j)
        for (int64_t i = j + 1; i < nt; ++i) {
            if (lower) tasks::lacpy<T>(Uplo::General, A.handle(i, j), B.handle(i, j));
            else tasks::conj_transpose<T>(A.handle(j, i), B.handle(i, j));
        }
}

// The band of bandwidth kd of B (lower band storage, ldab = kd + 1).
template <class T>
std::vector<T> lower_band(const TileMatrix<T>& B, int64_t kd) {
    const int64_t n = B.n();
    std::vector<T> ab(size_t((kd + 1) * n), T(0));
    for (int64_t c = 0; c < n; ++c)
        for (int64_t r = c; r <= std::min(n - 1, c + kd); ++r) ab[size_t(r - c + c * (kd + 1))] = detail::host_at(B, r, c);
    return ab;
}

// One column-major block of host memory (ld = rows) for run_on_host.
struct HostBlock {
    const void* ptr;
    int64_t rows, cols;
    size_t elem_size;
};

// submit(handles) submits tasks on handles registered over `blocks` (in their order), in a sequence
// waited for here; the blocks then hold the results. The handles are given back even when a task
// fails, before the memory goes.
template <class Submit>
void run_on_host(std::initializer_list<HostBlock> blocks, Submit submit) {
    tasks::HostRegistrations reg;
    for (const HostBlock& b : blocks) reg.h.push_back(tasks::register_tile(b.ptr, b.rows, b.cols, b.rows, b.elem_size, 0));
    Sequence seq;
    {
        detail::SubmitScope scope(seq);
        submit(reg.h);
    }
    seq.wait();
    reg.home();
}

// The eigenvalues of the tridiagonal (d, e) into d, ascending, by tasks::tridiag_values (xSTERF on a
// CPU worker, bisection on an OpenCL device), waited for; e is only read. Returns its info.
template <class R>
int64_t tridiagonal_values(int64_t n, R* d, R* e) {
    std::vector<R> values(static_cast<size_t>(n));
    const int64_t ne = std::max<int64_t>(n - 1, 1);
    int info = 0;
    run_on_host({{d, n, 1, sizeof(R)}, {e, ne, 1, sizeof(R)}, {values.data(), n, 1, sizeof(R)}},
                [&](const std::vector<TileHandle>& h) { tasks::tridiag_values<R>(n, d, e, h[0], h[1], h[2], &info); });
    std::copy(values.begin(), values.end(), d);
    return info;
}

// Host loops over Q2's blocks (its T factors without a device, its windows) and Z's tiles, as CPU
// tasks: the T factors took 2.6 s and the windows 0.8 s in order on the calling thread at n = 16384
// (an H200's host).
const cpu::ParallelFor on_cpu_workers = [](int64_t count, const std::function<void(int64_t)>& body) {
    tasks::run_host_tasks("heevd", count, body);
};

// Whether Q2 and the bulge chasing run on an OpenCL device: an OpenCL GPU, or PoCL under
// Placement::OpenCLOnly (the tests' opencl mode).
bool stage2_on_device() {
    return detail::opencl_devices() > 0 &&
           (detail::runtime_has_opencl_gpu() || detail::placement() == Placement::OpenCLOnly);
}

// Stage 2's bulge chasing, every step of `chase`: on an OpenCL GPU in one task, the sweeps on its
// compute units (tasks::band_chase_device; also on PoCL under Placement::OpenCLOnly), else as
// pipelined CPU tasks over the CPU workers (tasks::run_chase).
template <class T>
void chase_bulges(cpu::BandTridiagChase<T>& chase) {
    const bool device = chase.sweeps() > 0 && chase.kd() <= ocl::kBandChaseMaxKd && stage2_on_device();
    if (!device) {
        tasks::run_chase(
            chase.sweeps(), [&](int64_t s) { return chase.steps(s); }, cpu::BandTridiagChase<T>::kLag,
            chase.step_flops(), [&](int64_t s, int64_t t0, int64_t t1) { chase.run(s, t0, t1); });
        return;
    }
    run_on_host({{chase.band(), chase.band_ld(), chase.n(), sizeof(T)},
                 {chase.reflectors(), chase.reflector_count(), 1, sizeof(T)},
                 {chase.taus(), chase.tau_count(), 1, sizeof(T)}},
                [&](const std::vector<TileHandle>& h) { tasks::band_chase_device<T>(chase, h[0], h[1], h[2]); });
}

// z = Q2·z (n×n, leading dimension n, host memory) on an OpenCL device in one task: Q2's block
// reflectors (at least one) as dense windows beside their τs, their T factors formed there
// (tasks::apply_band_reflectors_device), waited for. The windows (1.6 GB at n = 16384 in double)
// come from the Runtime's pool as Z does: pinned where a GPU runs, kept for the next call of that
// size, written by the CPU workers only (a std::vector zeroed them first on the calling thread).
template <class T>
void apply_q2_on_device(const cpu::BandReflectors<T>& q2, int64_t n, T* z) {
    const int64_t v_size = q2.window_size();
    detail::require_host_memory("tessera::heevd", uint64_t(v_size) * sizeof(T));
    detail::TileStorage v_block;
    T* v = static_cast<T*>(v_block.allocate(size_t(v_size) * sizeof(T)));
    auto blocks = std::make_shared<std::vector<ocl::BlockReflector>>();
    int64_t kmax = 1;
    for (const auto& b : q2.windows(v, on_cpu_workers)) {
        blocks->push_back({b.row, b.m, b.k, b.v_off, b.t_off, b.tau_off});
        kmax = std::max(kmax, b.k);
    }
    const std::vector<T>& taus = q2.block_taus();
    const int64_t t_size = q2.t_size();
    run_on_host({{z, n, n, sizeof(T)},
                 {v, v_size, 1, sizeof(T)},
                 {taus.data(), int64_t(taus.size()), 1, sizeof(T)}},
                [&](const std::vector<TileHandle>& h) {
                    const TileHandle Tf = tasks::temp_tile<T>(t_size, 1, 0), W = tasks::temp_tile<T>(2 * kmax, n, 0);
                    tasks::apply_band_reflectors_device<T>(blocks, n, h[0], h[1], h[2], Tf, W);
                    tasks::release_temp_tile(Tf);
                    tasks::release_temp_tile(W);
                });
}

// A = Q1·Q2·Z from the tridiagonal's eigenvectors z (n×n real, host): with stage2_on_device(), Q2 on
// the device on a host copy of z in T (apply_q2_on_device) and A = that; else A = z and one CPU task
// per tile column applies Q2 (tasks::apply_band_reflectors). Then Q1 as tile GEMMs on any worker
// (detail::apply_band_panels).
template <class T>
void back_transform(std::shared_ptr<const cpu::BandReflectors<T>> q2, const detail::BandPanels& q1,
                    real_t<T>* z, TileMatrix<T>& A) {
    const int64_t n = A.n();
    const bool device = q2->blocks() > 0 && !q2->has_phase() && stage2_on_device();
    A.keep_only_on_host();  // the working copy's tasks read A: drop their device copies before A is written here
    if (device) {
        if constexpr (is_complex_v<T>) {
            std::vector<T> zt(z, z + n * n);
            apply_q2_on_device(*q2, n, zt.data());
            detail::host_embed<T>(zt.data(), n, n, n, A, on_cpu_workers);
        } else {
            apply_q2_on_device(*q2, n, z);
            detail::host_embed<T>(z, n, n, n, A, on_cpu_workers);
        }
    } else {
        detail::host_embed<T>(z, n, n, n, A, on_cpu_workers);
    }
    Sequence seq;
    {
        detail::SubmitScope scope(seq);
        if (!device)
            for (int64_t o = 0; o < A.nt(); ++o) {
                std::vector<TileHandle> column;
                for (int64_t m = 0; m < A.mt(); ++m) column.push_back(A.handle(m, o));
                tasks::apply_band_reflectors<T>(q2, column, 1);
            }
        detail::apply_band_panels<T>(q1, A);
    }
    seq.wait();
}

// The eigenvectors z (n×n, ld n) and eigenvalues (into d) of the tridiagonal (d, e): with
// stage2_on_device(), by detail::tridiag_dc, whose merges run on the device (leaves of
// kTridiagDcGpuLeaf rows on a GPU, of LAPACK's 25 on PoCL so that the tests merge); else xSTEDC on the
// host with the caller's BLAS threads. Returns xSTEDC's info.
template <class R>
int64_t tridiagonal_vectors(int64_t n, R* d, R* e, R* z) {
    if (stage2_on_device())
        return detail::tridiag_dc(n, d, e, z, n,
                                  detail::runtime_has_opencl_gpu() ? detail::kTridiagDcGpuLeaf : detail::kTridiagDcSmallLeaf);
    const CallerBlasThreads host;
    if constexpr (std::is_same_v<R, float>) return LAPACKE_sstedc(LAPACK_COL_MAJOR, 'I', int(n), d, e, z, int(n));
    else return LAPACKE_dstedc(LAPACK_COL_MAJOR, 'I', int(n), d, e, z, int(n));
}

}  // namespace

template <class T>
int64_t heevd(Job jobz, Uplo uplo, TileMatrix<T>& A, std::vector<real_t<T>>& w, int64_t kd) {
    using R = real_t<T>;
    const char* func = "heevd";
    check_char_arg(jobz == Job::NoVec || jobz == Job::Vec, func, "jobz", char(jobz), "must be NoVec or Vec ('N' or 'V')");
    check_char_arg(uplo == Uplo::Lower || uplo == Uplo::Upper, func, "uplo", char(uplo), "must be Lower or Upper");
    check_arg(A.m() == A.n(), func, "A", A.m(), "rows must equal columns");
    check_arg(kd >= 0 && (kd == 0 || A.nb() % kd == 0), func, "kd", kd, "must be 0 or a divisor of the tile size nb");
    detail::require_runtime(func);
    if (detail::distributed()) throw Error("tessera::heevd: distributed matrices are not supported (one process only)");
    const int64_t n = A.n(), nb = A.nb();
    w.assign(size_t(n), R(0));
    if (n == 0) return 0;

    // xHEEVD's scaling into [rmin, rmax]; a NaN or an infinity is refused rather than reduced.
    const R anrm = lanhe(Norm::Max, uplo, A);
    if (!std::isfinite(anrm))
        throw Error("tessera::heevd: A has a NaN or an infinite entry in its " +
                    std::string(uplo == Uplo::Lower ? "lower" : "upper") + " triangle");
    const R smlnum = std::numeric_limits<R>::min() / std::numeric_limits<R>::epsilon();
    const R rmin = std::sqrt(smlnum), rmax = std::sqrt(R(1) / smlnum);
    R sigma = 1;
    if (anrm > 0 && anrm < rmin) sigma = rmin / anrm;
    else if (anrm > rmax) sigma = rmax / anrm;

    // Stage 1 on a working copy B, so that A keeps its other triangle (values only) or receives Z.
    A.keep_only_on_host();
    TileMatrix<T> B(n, n, nb);
    kd = detail::band_width(kd, nb, n, jobz == Job::NoVec ? kHeevdBandValues : kHeevdBand);
    detail::BandPanels q1;
    {
        Sequence seq;
        {
            detail::SubmitScope scope(seq);
            hermitian_working_copy(A, uplo, sigma, B);
            detail::he2hb(B, kd, jobz == Job::Vec ? &q1 : nullptr);
        }
        seq.wait();
    }
    B.acquire_host();

    // Stage 2: LAPACK's bulge-chasing kernels, on a GPU or as CPU tasks (chase_bulges).
    std::vector<R> e(size_t(std::max<int64_t>(n - 1, 1)));
    std::shared_ptr<cpu::BandReflectors<T>> q2;
    if (jobz == Job::Vec) q2 = std::make_shared<cpu::BandReflectors<T>>();
    {
        const std::vector<T> ab = lower_band(B, kd);
        cpu::BandTridiagChase<T> chase(n, kd, ab.data(), kd + 1, q2 != nullptr);
        chase_bulges(chase);
        // Q2's T factors (xLARFT) on the CPU workers, or later on the device with Q2
        chase.finish(w.data(), e.data(), q2.get(), 0, on_cpu_workers, !stage2_on_device());
    }

    // The tridiagonal eigenproblem: values on a worker (xSTERF or bisection on a device), vectors by
    // divide and conquer (tridiagonal_vectors).
    int64_t info = 0;
    if (jobz == Job::NoVec) {
        info = tridiagonal_values(n, w.data(), e.data());
    } else {
        // Z from the Runtime's pool: pinned where a GPU runs (its copies to and from the device then
        // move at the bus's rate), and kept for the next call of that size.
        detail::require_host_memory("tessera::heevd", uint64_t(n) * uint64_t(n) * sizeof(R));
        detail::TileStorage z_block;
        R* z = static_cast<R*>(z_block.allocate(size_t(n) * size_t(n) * sizeof(R)));
        info = tridiagonal_vectors(n, w.data(), e.data(), z);
        // A = Q1·Q2·Z: Q2 on a device, or as CPU tasks after A = Z; then Q1 as tile GEMMs.
        if (info == 0) back_transform<T>(q2, q1, z, A);
    }
    if (sigma != 1)
        for (R& x : w) x /= sigma;
    return info;
}

template <class T>
int64_t heevd_nb(int64_t n) {
    return tuned_tile(prec_letter<T>() + std::string("geqrf"), n).nb;
}

namespace lapack {

template <class T>
int64_t heevd(char jobz, char uplo, int64_t n, T* a, int64_t lda, real_t<T>* w, const Options& opts) {
    const char* func = "lapack::heevd";
    const Job j = job_from_char(jobz);
    const Uplo u = uplo_from_char(uplo);
    check_char_arg(u != Uplo::General, func, "uplo", uplo, "must be 'L' or 'U'");
    check_dim(func, "n", n);
    check_arg(w != nullptr || n == 0, func, "w", 0, "must not be null");
    Options o = detail::with_tuned_nb<T>(opts, "geqrf", func, n);
    if (opts.nb == 0) o.nb = heevd_nb<T>(n);
    auto A = detail::lapack_tiles(static_cast<const T*>(a), lda, n, n, o, func, "lda");
    std::vector<real_t<T>> values;
    const int64_t info = tessera::heevd(j, u, A, values);
    if (j == Job::Vec) detail::lapack_result(A, a, lda);
    std::copy(values.begin(), values.end(), w);
    return info;
}

template <class T>
int64_t syevd(char jobz, char uplo, int64_t n, T* a, int64_t lda, T* w, const Options& opts) {
    static_assert(!is_complex_v<T>, "lapack::syevd is for real matrices; use lapack::heevd");
    return heevd(jobz, uplo, n, a, lda, w, opts);
}

}  // namespace lapack

#define TESSERA_INSTANTIATE(T)                                                 \
    template int64_t heevd(Job, Uplo, TileMatrix<T>&, std::vector<real_t<T>>&, int64_t); \
    template int64_t heevd_nb<T>(int64_t);                                       \
    template int64_t lapack::heevd(char, char, int64_t, T*, int64_t, real_t<T>*, const Options&);
TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE
template int64_t lapack::syevd(char, char, int64_t, float*, int64_t, float*, const Options&);
template int64_t lapack::syevd(char, char, int64_t, double*, int64_t, double*, const Options&);

}  // namespace tessera
