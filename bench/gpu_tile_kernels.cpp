// gpu_tile_kernels: the device time of each OpenCL tile operation the task graphs submit, one nb×nb
// tile at a time (what a StarPU task runs), StarPU-free. For the tile Cholesky on a GPU: gemm (NT,
// the trailing update; NN), syrk, trmm with the inverted diagonal tile, trtri and potrf (lower and
// upper), and one leaf of the recursive potrf at the device's TESSERA_POTRF_BS (to try another,
// give it in a $TESSERA_KERNEL_PARAMS file: the launchers read the same table as the program's
// build), and potrf with the inverse made in the same recursion. Times are medians over
// --reps of the span between two OpenCL markers (device clock). potrf, trtri and gemm are checked
// against LAPACKE/CBLAS on the host (max error relative to the largest entry, printed).
// Run on the GPU machine: gpu_tile_kernels [--nb 2048] [--reps 5] [--prec d|s] (s: the mixed solvers'
// single factorization) [--only potrf|norms|narrow|solves|copies|first|first16|alloc|idle|overlap|panel|lu_row] (potrf and its recursion's levels, the norm
// partials, the narrow products of gemm_narrow.cl against the GEMM kernels, the trsm of the solves
// with one right-hand side by order and with one and eight against the blocked trsm, the precision
// conversions against a copy, or a process's first potrf launches, alone; first16 with FP16 products;
// alloc: a fresh buffer's first use against its second; idle: the tile potrf after the device idled;
// overlap: the tile potrf on a second queue beside GEMMs on the first; panel: the LU panel of 8·nb
// rows and nb/8 columns; lu_row: LU's U-row update of a tile by trsm against trtri and trmm)
// [--variant OPTIONS] (extra build options of the program, e.g. -DNAME=1).
// Output lines start with TILE (machine-readable); bench/gpu_notes.md says what they showed.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "examples/common/checks_lu.hpp"
#include "examples/common/tool_main.hpp"
#include "kernels/cpu/blas.hpp"
#include "kernels/opencl/gemm_select.hpp"
#include "kernels/opencl/launch_lu.hpp"
#include "kernels/opencl/launch_util.hpp"
#include "tools/tune/cl_harness.hpp"

using namespace tessera;
using namespace tessera::harness;

// OpenCL 2.0's queue constructor (the library targets 1.2; the ICD loader exports it) and
// cl_khr_priority_hints' property, for --only overlap.
extern "C" cl_command_queue clCreateCommandQueueWithProperties(cl_context, cl_device_id, const cl_ulong*, cl_int*);
constexpr cl_ulong kQueuePriority = 0x1096, kQueuePriorityHigh = 1;

namespace {

using harness::check;  // not the namespace tessera::check (checks_lu.hpp), whose getrf_residual is called qualified

cl_ulong end_of(cl_event e) {
    cl_ulong t = 0;
    check(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr), "clGetEventProfilingInfo");
    return t;
}

/// Host time in seconds of the last device_time()'s median run: how long enqueueing `op` took.
double g_host_seconds = 0;
/// Device time in seconds of the last device_time()'s first (untimed warm-up) run.
double g_first_seconds = 0;

/// Median device time in seconds of `op` (enqueued between two markers), after `reset` (untimed);
/// the host's enqueueing time of the same run goes to g_host_seconds. When the two are close, the
/// device waited for the host: launch overhead, not kernels, is the time.
double device_time(const Env& env, int reps, const std::function<void()>& reset, const std::function<void()>& op) {
    std::vector<std::pair<double, double>> t;
    for (int r = 0; r <= reps; ++r) {  // the first run is a warm-up
        reset();
        check(clFinish(env.queue), "clFinish");
        cl_event a, b;
        check(clEnqueueMarkerWithWaitList(env.queue, 0, nullptr, &a), "clEnqueueMarker");
        const auto h0 = std::chrono::steady_clock::now();
        op();
        const double host = std::chrono::duration<double>(std::chrono::steady_clock::now() - h0).count();
        check(clEnqueueMarkerWithWaitList(env.queue, 0, nullptr, &b), "clEnqueueMarker");
        check(clFinish(env.queue), "clFinish");
        if (r > 0) t.emplace_back(double(end_of(b) - end_of(a)) * 1e-9, host);
        else g_first_seconds = double(end_of(b) - end_of(a)) * 1e-9;
        clReleaseEvent(a), clReleaseEvent(b);
    }
    std::sort(t.begin(), t.end());
    g_host_seconds = t[t.size() / 2].second;
    return t[t.size() / 2].first;
}

void report(const char* what, int nb, int bs, double seconds, double flop, double error = -1) {
    std::printf("TILE nb=%d bs=%d %-28s %8.3f ms %7.2f TFLOP/s  host %7.3f ms", nb, bs, what, seconds * 1e3,
                flop / seconds * 1e-12, g_host_seconds * 1e3);
    if (error >= 0) std::printf("  error %.2e", error);
    std::printf("\n");
    std::fflush(stdout);
}

