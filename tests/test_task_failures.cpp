// Failures inside tasks and refused submissions (issue 13): an exception in a user's tile generator,
// an OpenCL launch failure, an allocation failure inside a task and a refused task submission each
// surface as the documented exception type with an informative message, the process and the
// Runtime survive, and the next factorization in the same Runtime is correct. The faults are
// injected through codelets/fault_injection.hpp (test-only hooks of the library).
#include <stdexcept>
#include <string>
#include <vector>

#include <starpu.h>

#include "codelets/fault_injection.hpp"
#include "examples/common/checks.hpp"
#include "examples/common/checks_lu.hpp"
#include "kernels/opencl/device.hpp"
#include "runtime/runtime_internal.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

using test::RuntimeTest;

class TaskFailures : public RuntimeTest {
protected:
    void TearDown() override {
        detail::inject_opencl_launch_failure(0);
        detail::inject_task_allocation_failure(0);
        detail::inject_submit_failure(0);
        detail::force_opencl_placement(false);
        RuntimeTest::TearDown();
    }
};

// The message of the TaskError `f` throws; a test failure (and "") if it throws nothing or another type.
template <class F>
std::string task_error_of(F&& f) {
    try {
        f();
    } catch (const TaskError& e) {
        return e.what();
    } catch (const std::exception& e) {
        ADD_FAILURE() << "expected tessera::TaskError, got another exception: " << e.what();
        return "";
    }
    ADD_FAILURE() << "expected tessera::TaskError, nothing was thrown";
    return "";
}

#define EXPECT_CONTAINS(text, part) EXPECT_NE(std::string(text).find(part), std::string::npos) << "in: " << (text)

// The Runtime still works after a failure: a potrf on a fresh matrix succeeds and is correct.
void expect_potrf_correct(int64_t n, int64_t nb, uint64_t seed) {
    auto a = check::random_spd<double>(n, n, seed), f = a;
    TileMatrix<double> A(n, n, nb);
    A.fill_from_lapack(a.data(), n);
    ASSERT_EQ(potrf(Uplo::Lower, A), 0);
    A.to_lapack(f.data(), n);
    EXPECT_LE(check::potrf_residual(Uplo::Lower, n, a.data(), n, f.data(), n), check::kThreshold);
}

// A generator that throws on the tile starting at (64, 32) and writes ones elsewhere.
void faulty_generator(int64_t i0, int64_t j0, int64_t rows, int64_t cols, double* tile, int64_t ld) {
    if (i0 == 64 && j0 == 32) throw std::runtime_error("generator refuses tile (64, 32)");
    for (int64_t j = 0; j < cols; ++j)
        for (int64_t i = 0; i < rows; ++i) tile[i + j * ld] = 1.0;
}

// (a) Tasks outside any Sequence: the generator's exception is the thread's next wait's TaskError.
TEST_F(TaskFailures, GeneratorExceptionIsTaskErrorAtTheNextWait) {
    allow_cpu_tasks();  // generate is a CPU codelet
    TileMatrix<double> A(128, 96, 32);
    A.generate(faulty_generator);
    const std::string message = task_error_of([&] { A.acquire_host(); });
    EXPECT_CONTAINS(message, "tessera: task dgenerate on CPU ");
    EXPECT_CONTAINS(message, "failed: generator refuses tile (64, 32)");
    EXPECT_NO_THROW(A.acquire_host()) << "a failure is reported once";
    expect_potrf_correct(150, 32, 3);
}

// (a) The same failure reported by the next algorithm's wait (its Sequence is sound: the
// thread's failure outside any sequence is thrown after it drained).
TEST_F(TaskFailures, GeneratorExceptionIsThrownByTheNextAlgorithm) {
    allow_cpu_tasks();
    TileMatrix<double> A(128, 128, 32);
    A.generate(faulty_generator);
    const std::string message = task_error_of([&] { potrf(Uplo::Lower, A); });
    EXPECT_CONTAINS(message, "generator refuses tile (64, 32)");
    expect_potrf_correct(128, 32, 5);
}

