// GoogleTest environment of Tessera's StarPU tests: one Runtime per test process, configured by the
// mode ctest runs it in (TESSERA_TEST_MODE, set with the matching StarPU variables by
// tests/CMakeLists.txt):
//   cpu    — CPU workers only (STARPU_NOPENCL=0)
//   opencl — one CPU worker and PoCL's OpenCL device; tasks whose codelet has an OpenCL
//            implementation run only on the OpenCL worker (Placement::OpenCLOnly); tile storage
//            pinned through the OpenCL driver (HostMemory::Pinned), as on a GPU
//   mixed  — the same workers under dmdas, placement left to the scheduler
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <memory>
#include <string>

#include "tessera/tessera.hpp"

namespace tessera::test {

inline std::string mode() {
    const char* m = std::getenv("TESSERA_TEST_MODE");
    return m ? m : "cpu";
}

class RuntimeEnvironment : public ::testing::Environment {
public:
    void SetUp() override {
        RuntimeConfig config;
        if (mode() == "opencl") {
            config.placement = Placement::OpenCLOnly;
            config.host_memory = HostMemory::Pinned;
        }
        runtime_ = std::make_unique<Runtime>(config);
        if (mode() != "cpu") ASSERT_GE(runtime_->opencl_workers(), 1) << "mode " << mode() << " needs an OpenCL device";
        else ASSERT_EQ(runtime_->opencl_workers(), 0);
    }
    void TearDown() override { runtime_.reset(); }
    /// Stop the Runtime and start a new one configured the same way (a test of what outlives one).
    static void restart_runtime(const std::function<void()>& while_stopped) {
        instance()->runtime_.reset();
        while_stopped();
        instance()->SetUp();
    }
    static Runtime& runtime() { return *instance()->runtime_; }
    static RuntimeEnvironment* instance() {
        static RuntimeEnvironment* env = static_cast<RuntimeEnvironment*>(
            ::testing::AddGlobalTestEnvironment(new RuntimeEnvironment));
        return env;
    }

private:
    std::unique_ptr<Runtime> runtime_;
};

/// Tasks run by CPU workers and by OpenCL workers since the last reset.
struct TaskCounts {
    long cpu = 0, opencl = 0;
};
inline TaskCounts task_counts() {
    TaskCounts c;
    for (const WorkerStats& w : RuntimeEnvironment::runtime().worker_stats()) (w.opencl ? c.opencl : c.cpu) += w.executed_tasks;
    return c;
}

/// Resets the per-worker task counts before each test and, in opencl mode, checks afterwards
/// that the OpenCL worker ran the tasks: every task of the test when `opencl_only` (all its
/// codelets have OpenCL implementations), at least one otherwise.
class RuntimeTest : public ::testing::Test {
protected:
    void SetUp() override { RuntimeEnvironment::runtime().reset_stats(); }
    void TearDown() override {
        if (mode() != "opencl" || !expect_opencl_) return;
        Runtime::wait_all();
        const TaskCounts c = task_counts();
        EXPECT_GT(c.opencl, 0) << "no task ran on the OpenCL worker";
        if (opencl_only_) EXPECT_EQ(c.cpu, 0) << "tasks with an OpenCL implementation ran on a CPU worker";
    }
    /// The test submits tasks that may run on CPU workers only (e.g. CPU-only panels).
    void allow_cpu_tasks() { opencl_only_ = false; }
    /// The test submits no task at all (argument checks, empty matrices).
    void expect_no_tasks() { expect_opencl_ = false; }

private:
    bool opencl_only_ = true, expect_opencl_ = true;
};

}  // namespace tessera::test