/// The device clock (ns) at which marker `e` completed, once it has; releases it.
cl_ulong marker_end(cl_event e) {
    check(clWaitForEvents(1, &e), "clWaitForEvents");
    const cl_ulong t = end_of(e);
    clReleaseEvent(e);
    return t;
}
/// A marker enqueued on q now.
cl_event marker(cl_command_queue q) {
    cl_event e;
    check(clEnqueueMarkerWithWaitList(q, 0, nullptr, &e), "clEnqueueMarker");
    return e;
}

/// --only overlap: does a second in-order queue on the same device run the tile potrf (with its
/// inverse) concurrently with trailing-update GEMMs on the first? The potrf's launches are small
/// (one-work-group leaves, small products), so the device is mostly idle under it. Medians of
/// --reps, ms: the potrf alone, G NT gemms alone (C −= B·Bᵀ, nb³ each), both on one queue, and
/// both on two queues (potrf on the second, its own kernel objects and workspace, the gemms on
/// the first), the span from the first start to the last end; the second queue also with
/// cl_khr_priority_hints' high priority where the device has it. Float runs inside an FP16
/// tensor-product scope, as the mixed Cholesky's single factorization does.
template <class T>
void overlap(const Env& env, const ocl::DeviceKernels& dk, int nb, int reps,
             const ocl::Mat& a, const ocl::Mat& w, const ocl::Mat& b, const ocl::Mat& c,
             const std::function<void()>& restore) {
    std::optional<ocl::TensorProducts> tensor;
    if constexpr (std::is_same_v<T, float>) tensor.emplace(ocl::TensorFormat::Fp16);
    const auto dk2 = dk.another();
    int info = 0;
    auto make_queue = [&](bool high) {
        cl_ulong props[] = {0x1093 /* CL_QUEUE_PROPERTIES */, CL_QUEUE_PROFILING_ENABLE, 0, 0, 0};
        if (high) props[2] = kQueuePriority, props[3] = kQueuePriorityHigh;
        cl_int err = CL_SUCCESS;
        cl_command_queue q = clCreateCommandQueueWithProperties(env.ctx, env.device, props, &err);
        check(err, "clCreateCommandQueueWithProperties");
        return q;
    };
    size_t ext_len = 0;
    clGetDeviceInfo(env.device, CL_DEVICE_EXTENSIONS, 0, nullptr, &ext_len);
    std::string ext(ext_len, '\0');
    clGetDeviceInfo(env.device, CL_DEVICE_EXTENSIONS, ext_len, ext.data(), nullptr);
    const bool priorities = ext.find("cl_khr_priority_hints") != std::string::npos;
    std::printf("TILE overlap: cl_khr_priority_hints %s\n", priorities ? "yes" : "no");
    for (const int G : {4, 8}) {
        auto gemms = [&](cl_command_queue q) {
            for (int g = 0; g < G; ++g)
                ocl::gemm<T>(dk, q, Trans::NoTrans, Trans::Trans, nb, nb, nb, T(-1), b, b, T(1), c);
        };
        auto potrf_on = [&](const ocl::DeviceKernels& k, cl_command_queue q) {
            ocl::potrf<T>(k, q, Uplo::Lower, nb, a, &info, &w);
        };
        const double t_p = device_time(env, reps, restore, [&] { potrf_on(dk, env.queue); });
        const double t_g = device_time(env, reps, restore, [&] { gemms(env.queue); });
        const double t_seq = device_time(env, reps, restore, [&] { potrf_on(dk, env.queue), gemms(env.queue); });
        for (const bool high : {false, true}) {
            if (high && !priorities) continue;
            cl_command_queue q2 = make_queue(high);
            std::vector<std::pair<double, double>> runs;  // (span, potrf's own span)
            for (int r = 0; r <= reps; ++r) {
                restore();
                check(clFinish(env.queue), "clFinish");
                cl_event a1 = marker(env.queue), a2 = marker(q2);
                gemms(env.queue);
                potrf_on(*dk2, q2);
                cl_event e1 = marker(env.queue), e2 = marker(q2);
                check(clFlush(q2), "clFlush"), check(clFlush(env.queue), "clFlush");
                const cl_ulong s1 = marker_end(a1), s2 = marker_end(a2), f1 = marker_end(e1), f2 = marker_end(e2);
                const double span = double(std::max(f1, f2) - std::min(s1, s2)) * 1e-9;
                if (r > 0) runs.emplace_back(span, double(f2 - s2) * 1e-9);
            }
            clReleaseCommandQueue(q2);
            std::sort(runs.begin(), runs.end());
            const auto [span, own] = runs[runs.size() / 2];
            std::printf("TILE overlap nb=%d G=%d: potrf+inverse %7.3f ms, %d gemms %7.3f ms, one queue %7.3f ms, "
                        "two queues%s %7.3f ms (potrf's own span %7.3f ms): saved %6.3f ms of the potrf's %6.3f\n",
                        nb, G, t_p * 1e3, G, t_g * 1e3, t_seq * 1e3, high ? " (high priority)" : "", span * 1e3,
                        own * 1e3, (t_seq - span) * 1e3, t_p * 1e3);
            std::fflush(stdout);
        }
    }
}

