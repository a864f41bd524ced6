// Perfmodels, codelet construction, and the life of a task: creation with its context, submission
// (or destruction when refused), completion callback.
#include "codelets/codelet.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <set>

#include "codelets/fault_injection.hpp"
#include "codelets/tasks.hpp"
#include "runtime/mpi_internal.hpp"
#include "runtime/device_map.hpp"
#include "runtime/placement_prior.hpp"
#include "runtime/sequence_internal.hpp"
#include "runtime/task_flops.hpp"
#include "runtime/trace_internal.hpp"

namespace tessera::codelets {

// Footprint = hash of the sizes of every matrix and vector buffer (data-less tokens are skipped) and
// of the flags word that starts cl_arg (every task comes from new_task).
static uint32_t footprint(starpu_task* task) {
    uint32_t h = 0;
    for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i) {
        starpu_data_handle_t d = STARPU_TASK_GET_HANDLE(task, i);
        switch (starpu_data_get_interface_id(d)) {
            case STARPU_MATRIX_INTERFACE_ID:
                h = starpu_hash_crc32c_be(starpu_matrix_get_nx(d), h);
                h = starpu_hash_crc32c_be(starpu_matrix_get_ny(d), h);
                break;
            case STARPU_VECTOR_INTERFACE_ID:
                h = starpu_hash_crc32c_be(starpu_vector_get_nx(d), h);
                break;
            default:
                break;
        }
    }
    uint32_t flags = 0;
    if (task->cl_arg && task->cl_arg_size >= sizeof flags) std::memcpy(&flags, task->cl_arg, sizeof flags);
    h = starpu_hash_crc32c_be(flags, h);
    // Tensor-core products: other kernels, other costs (TF32 keeps the footprints it had).
    if (const auto f = task_tensor_format(task); f != ocl::TensorFormat::None)
        h = starpu_hash_crc32c_be(f == ocl::TensorFormat::Tf32 ? 0x7F32u : 0xF16u, h);
    // A task of a failed sequence skips its work: its near-zero time goes to a history entry of its
    // own instead of the kernel's (StarPU computes the footprint when it schedules the task, or
    // when it records the time), so that a failure does not teach the scheduler wrong costs.
    if (task_group(task).failed()) h = starpu_hash_crc32c_be(0x5C1BBEDu, h);
    return h;
}

// StarPU reads codelets' names and perfmodels until starpu_shutdown, which may run after static
// destructors: from an atexit handler registered before the first task (libtessera_lapack's), whose
// turn comes after every static made later. What StarPU holds is therefore never destroyed.
const char* kept_name(const std::string& name) {
    static std::mutex lock;
    static auto& names = *new std::set<std::string>;  // nodes never move: c_str() stays valid
    std::lock_guard<std::mutex> guard(lock);
    return names.insert(name).first->c_str();
}

starpu_perfmodel* history_model(const std::string& symbol) {
    static std::mutex lock;
    static auto& models = *new std::map<std::string, starpu_perfmodel>;  // never destroyed: see kept_name
    std::lock_guard<std::mutex> guard(lock);
    const auto [it, inserted] = models.try_emplace(symbol);
    starpu_perfmodel& m = it->second;
    if (inserted) {
        std::memset(&m, 0, sizeof m);
        m.type = STARPU_HISTORY_BASED;
        m.symbol = it->first.c_str();
        m.footprint = footprint;
    }
    return &m;
}

starpu_codelet codelet_of_guarded(const char* name, starpu_cpu_func_t cpu, starpu_opencl_func_t ocl,
                                  std::initializer_list<starpu_data_access_mode> modes, starpu_perfmodel* model) {
    starpu_codelet cl;
    starpu_codelet_init(&cl);
    cl.name = name;
    cl.cpu_funcs[0] = cpu;
    cl.where = STARPU_CPU;
    if (ocl) {
        cl.opencl_funcs[0] = ocl;
        cl.opencl_flags[0] = STARPU_OPENCL_ASYNC;
        cl.where |= STARPU_OPENCL;
    }
    cl.nbuffers = int(modes.size());
    int i = 0;
    for (starpu_data_access_mode mode : modes) cl.modes[i++] = mode;
    cl.model = model;
    return cl;
}

// ---- A task's context: what it reports to and keeps alive, from new_task to its callback.
//
// The context pointer is appended to the task's malloc'd cl_arg, after the arguments: the
// arguments stay at offset 0, where the codelets and the perfmodel footprint read them, and the
// guarded implementation finds the context from the running task alone (callback_arg is no help:
// a profile chains its own callback in front). The completion callback frees the context.

