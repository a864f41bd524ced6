# StarPU's environment (issue 38): StarPU 1.3 aborts (an assertion, exit 134) on a malformed number,
# a negative count, a bad worker list or a home it cannot write. The Runtime checks them before StarPU
# reads them (runtime/starpu_env.cpp): one line naming the variable and its value, exit 2.
# Included by tests/apps/CMakeLists.txt; `cmake -E env` sets the variable over APPS_ENV.
if(TARGET tessera-tester)
  set(tester $<TARGET_FILE:tessera-tester>)
  set(env ${CMAKE_COMMAND} -E env)
  foreach(case "STARPU_NCPU:-1" "STARPU_NCPU:abc" "STARPU_NCPU:1.5" "STARPU_NCPU:99999999999" "STARPU_NCPUS:-2"
               "STARPU_NOPENCL:-1" "STARPU_NCUDA:x" "STARPU_CALIBRATE:abc" "STARPU_CALIBRATE:3" "STARPU_BUS_CALIBRATE:2"
               "STARPU_SCHED_BETA:abc" "STARPU_SCHED_ALPHA:inf" "STARPU_WORKERS_CPUID:zz" "STARPU_WORKERS_CPUID:-1"
               "STARPU_WORKERS_CPUID:0,x" "STARPU_WORKERS_OPENCLID:a" "STARPU_LIMIT_CPU_MEM:abc"
               "STARPU_LIMIT_OPENCL_0_MEM:-5" "STARPU_NTHREADS_PER_CORE:0" "STARPU_MINIMUM_CLEAN_BUFFERS:-1"
               "STARPU_OPENCL_PIPELINE:z" "STARPU_SILENT:yes")
    string(REPLACE ":" ";" parts "${case}")
    list(GET parts 0 var)
    list(GET parts 1 value)
    string(MAKE_C_IDENTIFIER "${var}_${value}" id)
    string(REPLACE "." "\\." shown "${value}")
    apps_test(starpu_env.${id} 2 "^tessera-tester: tessera::Runtime: ${var}='${shown}' must be [ -~]*.?$"
              ${env} ${var}=${value} ${tester} potrf --n 10 --nb 5)
  endforeach()
  # A home StarPU cannot create its model directory in: /proc, a regular file, a missing parent.
  apps_test(starpu_env.home_proc 2
            "^tessera-tester: tessera::Runtime: STARPU_HOME='/proc' cannot hold StarPU's performance models[ -~]*.?$"
            ${env} --unset=XDG_CACHE_HOME STARPU_HOME=/proc ${tester} potrf --n 10 --nb 5)
  apps_test(starpu_env.home_file 2
            "^tessera-tester: tessera::Runtime: STARPU_HOME='[ -~]*expect.cmake' cannot hold StarPU's performance models[ -~]*not a directory[ -~]*.?$"
            ${env} --unset=XDG_CACHE_HOME STARPU_HOME=${CMAKE_CURRENT_SOURCE_DIR}/expect.cmake ${tester} potrf --n 10 --nb 5)
  apps_test(starpu_env.model_dir_proc 2
            "^tessera-tester: tessera::Runtime: STARPU_PERF_MODEL_DIR='/proc/tessera' cannot hold [ -~]*.?$"
            ${env} STARPU_PERF_MODEL_DIR=/proc/tessera ${tester} potrf --n 10 --nb 5)
  # No worker at all: starpu_init fails (-ENODEV), one line, never an abort.
  apps_test(starpu_env.no_worker 2 "^tessera-tester: tessera::Runtime: starpu_init failed \\(-ENODEV\\): no worker[ -~]*.?$"
            ${env} STARPU_NCPU=0 STARPU_NOPENCL=0 ${tester} potrf --n 10 --nb 5)
  # A read-only home holding calibrated models runs on a temporary copy of them.
  add_test(NAME starpu_env.readonly_home COMMAND ${CMAKE_COMMAND} -DTESTER=${tester}
           -DHOME=${CMAKE_BINARY_DIR}/test-home/readonly-home -P ${CMAKE_CURRENT_SOURCE_DIR}/readonly_home.cmake)
  set_tests_properties(starpu_env.readonly_home PROPERTIES TIMEOUT 300 LABELS apps SKIP_REGULAR_EXPRESSION "SKIPPED:")

  # The memory check counts each tile's StarPU handle and bookkeeping (about 5 KB), not only its
  # scalars: 20000 x 20000 floats in 1 x 1 tiles are 1.6 GB of scalars, 2 TB with their handles
  # (it used to start, and grow past 10 GB before being killed); a tile count whose bytes overflow
  # 64 bits (1e16 tiles, while the 1e8 x 1e8 scalars themselves fit) names --nb.
  apps_test(errors.tester.tile_overhead 2
            "^tessera-tester: potrf --n 20000 --nb 1: needs [0-9]+ GB of host memory, [0-9.]+ GB available.?$"
            ${tester} potrf --n 20000 --nb 1 --prec s)
  apps_test(errors.tester.tile_bytes_overflow 2
            "^tessera-tester: --nb 1: the tiles of a 100000000 x 100000000 matrix have more bytes than a 64-bit count can hold.?$"
            ${tester} potrf --n 100000000 --nb 1)
endif()
