// Rank devices (runtime/rank_devices.hpp): each MPI rank's share of its node's OpenCL devices by
// node-local rank, read from the launcher's environment, and when the Runtime leaves StarPU's
// choice alone. StarPU-free: starpu_conf is only filled, StarPU never starts.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "runtime/rank_devices.hpp"
#include "tessera/types.hpp"

namespace tessera::detail {
namespace {

TEST(RankDevices, SharesOfTheNodesDevices) {
    using V = std::vector<int>;
    EXPECT_EQ(rank_devices(0, 2, 4), (V{0, 1}));  // more devices than ranks: contiguous shares
    EXPECT_EQ(rank_devices(1, 2, 4), (V{2, 3}));
    EXPECT_EQ(rank_devices(0, 2, 3), (V{0}));     // shares differ by one at most
    EXPECT_EQ(rank_devices(1, 2, 3), (V{1, 2}));
    EXPECT_EQ(rank_devices(1, 2, 2), (V{1}));     // one each
    EXPECT_EQ(rank_devices(2, 4, 2), (V{0}));     // fewer devices than ranks: shared round robin
    EXPECT_EQ(rank_devices(3, 4, 2), (V{1}));
    EXPECT_TRUE(rank_devices(0, 2, 0).empty());   // no device
    EXPECT_TRUE(rank_devices(-1, 0, 2).empty());  // not under a launcher
}

struct ScopedEnv {
    std::vector<std::string> names;
    void set(const char* name, const char* value) {
        setenv(name, value, 1);
        names.emplace_back(name);
    }
    ~ScopedEnv() {
        for (const std::string& n : names) unsetenv(n.c_str());
    }
};

TEST(RankDevices, LocalRankFromTheLauncher) {
    ScopedEnv env;
    EXPECT_EQ(local_rank_from_environment().rank, -1);
    env.set("OMPI_COMM_WORLD_LOCAL_RANK", "1");
    env.set("OMPI_COMM_WORLD_LOCAL_SIZE", "2");
    EXPECT_EQ(local_rank_from_environment().rank, 1);
    EXPECT_EQ(local_rank_from_environment().size, 2);
    env.set("OMPI_COMM_WORLD_LOCAL_RANK", "2");  // out of range: ignored
    EXPECT_EQ(local_rank_from_environment().rank, -1);
}

TEST(RankDevices, ConfiguresStarpuUnlessTheUserChose) {
    ScopedEnv env;
    env.set("OMPI_COMM_WORLD_LOCAL_RANK", "1");
    env.set("OMPI_COMM_WORLD_LOCAL_SIZE", "2");
    starpu_conf conf{};
    conf.nopencl = -1;
    EXPECT_NE(assign_rank_devices(conf, true, 4).find("local rank 1 of 2: OpenCL devices 2, 3 of 4"), std::string::npos);
    EXPECT_EQ(conf.nopencl, 2);
    EXPECT_EQ(conf.use_explicit_workers_opencl_gpuid, 1u);
    EXPECT_EQ(conf.workers_opencl_gpuid[0], 2u);
    EXPECT_EQ(conf.workers_opencl_gpuid[1], 3u);

    starpu_conf untouched{};
    untouched.nopencl = -1;
    assign_rank_devices(untouched, false, 4);  // one process: every device
    EXPECT_EQ(untouched.nopencl, -1);
    env.set("STARPU_WORKERS_OPENCLID", "0");  // the user's choice wins
    EXPECT_NE(assign_rank_devices(untouched, true, 4).find("STARPU_WORKERS_OPENCLID"), std::string::npos);
    EXPECT_EQ(untouched.nopencl, -1);
    unsetenv("STARPU_WORKERS_OPENCLID");
    env.set("TESSERA_RANK_DEVICES", "0");
    assign_rank_devices(untouched, true, 4);
    EXPECT_EQ(untouched.nopencl, -1);
    env.set("TESSERA_RANK_DEVICES", "maybe");
    EXPECT_THROW(assign_rank_devices(untouched, true, 4), Error);
}

}  // namespace
}  // namespace tessera::detail