namespace {

struct TaskContext {
    std::shared_ptr<detail::TaskGroup> group;  // the sequence: failure, tasks in flight, lifetime
    std::shared_ptr<const void> keep;          // e.g. a user's tile generator, alive until completion
    double flops = 0;                          // the kernel's flops (progress counters), set at submission
    std::unique_ptr<detail::TaskTrace> trace;  // while tracing: buffers and bytes_in (runtime/trace.cpp)
    ocl::TensorFormat tensor = ocl::TensorFormat::None;  // the submitter's tasks::TensorScope
};

thread_local ocl::TensorFormat g_tensor_scope = ocl::TensorFormat::None;  // the submitting thread's tasks::TensorScope

std::atomic<long> g_live{0};
std::atomic<bool> g_force_opencl{false};  // test-only (fault_injection.hpp)

size_t context_offset(size_t args_size) {
    return (args_size + alignof(TaskContext*) - 1) / alignof(TaskContext*) * alignof(TaskContext*);
}

TaskContext* context_of(const starpu_task* task) {
    TaskContext* ctx;
    std::memcpy(&ctx, static_cast<const char*>(task->cl_arg) + task->cl_arg_size - sizeof ctx, sizeof ctx);
    return ctx;
}

void free_context(TaskContext* ctx) noexcept {
    delete ctx;
    g_live.fetch_sub(1, std::memory_order_relaxed);
}

// Completion callback (StarPU's thread, after the task's data is released): the task is counted
// done (and traced) before the sequence learns that one task less is in flight, so a wait sees the
// counters final; the context, and with it the task's references, goes; then the progress observer.
void task_completed(void* arg) {
    auto* ctx = static_cast<TaskContext*>(arg);
    if (ctx->trace) detail::trace_record(starpu_task_get_current(), *ctx->trace, ctx->flops);
    detail::progress_completed(ctx->flops);
    std::shared_ptr<detail::TaskGroup> group = std::move(ctx->group);
    free_context(ctx);
    group->task_finished();
    detail::progress_notify();
}

}  // namespace

detail::TaskGroup& task_group(starpu_task* task) { return *context_of(task)->group; }
ocl::TensorFormat task_tensor_format(const starpu_task* task) { return context_of(task)->tensor; }

// Give a created task its arguments with the context appended, its callback, priority, name and
// placement (new_task, or a task StarPU-MPI built). When memory runs out, the task is destroyed
// and std::bad_alloc thrown.
static void prepare_task(starpu_task* task, starpu_codelet& cl, const void* args, size_t args_size, int priority,
                         std::shared_ptr<const void> keep) {
    const size_t at = context_offset(args_size), size = at + sizeof(TaskContext*);
    void* arg = std::malloc(size);
    auto destroy = [task] {
        task->destroy = 0;
        starpu_task_destroy(task);
    };
    if (!arg) {
        destroy();
        throw std::bad_alloc();
    }
    std::memcpy(arg, args, args_size);
    TaskContext* ctx = nullptr;
    try {
        ctx = new TaskContext{detail::current_group(), std::move(keep), 0.0, nullptr, g_tensor_scope};
    } catch (...) {
        std::free(arg);
        destroy();
        throw;
    }
    g_live.fetch_add(1, std::memory_order_relaxed);
    std::memcpy(static_cast<char*>(arg) + at, &ctx, sizeof ctx);
    task->cl = &cl;
    task->name = cl.name;
    task->cl_arg = arg;
    task->cl_arg_size = size;
    task->cl_arg_free = 1;
    task->callback_func = task_completed;
    task->callback_arg = ctx;
    task->callback_arg_free = 0;  // task_completed frees the context
    task->priority = priority;
    const bool opencl_only = detail::placement() == Placement::OpenCLOnly || g_force_opencl.load();
    if (opencl_only && cl.opencl_funcs[0]) task->where = STARPU_OPENCL;
}

starpu_task* new_task(starpu_codelet& cl, const void* args, size_t args_size, int priority,
                      std::shared_ptr<const void> keep) {
    starpu_task* task = starpu_task_create();  // StarPU aborts itself if this allocation fails
    prepare_task(task, cl, args, args_size, priority, std::move(keep));
    return task;
}

void discard_task(starpu_task* task) noexcept {
    TaskContext* ctx = context_of(task);
    task->destroy = 0;  // starpu_task_destroy refuses a task with destroy = 1 and detach = 1
    starpu_task_destroy(task);  // frees cl_arg (cl_arg_free), dyn_handles and dyn_modes
    free_context(ctx);
}