// (b) An OpenCL launch failure inside potrf: TaskError naming the codelet, the device and the call;
// every later task of the sequence skipped its work; the next potrf is correct.
TEST_F(TaskFailures, OpenCLLaunchFailureFailsThePotrfSequence) {
    if (test::RuntimeEnvironment::runtime().opencl_workers() == 0) GTEST_SKIP() << "no OpenCL worker";
    const int64_t n = 256, nb = 32;
    auto a = check::random_spd<double>(n, n, 21);
    TileMatrix<double> A(n, n, nb);
    A.fill_from_lapack(a.data(), n);
    A.acquire_host();  // the copies are done: the next launches are potrf's
    detail::force_opencl_placement(true);  // dmdas (mixed mode) might keep every task on the CPU
    RuntimeTest::SetUp();                   // reset the task counts
    const long before = detail::skipped_tasks();
    detail::inject_opencl_launch_failure(1);
    const std::string message = task_error_of([&] { potrf(Uplo::Lower, A); });
    detail::force_opencl_placement(false);
    const long skipped = detail::skipped_tasks() - before;
    const test::TaskCounts c = test::task_counts();
    // With OpenCL devices the diagonal tile's task is potrf_inverse, whose first launch clears the
    // inverse it writes: on the device's panel queue, driven by a CPU worker, where there is one.
    const bool panel = detail::panel_queue_node(A.handle(0, 0), 'd') >= 0;  // mixed mode: a CPU worker to drive it
    const std::string where = panel ? "dpotrf_inverse_panel on CPU " : "dpotrf_inverse on OpenCL 0";
    EXPECT_CONTAINS(message, "tessera: task " + where);
    EXPECT_CONTAINS(message, " failed: clEnqueueNDRangeKernel(tessera_laset)");
    EXPECT_CONTAINS(message, "returned -5 (CL_OUT_OF_RESOURCES)");
    // The first launch is potrf(0, 0)'s, on which every other task depends: all of them started
    // after the failure and skipped their work (skipped tasks still count as executed).
    EXPECT_GT(skipped, 100);
    EXPECT_EQ(skipped, c.cpu + c.opencl - 1);
    expect_potrf_correct(n, nb, 22);
}

// (c) An allocation failure inside a task (a workspace of incremental-pivoting LU's tstrf, a CPU
// codelet: getrf's panel now runs on OpenCL devices too): TaskError.
TEST_F(TaskFailures, AllocationFailureInsideATaskIsTaskError) {
    allow_cpu_tasks();  // tstrf is a CPU codelet
    const int64_t n = 160, nb = 32, nrhs = 2;
    auto a = check::random_matrix<double>(n, n, n, 31), b = check::random_matrix<double>(n, nrhs, n, 32), x = b;
    TileMatrix<double> A(n, n, nb), B(n, nrhs, nb);
    A.fill_from_lapack(a.data(), n);
    IncpivFactors<double> F;
    detail::inject_task_allocation_failure(3);  // each tstrf asks for one workspace
    const std::string message = task_error_of([&] { getrf_incpiv(A, F, {.nb = nb, .ib = 8}); });
    EXPECT_CONTAINS(message, "tessera: task dtstrf on CPU ");
    EXPECT_CONTAINS(message, "failed: out of memory (std::bad_alloc)");
    // The next LU in the same Runtime is correct.
    A.fill_from_lapack(a.data(), n);
    B.fill_from_lapack(b.data(), n);
    ASSERT_EQ(gesv_incpiv(A, F, B, {.nb = nb, .ib = 8}), 0);
    B.to_lapack(x.data(), n);
    EXPECT_LE(check::solve_residual(Trans::NoTrans, n, n, nrhs, a.data(), n, x.data(), n, b.data(), n), check::kThreshold);
}

