// Test main of the StarPU-backed tests: registers the Runtime environment, then runs every test.
#include "tests/test_env.hpp"

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    tessera::test::RuntimeEnvironment::instance();
    return RUN_ALL_TESTS();
}