/// --only panel: the LU panel of 8·nb rows and nb/8 columns (ocl::getrf_panel with LAPACK's partial
/// pivoting, a random matrix) in this program (--variant for others), checked: ‖P·A − L·U‖ / (n·‖A‖·ε)
/// (check::getrf_residual).
template <class T>
void panel(const Env& env, int nb, int reps, const std::string& variant) {
    const int64_t m = 8 * int64_t(nb), pw = nb / 8;
    std::mt19937_64 rng(13);
    std::vector<T> a0(size_t(m * pw)), got(a0.size());
    fill_random(a0, rng);
    Buffer<T> A(env, a0.size()), A0(env, a0.size());
    Buffer<int64_t> piv(env, size_t(pw));
    A0.write(env, a0);
    std::vector<ocl::Mat> tiles;
    std::vector<int64_t> rows(8, nb);
    for (int t = 0; t < 8; ++t) tiles.push_back({A.mem, size_t(t) * nb, m});
    auto restore = [&] {
        check(clEnqueueCopyBuffer(env.queue, A0.mem, A.mem, 0, 0, a0.size() * sizeof(T), 0, nullptr, nullptr),
              "clEnqueueCopyBuffer");
    };
    std::vector<int64_t> ipiv(static_cast<size_t>(pw));
    int info = 0;
    auto dk = build_kernels(env, std::is_same_v<T, float> ? 's' : 'd', variant, env.info, {});
    const double t = device_time(env, reps, restore, [&] {
        ocl::getrf_panel<T>(*dk, env.queue, tiles, rows, pw, 0, piv.mem, 0, ipiv.data(), &info);
    });
    check(clFinish(env.queue), "clFinish");
    A.read(env, got);
    std::printf("TILE panel %lldx%lld: %8.3f ms (%.2f us a column), info %d, getrf residual %.3f\n", (long long)m,
                (long long)pw, t * 1e3, t * 1e6 / double(pw), info,
                check::getrf_residual(m, pw, a0.data(), m, got.data(), m, ipiv.data()));
    std::fflush(stdout);
}