namespace {
std::string refusal_message(const char* name, int ret) {
    return std::string("tessera: task ") + name + " could not be submitted: " +
           (ret == -ENODEV ? std::string("no worker can run it (starpu_task_submit returned -ENODEV)")
                           : "starpu_task_submit returned " + std::to_string(ret));
}
}  // namespace

void submit_task(starpu_task* task) {
    const bool profiled = detail::profile_active();
    TaskContext* ctx = context_of(task);
    const double flops = ctx->flops = detail::task_flops(task);
    try {
        // Its precision's OpenCL program, built here rather than inside the first task (whose time
        // would enter its perfmodel): the codelet's name starts with it (named_codelet).
        const char prec = task->cl->name ? task->cl->name[0] : 0;
        if (task->cl->opencl_funcs[0] && (task->where & STARPU_OPENCL) && prec && std::strchr("sdcz", prec))
            detail::prepare_opencl(prec);
        if (detail::tracing()) ctx->trace = detail::trace_prepare(task);
        if (profiled) detail::profile_task(task);
    } catch (...) {
        discard_task(task);
        throw;
    }
    detail::apply_placement_prior(task, flops);  // where StarPU has no history of the task yet
    detail::apply_device_map(task);                // on the device owning its tile, or a CPU core
    detail::TaskGroup& group = task_group(task);
    group.task_submitted();
    detail::progress_submitted(flops);
    const int ret = detail::submit_failure_due() ? -ENODEV : starpu_task_submit(task);
    if (ret == 0) return;
    detail::progress_refused(flops);
    // StarPU 1.3 refuses a task (non-zero return) only in _starpu_task_submit_head, before the task
    // enters the graph: no dependency refers to it, so destroying it here is safe. The sequence
    // (kept alive by the submitting thread's scope) is marked failed: its graph is incomplete.
    std::shared_ptr<detail::TaskGroup> owner = context_of(task)->group;
    const char* name = task->cl->name;  // the codelet's, static
    if (profiled) detail::profile_forget(task);
    discard_task(task);
    owner->task_finished();  // first: nothing below may leave the sequence waiting for this task
    Error error(refusal_message(name, ret));
    owner->fail(error.what());
    throw error;
}

void submit(starpu_codelet& cl, const void* args, size_t args_size, std::initializer_list<TileHandle> handles,
            int priority, std::shared_ptr<const void> keep) {
    if (detail::distributed()) {
        std::vector<Buffer> buffers;
        int i = 0;
        for (TileHandle h : handles) buffers.emplace_back(h, cl.modes[i++]);
        submit_distributed(cl, args, args_size, buffers, priority, std::move(keep));
        return;
    }
    starpu_task* task = new_task(cl, args, args_size, priority, std::move(keep));
    int i = 0;
    for (TileHandle h : handles) task->handles[i++] = h;
    submit_task(task);
}

void submit_distributed(starpu_codelet& cl, const void* args, size_t args_size, const std::vector<Buffer>& buffers,
                        int priority, std::shared_ptr<const void> keep) {
    std::vector<starpu_data_descr> data;
    data.reserve(buffers.size());
    for (const auto& [handle, mode] : buffers) data.push_back({handle, mode});
    // Only the executing rank gets a task; every rank must post the transfers after it, even when
    // the task cannot be made or is refused, or the ranks' communications would no longer match.
    starpu_task* task = detail::mpi_task_build(cl, data, priority);
    struct PostBuild {
        starpu_codelet& cl;
        std::vector<starpu_data_descr>& data;
        int priority;
        ~PostBuild() { detail::mpi_task_post_build(cl, data, priority); }
    } post{cl, data, priority};
    if (!task) return;
    prepare_task(task, cl, args, args_size, priority, std::move(keep));
    submit_task(task);
}

}  // namespace tessera::codelets

long tessera::detail::live_tasks() { return codelets::g_live.load(); }
void tessera::detail::force_opencl_placement(bool on) { codelets::g_force_opencl.store(on); }

namespace tessera::tasks {

TensorScope::TensorScope(ocl::TensorFormat format) : saved_(codelets::g_tensor_scope) {
    codelets::g_tensor_scope = format;
}
TensorScope::~TensorScope() { codelets::g_tensor_scope = saved_; }
ocl::TensorFormat TensorScope::active() { return codelets::g_tensor_scope; }

}  // namespace tessera::tasks