// (d) A refused submission in the middle of potrf: tessera::Error (not TaskError) naming the task;
// the refused task is gone and the tasks already submitted have completed when potrf returns.
TEST_F(TaskFailures, RefusedSubmissionIsErrorAndLeavesNoTaskBehind) {
    const int64_t n = 192, nb = 32;
    auto a = check::random_spd<double>(n, n, 41);
    TileMatrix<double> A(n, n, nb);
    A.fill_from_lapack(a.data(), n);
    Runtime::wait_all();  // unlike acquire_host(), also waits for the copies' completion callbacks
    ASSERT_EQ(detail::live_tasks(), 0);
    detail::inject_submit_failure(10);
    std::string message;
    try {
        potrf(Uplo::Lower, A);
        ADD_FAILURE() << "potrf returned despite a refused submission";
    } catch (const TaskError& e) {
        ADD_FAILURE() << "a refused submission is not a failure inside a task: " << e.what();
    } catch (const Error& e) {
        message = e.what();
    }
    EXPECT_CONTAINS(message, "could not be submitted: no worker can run it (starpu_task_submit returned -ENODEV)");
    EXPECT_CONTAINS(message, "tessera: task d");
    // ~Sequence waited for the nine tasks submitted; the refused one was destroyed, not leaked.
    EXPECT_EQ(detail::live_tasks(), 0);
    EXPECT_NO_THROW(Runtime::wait_all());
    expect_potrf_correct(n, nb, 42);
}

// (d) The async form: the call throws Error, and the sequence, whose graph is incomplete, never
// reports success: its wait throws TaskError with the same message.
TEST_F(TaskFailures, RefusedSubmissionFailsTheAsyncSequence) {
    const int64_t n = 96, nb = 32;
    auto a = check::random_spd<double>(n, n, 43);
    TileMatrix<double> A(n, n, nb);
    A.fill_from_lapack(a.data(), n);
    A.acquire_host();
    Sequence seq;
    detail::inject_submit_failure(3);
    std::string refused;
    try {
        potrf_async(Uplo::Lower, A, seq);
    } catch (const Error& e) {
        refused = e.what();
    }
    EXPECT_CONTAINS(refused, "could not be submitted");
    EXPECT_EQ(task_error_of([&] { seq.wait(); }), refused);
    EXPECT_EQ(task_error_of([&] { seq.wait(); }), refused) << "a failed sequence stays failed";
    expect_potrf_correct(n, nb, 44);
}

// An invalid argument is refused before anything is submitted: the sequence stays usable.
TEST_F(TaskFailures, InvalidArgumentLeavesTheSequenceUsable) {
    const int64_t n = 70, nb = 32;
    auto a = check::random_spd<double>(n, n, 51), f = a;
    TileMatrix<double> A(n, n, nb), R(n, n + 1, nb);
    A.fill_from_lapack(a.data(), n);
    Sequence seq;
    try {
        potrf_async(Uplo::Lower, R, seq);
        ADD_FAILURE() << "a rectangular potrf was accepted";
    } catch (const TaskError& e) {
        ADD_FAILURE() << e.what();
    } catch (const Error& e) {
        EXPECT_CONTAINS(e.what(), "'A'");
    }
    potrf_async(Uplo::Lower, A, seq);
    EXPECT_EQ(seq.wait(), 0);
    A.to_lapack(f.data(), n);
    EXPECT_LE(check::potrf_residual(Uplo::Lower, n, a.data(), n, f.data(), n), check::kThreshold);
}

// The OpenCL failures of the Runtime's start are tessera::Error naming the call: a kernel table built
// from an invalid program (on StarPU's context of device 0) fails in clCreateKernelsInProgram.
TEST_F(TaskFailures, OpenCLFailureBuildingKernelsIsErrorNamingTheCall) {
    expect_no_tasks();
    if (test::RuntimeEnvironment::runtime().opencl_workers() == 0) GTEST_SKIP() << "no OpenCL worker";
    cl_context ctx;
    cl_device_id dev;
    starpu_opencl_get_context(0, &ctx);
    starpu_opencl_get_device(0, &dev);
    std::string message;
    try {
        ocl::DeviceKernels kernels(ctx, dev, nullptr, 's', ocl::query_device(dev));
        ADD_FAILURE() << "kernels built from no program";
    } catch (const Error& e) {
        message = e.what();
    }
    EXPECT_CONTAINS(message, "clCreateKernelsInProgram returned -44 (CL_INVALID_PROGRAM)");
}

}  // namespace
}  // namespace tessera