template <class T>
void run(const Env& env, int nb, int reps, const std::string& only, const std::string& variant) {
    if (only == "panel") return panel<T>(env, nb, reps, variant);
    const size_t elems = size_t(nb) * nb;
    const double n3 = double(nb) * nb * nb;
    std::mt19937_64 rng(7);
    std::vector<T> spd(elems), x(elems), y(elems), ref(elems), got(elems);
    fill_random(x, rng), fill_random(y, rng);
    for (int j = 0; j < nb; ++j)  // symmetric, diagonally dominant: positive definite
        for (int i = 0; i < nb; ++i) spd[size_t(j) * nb + i] = (x[size_t(j) * nb + i] + x[size_t(i) * nb + j]) / 2 + (i == j ? nb : 0);
    Buffer<T> A0(env, elems), A(env, elems), B(env, elems), C(env, elems), W(env, elems);
    A0.write(env, spd), B.write(env, x), C.write(env, y);
    auto restore = [&] {
        check(clEnqueueCopyBuffer(env.queue, A0.mem, A.mem, 0, 0, elems * sizeof(T), 0, nullptr, nullptr),
              "clEnqueueCopyBuffer");
    };
    const ocl::Mat a{A.mem, 0, nb}, b{B.mem, 0, nb}, c{C.mem, 0, nb}, w{W.mem, 0, nb};
    int info = 0;
    // The library's whole program; for the norms alone, norms.cl alone (a program of a second, not a
    // minute, when a parameter table or --variant changes its build).
    const std::vector<std::string> files = only == "norms" ? std::vector<std::string>{"norms.cl"} : std::vector<std::string>{};
    auto built = build_kernels(env, std::is_same_v<T, float> ? 's' : 'd', variant, env.info, files);
    const ocl::DeviceKernels& dk = *built;
    const int bs = std::min(nb, dk.params().potrf_bs);
    auto none = [] {};
    // The norms' per-tile partials (lange / lansy tasks): row sums ‖·‖∞, column sums ‖·‖₁, both (an
    // off-diagonal tile of lansy), row sums of a symmetric diagonal tile; GB/s of the tile read.
    auto norms = [&] {
        Buffer<T> partial(env, size_t(2) * nb);
        struct NormCase {
            const char* what;
            int part, tile;
        };
        for (const NormCase nc : {NormCase{"norm_tile row sums", 2, 0}, NormCase{"norm_tile column sums", 1, 0},
                                  NormCase{"norm_tile both sums", 4, 0}, NormCase{"norm_tile row sums, sym L", 2, 3}}) {
            const double tn = device_time(env, reps, none, [&] {
                ocl::norm_tile<T>(dk, env.queue, nc.part, nc.tile, false, false, nb, nb, b, partial.mem, 0);
            });
            report(nc.what, nb, bs, tn, 0);
            std::printf("TILE nb=%d %s: %.0f GB/s\n", nb, nc.what, double(elems) * sizeof(T) / tn * 1e-9);
        }
    };
    if (only == "norms") return norms();
    if (only == "overlap") return overlap<T>(env, dk, nb, reps, a, w, b, c, restore);
    if (only == "lu_row") {
        // LU's U-row update of one tile, B = L⁻¹·B with L the unit lower triangle of the diagonal
        // tile (off-diagonal entries below 1/nb: well conditioned), float inside a TF32 scope as
        // the mixed LU: trsm against trtri (Unit, once a panel) and trmm with that inverse.
        std::optional<ocl::TensorProducts> tensor;
        if constexpr (std::is_same_v<T, float>) tensor.emplace(ocl::TensorFormat::Tf32);
        std::vector<T> l(elems);
        for (size_t e = 0; e < elems; ++e) l[e] = x[e] / T(nb);
        A.write(env, l);
        report("lu_row trsm (L, L, N, U)", nb, bs, device_time(env, reps, none, [&] {
                   ocl::trsm<T>(dk, env.queue, Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, nb, nb, 1.0, a, b);
               }), n3);
        report("lu_row trtri (L, U)", nb, bs, device_time(env, reps, none, [&] {
                   ocl::trtri<T>(dk, env.queue, Uplo::Lower, Diag::Unit, nb, a, w);
               }), n3 / 3);
        report("lu_row trmm (L, L, N, U) with the inverse", nb, bs, device_time(env, reps, none, [&] {
                   ocl::trmm<T>(dk, env.queue, Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, nb, nb, 1.0, w, b);
               }), n3);
        report("lu_row gemm (N, N)", nb, bs, device_time(env, reps, none, [&] {
                   ocl::gemm<T>(dk, env.queue, Trans::NoTrans, Trans::NoTrans, nb, nb, nb, 1.0, w, b, 1.0, c);
               }), 2 * n3);
        return;
    }
    // The mixed solvers' conversions (lacpy.cl): lag2_down of a whole tile and of its lower triangle
    // (as the tasks run them: the overflow flag cleared before and read back after the kernel), and
    // for comparison a plain copy of the tile (lacpy); GB/s of the bytes read and written.
    auto copies = [&] {
        if constexpr (std::is_same_v<T, double>) {
            const double tile = double(elems) * sizeof(T);
            const double down = device_time(env, reps, none, [&] {
                ocl::lag2_down<T>(dk, env.queue, Uplo::General, nb, nb, 1024.0, b, w, &info);
            });
            std::printf("TILE nb=%d lag2_down %8.4f ms (%6.0f GB/s)\n", nb, down * 1e3, 1.5 * tile / down * 1e-9);
            // Its kernel alone, without the flag's clear and read-back.
            const double kernel = device_time(env, reps, none, [&] {
                cl_kernel k = dk.get("tessera_lag2_down");
                const cl_int cn = nb, general = 0;
                const cl_double alpha = 1024.0;
                const cl_ulong zero = 0;
                const cl_mem flag = dk.info_scratch();
                ocl::set_args(k, "clSetKernelArg(tessera_lag2_down)", cn, cn, general, alpha, B.mem, zero, cn, W.mem,
                              zero, cn, flag);
                ocl::enqueue_2d(env.queue, k, nb, nb, "clEnqueueNDRangeKernel(tessera_lag2_down)");
            });
            std::printf("TILE nb=%d lag2_down kernel alone %8.4f ms (%6.0f GB/s)\n", nb, kernel * 1e3,
                        1.5 * tile / kernel * 1e-9);
            const double lower = device_time(env, reps, none, [&] {
                ocl::lag2_down<T>(dk, env.queue, Uplo::Lower, nb, nb, 1024.0, b, w, &info);
            });
            std::printf("TILE nb=%d lag2_down lower %8.4f ms\n", nb, lower * 1e3);
            const double up = device_time(env, reps, none, [&] { ocl::lag2_up<T>(dk, env.queue, true, nb, nb, w, c); });
            std::printf("TILE nb=%d lag2_up accumulate %8.4f ms (%6.0f GB/s)\n", nb, up * 1e3, 2.5 * tile / up * 1e-9);
            const double copy = device_time(env, reps, none, [&] {
                ocl::lacpy<T>(dk, env.queue, Uplo::General, nb, nb, b, c);
            });
            std::printf("TILE nb=%d lacpy %8.4f ms (%6.0f GB/s)\n", nb, copy * 1e3, 2 * tile / copy * 1e-9);
            std::fflush(stdout);
        }
    };
    if (only == "copies") return copies();
    // The narrow products of the mixed solvers' residuals and solves (one right-hand side: n = 1):
    // C (nb×n) = A·X and Aᵀ·X through gemm(), which takes gemm_narrow.cl for n ≤ 8, against the
    // same program built with TESSERA_GEMM_NARROW=0 (the GEMM kernels' path), same call; GB/s of
    // A's read; the narrow result checked against CBLAS (max error relative to the largest entry).
    auto narrow = [&] {
        auto wide = build_kernels(env, std::is_same_v<T, float> ? 's' : 'd', variant + " -DTESSERA_GEMM_NARROW=0",
                                  env.info, {});
        std::vector<T> out(elems), want(elems);
        for (const int n : {1, 2, 4, 8, 16})
            for (const Trans ta : {Trans::NoTrans, Trans::Trans}) {
                auto product = [&](const ocl::DeviceKernels& k) {
                    ocl::gemm<T>(k, env.queue, ta, Trans::NoTrans, nb, n, nb, -1.0, b, c, 1.0, w);
                };
                const double t_new = device_time(env, reps, none, [&] { product(dk); });
                const double t_old = device_time(env, reps, none, [&] { product(*wide); });
                W.write(env, y);
                product(dk);
                W.read(env, out);
                want = y;
                cpu::gemm<T>(ta, Trans::NoTrans, nb, n, nb, T(-1), x.data(), nb, y.data(), nb, T(1), want.data(), nb);
                double d = 0, big = 0;
                for (size_t e = 0; e < size_t(nb) * n; ++e)
                    d = std::max(d, std::abs(double(out[e]) - double(want[e]))), big = std::max(big, std::abs(double(want[e])));
                const double gbs = double(elems) * sizeof(T) * 1e-9;
                std::printf("TILE nb=%d narrow %s n=%-2d %8.4f ms (%6.0f GB/s), GEMM kernels %8.4f ms (%6.0f GB/s): "
                            "%5.2fx  error %.2e\n",
                            nb, ta == Trans::NoTrans ? "A*X " : "At*X", n, t_new * 1e3, gbs / t_new, t_old * 1e3,
                            gbs / t_old, t_old / t_new, big > 0 ? d / big : d);
                std::fflush(stdout);
            }
        // A symmetric matrix's off-diagonal tile with one right-hand side: P −= A·u and Q −= Aᵀ·v by
        // the pair (gemm_narrow_pair.cl, one read of A) against the two narrow products; u, v: C's
        // first two columns, P, Q: W's.
        const ocl::Mat u{C.mem, 0, nb}, v{C.mem, size_t(nb), nb}, p{W.mem, 0, nb}, q{W.mem, size_t(nb), nb};
        auto pair = [&] { ocl::gemm_narrow_pair<T>(dk, env.queue, false, nb, nb, T(-1), b, u, v, p, q); };
        const double t_pair = device_time(env, reps, none, pair);
        const double t_two = device_time(env, reps, none, [&] {
            ocl::gemm<T>(dk, env.queue, Trans::NoTrans, Trans::NoTrans, nb, 1, nb, T(-1), b, u, T(1), p);
            ocl::gemm<T>(dk, env.queue, Trans::Trans, Trans::NoTrans, nb, 1, nb, T(-1), b, v, T(1), q);
        });
        W.write(env, y);
        pair();
        W.read(env, out);
        want = y;
        cpu::gemm<T>(Trans::NoTrans, Trans::NoTrans, nb, 1, nb, T(-1), x.data(), nb, y.data(), nb, T(1), want.data(), nb);
        cpu::gemm<T>(Trans::Trans, Trans::NoTrans, nb, 1, nb, T(-1), x.data(), nb, y.data() + nb, nb, T(1),
                     want.data() + nb, nb);
        double d = 0, big = 0;
        for (size_t e = 0; e < size_t(2) * nb; ++e)
            d = std::max(d, std::abs(double(out[e]) - double(want[e]))), big = std::max(big, std::abs(double(want[e])));
        std::printf("TILE nb=%d narrow pair A*u, At*v %8.4f ms (%6.0f GB/s), two narrow products %8.4f ms: %5.2fx  "
                    "error %.2e\n",
                    nb, t_pair * 1e3, double(elems) * sizeof(T) * 1e-9 / t_pair, t_two * 1e3, t_two / t_pair,
                    big > 0 ? d / big : d);
        std::fflush(stdout);
    };
    if (only == "narrow") return narrow();
    // The trsm of the solves on the factor of A. First one right-hand side (L, lower, N, unit) of
    // order 512 .. nb with this program: the whole trsm and its diagonal blocks' inversion alone, the
    // one-launch chain's cost per diagonal block. Then one right-hand side and eight (getrs: L unit
    // then U; potrs: L then Lᴴ) of order nb: this program (the chain on NVIDIA GPUs) against the
    // blocked leaves and GEMMs (a second program built with TESSERA_TRSM_CHAIN=0), each checked
    // against CBLAS (max error relative to the largest entry).
    auto solves = [&] {
        restore();
        ocl::potrf<T>(dk, env.queue, Uplo::Lower, nb, a, &info);  // L below the diagonal, A's own entries above
        A.read(env, ref);
        const int tbs = dk.params().trsm_bs;
        for (int dim = 512; dim <= nb; dim *= 2) {
            const std::vector<T> x0(x.begin(), x.begin() + dim);
            Buffer<T> X(env, x0.size());
            const ocl::Mat xm{X.mem, 0, dim};
            const double t = device_time(env, reps, [&] { X.write(env, x0); }, [&] {
                ocl::trsm<T>(dk, env.queue, Side::Left, Uplo::Lower, Trans::NoTrans, Diag::Unit, dim, 1, T(1), a, xm);
            });
            const double ti = device_time(env, reps, none, [&] {
                ocl::trtri_blocks<T>(dk, env.queue, dim, true, true, false, A.mem, 0, 1, nb, W.mem, 0, tbs,
                                     size_t(tbs) * tbs);
            });
            std::printf("TILE trsm one column, order %5d: %8.4f ms, of which the blocks' inversion %8.4f ms\n", dim,
                        t * 1e3, ti * 1e3);
            std::fflush(stdout);
        }
        auto blocked = build_kernels(env, std::is_same_v<T, float> ? 's' : 'd', variant + " -DTESSERA_TRSM_CHAIN=0",
                                     env.info, files);
        struct Case {
            const char* what;
            Uplo uplo;
            Trans tr;
            Diag diag;
        };
        for (int nvec : {1, 8})
            for (const Case cs : {Case{"L,L,N,U", Uplo::Lower, Trans::NoTrans, Diag::Unit},
                                  Case{"L,U,N,N", Uplo::Upper, Trans::NoTrans, Diag::NonUnit},
                                  Case{"L,L,N,N", Uplo::Lower, Trans::NoTrans, Diag::NonUnit},
                                  Case{"L,L,T,N", Uplo::Lower, Trans::Trans, Diag::NonUnit}}) {
                const std::vector<T> x0(x.begin(), x.begin() + size_t(nb) * nvec);
                Buffer<T> X(env, x0.size());
                const ocl::Mat xm{X.mem, 0, nb};
                std::vector<T> want = x0, out(x0.size());
                cpu::trsm<T>(Side::Left, cs.uplo, cs.tr, cs.diag, nb, nvec, T(1), ref.data(), nb, want.data(), nb);
                double t[2], err[2];
                for (int v = 0; v < 2; ++v) {
                    const ocl::DeviceKernels& k = v == 0 ? dk : *blocked;
                    t[v] = device_time(env, reps, [&] { X.write(env, x0); }, [&] {
                        ocl::trsm<T>(k, env.queue, Side::Left, cs.uplo, cs.tr, cs.diag, nb, nvec, T(1), a, xm);
                    });
                    X.read(env, out);
                    double d = 0, big = 0;
                    for (size_t e = 0; e < out.size(); ++e)
                        d = std::max(d, std::abs(double(out[e]) - double(want[e]))), big = std::max(big, std::abs(double(want[e])));
                    err[v] = big > 0 ? d / big : d;
                }
                std::printf("TILE nb=%d trsm %s nvec=%d: this program %8.4f ms, blocked %8.4f ms: %5.2fx  error %.2e, "
                            "%.2e\n",
                            nb, cs.what, nvec, t[0] * 1e3, t[1] * 1e3, t[1] / t[0], err[0], err[1]);
                std::fflush(stdout);
            }
    };
    if (only == "solves") return solves();
    if (only == "idle") {
        // The device's pace after the host kept it idle: the tile potrf with its inverse back to back,
        // then after 0.5, 2 and 5 s of no work (first launch after the pause, then the next).
        auto potrf_inv = [&] { ocl::potrf<T>(dk, env.queue, Uplo::Lower, nb, a, &info, &w); };
        std::printf("TILE potrf with its inverse, back to back: %8.3f ms\n", device_time(env, reps, restore, potrf_inv) * 1e3);
        for (double pause : {0.5, 2.0, 5.0}) {
            restore();
            check(clFinish(env.queue), "clFinish");
            std::this_thread::sleep_for(std::chrono::duration<double>(pause));
            const double t = device_time(env, 1, restore, potrf_inv);
            std::printf("TILE after %.1f s idle: first %8.3f ms, next %8.3f ms\n", pause, g_first_seconds * 1e3, t * 1e3);
        }
        return;
    }
    if (only == "alloc") {
        // A fresh buffer's first use against its second: a copy of the tile into it, and a potrf
        // writing its inverse there (as the first run's StarPU-allocated workspace tiles meet them).
        for (int i = 0; i < 3; ++i) {
            Buffer<T> fresh(env, elems);
            const ocl::Mat f{fresh.mem, 0, nb};
            const double t = device_time(env, 1, none, [&] { ocl::lacpy<T>(dk, env.queue, Uplo::General, nb, nb, b, f); });
            std::printf("TILE fresh buffer %d: lacpy into it, first %8.3f ms, second %8.3f ms\n", i, g_first_seconds * 1e3,
                        t * 1e3);
            Buffer<T> fresh_w(env, elems);
            const ocl::Mat fw{fresh_w.mem, 0, nb};
            const double tp = device_time(env, 1, restore, [&] { ocl::potrf<T>(dk, env.queue, Uplo::Lower, nb, a, &info, &fw); });
            std::printf("TILE fresh buffer %d: potrf with its inverse into it, first %8.3f ms, second %8.3f ms\n", i,
                        g_first_seconds * 1e3, tp * 1e3);
        }
        return;
    }
    // A process's first launches: potrf with its inverse of growing order, each first (warm-up) run
    // against the median of the later ones. Order 64 is one leaf (the leaf kernel's first launch),
    // 128 one node (the GEMM kernels' first launches, a small scratch), larger orders grow
    // dk.scratch() (a new clCreateBuffer each time) with every kernel launched before.
    if (only == "first" || only == "first16") {
        // first16: inside an FP16 tensor-product scope, as the mixed Cholesky's single factorization
        // runs (its GEMMs on the tensor-core kernels of gemm_nv_tf32.cl).
        std::optional<ocl::TensorProducts> tensor;
        if (only == "first16") tensor.emplace(ocl::TensorFormat::Fp16);
        for (int m = 64; m <= nb; m *= 2) {
            const double t = device_time(env, reps, restore, [&] { ocl::potrf<T>(dk, env.queue, Uplo::Lower, m, a, &info, &w); });
            std::printf("TILE potrf with its inverse of order %d: first run %8.3f ms, median %8.3f ms\n", m,
                        g_first_seconds * 1e3, t * 1e3);
        }
        return;
    }
    const double tp = device_time(env, reps, restore, [&] { ocl::potrf<T>(dk, env.queue, Uplo::Lower, nb, a, &info); });
    A.read(env, got);
    ref = spd;
    cpu::potrf<T>(Uplo::Lower, nb, ref.data(), nb);
    report("potrf (L)", nb, bs, tp, n3 / 3, info == 0 ? rel_error(got, ref, nb, 'L') : 1.0);
    const double tu = device_time(env, reps, restore, [&] { ocl::potrf<T>(dk, env.queue, Uplo::Upper, nb, a, &info); });
    A.read(env, got);
    ref = spd;
    cpu::potrf<T>(Uplo::Upper, nb, ref.data(), nb);
    report("potrf (U)", nb, bs, tu, n3 / 3, info == 0 ? rel_error(got, ref, nb, 'U') : 1.0);
    // With the inverse made in the same recursion (the tile Cholesky's panel on a device; trtri
    // below makes it apart): the error of W against LAPACK's inverse of LAPACK's factor.
    const double tpi = device_time(env, reps, restore, [&] { ocl::potrf<T>(dk, env.queue, Uplo::Lower, nb, a, &info, &w); });
    W.read(env, got);
    ref = spd;
    cpu::potrf<T>(Uplo::Lower, nb, ref.data(), nb);
    std::vector<T> inv(elems, T(0));
    cpu::trtri<T>(Uplo::Lower, Diag::NonUnit, nb, ref.data(), nb, inv.data(), nb);
    report("potrf (L) with its inverse", nb, bs, tpi, n3 / 3 + n3 / 3, info == 0 ? rel_error(got, inv, nb, 'L') : 1.0);
    report("  one leaf (bs columns)", nb, bs,
           device_time(env, reps, restore, [&] { ocl::potrf<T>(dk, env.queue, Uplo::Lower, bs, a, &info); }),
           double(bs) * bs * bs / 3);
    // Leaves of fewer columns: a leaf's fixed cost and its cost per column (each ocl::potrf call, these
    // and the one above, also reads its info back to the host).
    for (int m : {1, 4, 16})
        if (m < bs)
            report(("  one leaf of order " + std::to_string(m)).c_str(), nb, bs,
                   device_time(env, reps, restore, [&] { ocl::potrf<T>(dk, env.queue, Uplo::Lower, m, a, &info); }), 0);
    // The recursion's levels: potrf of the leading m×m block for m = 2·bs, 4·bs, ... < nb.
    for (int m = 2 * bs; m < nb; m *= 2)
        report(("  potrf (L) of order " + std::to_string(m)).c_str(), nb, bs,
               device_time(env, reps, restore, [&] { ocl::potrf<T>(dk, env.queue, Uplo::Lower, m, a, &info); }),
               double(m) * m * m / 3);
    if (only == "potrf") return;
    // Launch overhead: the smallest launches one at a time (lacpy of 64×64, laset of 1×1) and 256
    // back-to-back 64×64×64 GEMMs, the smallest launches of the recursion.
    const ocl::Mat wsmall{W.mem, 0, nb};
    report("  lacpy 64x64", nb, bs, device_time(env, reps, none, [&] {
               ocl::lacpy<T>(dk, env.queue, Uplo::General, 64, 64, a, wsmall);
           }), 0);
    report("  laset 1x1", nb, bs, device_time(env, reps, none, [&] { ocl::laset<T>(dk, env.queue, 1, 1, T(0), T(0), wsmall); }), 0);
    report("  trtri 64 (laset + one block)", nb, bs, device_time(env, reps, none, [&] {
               ocl::trtri<T>(dk, env.queue, Uplo::Lower, Diag::NonUnit, 64, a, wsmall);
           }), 0);
    // trsm's fixed cost: the diagonal blocks' inversion alone (one block, and nb/64 of them in one
    // launch), and a whole trsm of one block (that inversion and one leaf).
    const int tbs = dk.params().trsm_bs;
    report("  trtri_blocks, one block", nb, bs, device_time(env, reps, none, [&] {
               ocl::trtri_blocks<T>(dk, env.queue, tbs, true, false, false, A.mem, 0, 1, nb, W.mem, 0, tbs,
                                    size_t(tbs) * tbs);
           }), 0);
    report("  trtri_blocks, all of nb", nb, bs, device_time(env, reps, none, [&] {
               ocl::trtri_blocks<T>(dk, env.queue, nb, true, false, false, A.mem, 0, 1, nb, W.mem, 0, tbs,
                                    size_t(tbs) * tbs);
           }), 0);
    report("  trsm R,L,T of one block", nb, bs, device_time(env, reps, none, [&] {
               ocl::trsm<T>(dk, env.queue, Side::Right, Uplo::Lower, Trans::Trans, Diag::NonUnit, tbs, tbs, 1.0, a,
                            wsmall);
           }), 0);
    const double tl = device_time(env, reps, none, [&] {
        for (int i = 0; i < 256; ++i)
            ocl::gemm<T>(dk, env.queue, Trans::NoTrans, Trans::NoTrans, 64, 64, 64, 1.0, b, b, 1.0, c);
    });
    g_host_seconds /= 256;
    report("  256 gemms 64^3 (per launch)", nb, bs, tl / 256, 2.0 * 64 * 64 * 64);
    // The other tile operations of the GPU Cholesky (and of LU/QR's updates), once.
    restore();
    ocl::potrf<T>(dk, env.queue, Uplo::Lower, nb, a, &info);  // A = L, the input of trtri
    const double tt = device_time(env, reps, none, [&] { ocl::trtri<T>(dk, env.queue, Uplo::Lower, Diag::NonUnit, nb, a, w); });
    W.read(env, got);
    A.read(env, ref);
    cpu::trtri<T>(Uplo::Lower, Diag::NonUnit, nb, ref.data(), nb);
    report("trtri (L)", nb, bs, tt, n3 / 3, rel_error(got, ref, nb, 'L'));
    report("trmm (R, L, T) with the inverse", nb, bs, device_time(env, reps, none, [&] {
               ocl::trmm<T>(dk, env.queue, Side::Right, Uplo::Lower, Trans::Trans, Diag::NonUnit, nb, nb, 1.0, w, b);
           }), n3);
    report("trsm (R, L, T)", nb, bs, device_time(env, reps, none, [&] {
               ocl::trsm<T>(dk, env.queue, Side::Right, Uplo::Lower, Trans::Trans, Diag::NonUnit, nb, nb, 1.0, a, b);
           }), n3);
    report("syrk (L, N)", nb, bs, device_time(env, reps, none, [&] {
               ocl::syrk<T>(dk, env.queue, Uplo::Lower, Trans::NoTrans, nb, nb, -1.0, b, 1.0, c);
           }), n3);
    B.write(env, x), C.write(env, y);
    const double tg = device_time(env, reps, [&] { C.write(env, y); }, [&] {
        ocl::gemm<T>(dk, env.queue, Trans::NoTrans, Trans::Trans, nb, nb, nb, -1.0, b, b, 1.0, c);
    });
    C.read(env, got);
    ref = y;
    cpu::gemm<T>(Trans::NoTrans, Trans::Trans, nb, nb, nb, T(-1), x.data(), nb, x.data(), nb, T(1), ref.data(), nb);
    report("gemm (N, T)", nb, bs, tg, 2 * n3, rel_error(got, ref, nb, 'G'));
    report("gemm (N, N)", nb, bs, device_time(env, reps, none, [&] {
               ocl::gemm<T>(dk, env.queue, Trans::NoTrans, Trans::NoTrans, nb, nb, nb, 1.0, b, b, 1.0, c);
           }), 2 * n3);
    norms();
    copies();
}

}  // namespace

