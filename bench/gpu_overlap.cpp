// gpu_overlap: does the tile GEMM kernel keep its speed while tiles stream over PCIe? StarPU-free.
// Enqueues 64 C = A·B + C of nb×nb tiles (ocl::gemm, the kernel the task graphs run) back to back on
// one queue, alone, next to 64 host→device copies of nb×nb tiles from pinned memory on a second
// queue, and next to copies both ways (a third queue), as StarPU's OpenCL driver does with its
// kernel and transfer queues. Every command is flushed as it is enqueued (StarPU flushes each).
// Times come from OpenCL profiling events: the kernels' span (first start to last end) and the
// copies' span and bandwidth. Run on the GPU machine: gpu_overlap [--nb 2048] [--prec d|s] [--reps 3].
// Output lines start with OVERLAP (machine-readable) and are explained in bench/gpu_notes.md.
#include <cstdio>
#include <string>
#include <vector>

#include "examples/common/tool_main.hpp"
#include "runtime/host_memory.hpp"
#include "tools/tune/cl_harness.hpp"

using namespace tessera;
using namespace tessera::harness;

namespace {

constexpr int kTasks = 64;   // GEMMs per scenario
constexpr int kBuffers = 8;  // distinct device tiles the copies land in (round robin)

cl_ulong profile(cl_event e, cl_profiling_info what) {
    cl_ulong t = 0;
    check(clGetEventProfilingInfo(e, what, sizeof t, &t, nullptr), "clGetEventProfilingInfo");
    return t;
}

/// Span in seconds from the first event's start to the last one's end.
double span(const std::vector<cl_event>& first, const std::vector<cl_event>& last) {
    return double(profile(last.back(), CL_PROFILING_COMMAND_END) - profile(first.front(), CL_PROFILING_COMMAND_START)) *
           1e-9;
}

void release(std::vector<cl_event>& evs) {
    for (cl_event e : evs) clReleaseEvent(e);
    evs.clear();
}

template <class T>
void run(const Env& env, int nb, int reps) {
    const char prec = std::is_same_v<T, float> ? 's' : 'd';
    auto dk = build_kernels(env, prec, "", env.info, {});  // the whole program: ocl::gemm dispatches
    const size_t elems = size_t(nb) * nb, bytes = elems * sizeof(T);
    cl_int err = CL_SUCCESS;
    auto queue = [&] {
        cl_command_queue q = clCreateCommandQueue(env.ctx, env.device, CL_QUEUE_PROFILING_ENABLE, &err);
        check(err, "clCreateCommandQueue");
        return q;
    };
    cl_command_queue qin = queue(), qout = queue();
    // Pinned host tile (the idiom of Tessera's tile storage) and device tiles.
    cl_mem pinned = clCreateBuffer(env.ctx, CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &err);
    check(err, "clCreateBuffer(pinned)");
    T* host = static_cast<T*>(clEnqueueMapBuffer(env.queue, pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                                                 nullptr, nullptr, &err));
    check(err, "clEnqueueMapBuffer");
    for (size_t i = 0; i < elems; ++i) host[i] = T(1) / T(1 + i % 7);
    std::vector<std::unique_ptr<Buffer<T>>> tiles;
    for (int i = 0; i < kBuffers + 3; ++i) {
        tiles.push_back(std::make_unique<Buffer<T>>(env, elems));
        check(clEnqueueWriteBuffer(env.queue, tiles.back()->mem, CL_TRUE, 0, bytes, host, 0, nullptr, nullptr),
              "clEnqueueWriteBuffer");
    }
    const ocl::Mat A{tiles[0]->mem, 0, nb}, B{tiles[1]->mem, 0, nb}, C{tiles[2]->mem, 0, nb};

    std::vector<cl_event> kstart, kend, in, out;
    auto gemms = [&] {
        for (int t = 0; t < kTasks; ++t) {
            cl_event e;
            check(clEnqueueMarkerWithWaitList(env.queue, 0, nullptr, &e), "clEnqueueMarker");
            kstart.push_back(e);
            ocl::gemm<T>(*dk, env.queue, Trans::NoTrans, Trans::Trans, nb, nb, nb, T(-1), A, B, T(1), C);
            check(clEnqueueMarkerWithWaitList(env.queue, 0, nullptr, &e), "clEnqueueMarker");
            kend.push_back(e);
            clFlush(env.queue);
        }
    };
    // `count` tile copies on `q`, host→device (`in`) or device→host, round robin over the tiles.
    auto copies = [&](cl_command_queue q, bool in, int count, std::vector<cl_event>& evs) {
        for (int t = 0; t < count; ++t) {
            cl_event e;
            cl_mem tile = tiles[3 + t % kBuffers]->mem;
            check(in ? clEnqueueWriteBuffer(q, tile, CL_FALSE, 0, bytes, host, 0, nullptr, &e)
                     : clEnqueueReadBuffer(q, tile, CL_FALSE, 0, bytes, host, 0, nullptr, &e),
                  "clEnqueue{Write,Read}Buffer");
            evs.push_back(e);
            clFlush(q);
        }
    };
    auto finish = [&] {
        check(clFinish(env.queue), "clFinish"), check(clFinish(qin), "clFinish"), check(clFinish(qout), "clFinish");
    };
    gemms(), finish(), release(kstart), release(kend);  // warm-up (program build, first launch)
    const double flop = 2.0 * nb * double(nb) * nb;
    for (int r = 0; r < reps; ++r) {
        for (int scenario = 0; scenario < 4; ++scenario) {
            const bool k = scenario != 1, ci = scenario >= 1, co = scenario == 3;
            if (ci) copies(qin, true, kTasks, in);
            if (co) copies(qout, false, kTasks / 2, out);
            if (k) gemms();
            finish();
            const char* name[] = {"gemm alone", "copies in alone", "gemm + copies in", "gemm + copies in + out"};
            std::printf("OVERLAP %c nb=%d rep=%d %-24s", prec, nb, r, name[scenario]);
            if (k) {
                const double s = span(kstart, kend);
                double busy = 0;  // sum of the kernels' own durations (start marker end → end marker end)
                for (int t = 0; t < kTasks; ++t)
                    busy += double(profile(kend[t], CL_PROFILING_COMMAND_END) -
                                   profile(kstart[t], CL_PROFILING_COMMAND_END)) * 1e-9;
                std::printf("  gemm span %7.2f ms (%.3f ms each, %6.2f TFLOP/s, sum of gemms %.2f ms)", s * 1e3,
                            s * 1e3 / kTasks, flop * kTasks / s * 1e-12, busy * 1e3);
            }
            if (ci) {
                const double s = span(in, in);
                std::printf("  in %7.2f ms (%.1f GB/s)", s * 1e3, double(bytes) * in.size() / s * 1e-9);
            }
            if (co) {
                const double s = span(out, out);
                std::printf("  out %7.2f ms (%.1f GB/s)", s * 1e3, double(bytes) * out.size() / s * 1e-9);
            }
            std::printf("\n");
            std::fflush(stdout);
            release(kstart), release(kend), release(in), release(out);
        }
    }
    clEnqueueUnmapMemObject(env.queue, pinned, host, 0, nullptr, nullptr);
    clFinish(env.queue);
    clReleaseMemObject(pinned);
    clReleaseCommandQueue(qin), clReleaseCommandQueue(qout);
}

// Exit status (examples/common/tool_main.hpp): 0 measured; 1 the device failed; 2 refused: bad
// arguments or a tile too large for host memory.
int gpu_overlap_main(int argc, char** argv) {
    int nb = 2048, reps = 3;
    char prec = 'd';
    for (int i = 1; i < argc; ++i) {
        const std::string s = argv[i];
        if (s != "--nb" && s != "--reps" && s != "--prec")
            throw Error("unknown argument '" + s + "'; usage: gpu_overlap [--nb 2048] [--prec d|s] [--reps 3]");
        if (i + 1 >= argc) throw Error(s + " needs a value");
        const std::string value = argv[++i];
        if (s == "--nb") nb = parse_int_option("--nb", value, 1);
        else if (s == "--reps") reps = parse_int_option("--reps", value, 1);
        else if (value == "d" || value == "s") prec = value[0];
        else throw Error("--prec: expected d or s, got '" + value + "'");
    }
    // The pinned host tile (the device holds 64 more of them and 3 operands).
    detail::require_host_arrays("--nb " + std::to_string(nb), nb, nb, prec == 'd' ? sizeof(double) : sizeof(float), 1);
    Env env;
    std::printf("device: %s\n", env.describe().c_str());
    prec == 's' ? run<float>(env, nb, reps) : run<double>(env, nb, reps);
    return tool::kOk;
}

}  // namespace

int main(int argc, char** argv) {
    return tool::guarded_main("gpu_overlap", [&] { return gpu_overlap_main(argc, argv); });
}