int main(int argc, char** argv) {
    return tool::guarded_main("gpu_tile_kernels", [&] {
        int nb = 2048, reps = 5;
        char prec = 'd';
        const std::vector<std::string> modes{"potrf", "norms", "narrow", "solves", "copies", "first", "first16", "alloc", "idle",
                                             "overlap", "panel", "lu_row"};
        std::string only;  // one of `modes`: that part alone
        std::string variant;  // extra build options, e.g. "-DTESSERA_POTRF_WARP_SYNC=1"
        for (int i = 1; i < argc; i += 2) {
            const std::string s = argv[i], v = i + 1 < argc ? argv[i + 1] : "";
            if (s == "--nb" && !v.empty()) nb = std::atoi(v.c_str());
            else if (s == "--reps" && !v.empty()) reps = std::atoi(v.c_str());
            else if (s == "--prec" && (v == "s" || v == "d")) prec = v[0];
            else if (s == "--only" && std::find(modes.begin(), modes.end(), v) != modes.end()) only = v;
            else if (s == "--variant" && !v.empty()) variant = v;
            else throw Error("usage: gpu_tile_kernels [--nb 2048] [--reps 5] [--prec d|s] [--only potrf|norms|narrow|solves|copies|first|first16|alloc|idle|overlap|panel|lu_row] [--variant OPTIONS]");
        }
        if (nb < 64 || nb > 16384 || reps < 1 || reps > 1000) throw Error("--nb must be in [64, 16384], --reps in [1, 1000]");
        Env env;
        std::printf("device: %s\n", env.describe().c_str());
        if (prec == 's') run<float>(env, nb, reps, only, variant);
        else run<double>(env, nb, reps, only, variant);
        return 0;
    });
}
