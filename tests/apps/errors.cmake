# The command-line tools' error discipline (issue 13; examples/common/tool_main.hpp): every refusal
# is one line and exit code 2, before any work; no exception escapes main (an abort would give no
# exit code at all). Included by tests/apps/CMakeLists.txt, whose apps_test() checks the exit code
# exactly and the output against a regex. Each test refuses before allocating, in well under a second.
# Sizes are chosen beyond any machine's memory (petabytes), so that the refusals hold everywhere.
# "^...[ -~]*.?$" asserts a single line: printable characters up to the one final newline.

if(TARGET tessera-tester)
  set(tester $<TARGET_FILE:tessera-tester>)
  # A tile size whose tiles cannot be addressed: named, refused, never a row that says pass.
  apps_test(errors.tester.nb_2_31 2 "^tessera-tester: --nb 2147483648: [ -~]*.?$"
            ${tester} potrf --n 10 --nb 2147483648)
  apps_test(errors.tester.nb_int64_max 2 "^tessera-tester: --nb 9223372036854775807: [ -~]*.?$"
            ${tester} potrf --n 10 --nb 9223372036854775807)
  # Malformed integers: one CLI11 error line (std::stoll used to throw out of main: abort, 134).
  apps_test(errors.tester.n_not_a_number 2 "^tessera-tester: --n: must be an integer, got 'abc'.?$"
            ${tester} potrf --n abc)
  apps_test(errors.tester.n_beyond_int64 2
            "^tessera-tester: --n: must be an integer from 0 to 9223372036854775807, got 99999999999999999999.?$"
            ${tester} potrf --n 99999999999999999999)
  # More memory than the machine has: refused with both figures before any matrix is allocated
  # (--nb is the tuned tile size of this machine)
  # (the row of issue 13 is --n 200000, 320 GB; 20000000 needs 3.2 PB, beyond any host).
  apps_test(errors.tester.memory 2
            "^tessera-tester: potrf --n 20000000 --nb [0-9]+: needs [0-9]+ GB of host memory, [0-9.]+ GB available.?$"
            ${tester} potrf --n 20000000)
  # Element counts that overflow 64 bits name the option they come from.
  apps_test(errors.tester.size_overflow 2 "^tessera-tester: --n 99999999999: [ -~]*64-bit[ -~]*.?$"
            ${tester} potrf --n 99999999999)
  # An option the operation does not read is refused, not ignored.
  apps_test(errors.tester.option_not_read 2 "^tessera-tester: --m does not apply to potrf [ -~]*.?$"
            ${tester} potrf --m 50 --n 100)
  apps_test(errors.tester.resident_not_read 2 "^tessera-tester: --resident does not apply to posv [ -~]*.?$"
            ${tester} posv --n 100 --resident)
  # A malformed TESSERA_DEVICE_MAP is refused naming it, on a machine with any number of devices.
  apps_test(errors.tester.device_map_value 2 "^tessera-tester: [ -~]*TESSERA_DEVICE_MAP='maybe': expected 1[ -~]*.?$"
            ${CMAKE_COMMAND} -E env TESSERA_DEVICE_MAP=maybe ${tester} potrf --n 10)
  # So is a malformed TESSERA_IDLE_PREFETCH.
  apps_test(errors.tester.idle_prefetch_value 2 "^tessera-tester: [ -~]*TESSERA_IDLE_PREFETCH='yes': expected 1[ -~]*.?$"
            ${CMAKE_COMMAND} -E env TESSERA_IDLE_PREFETCH=yes ${tester} potrf --n 10)
  # So is a malformed TESSERA_PANEL_QUEUE.
  apps_test(errors.tester.panel_queue_value 2 "^tessera-tester: [ -~]*TESSERA_PANEL_QUEUE='on': expected 1[ -~]*.?$"
            ${CMAKE_COMMAND} -E env TESSERA_PANEL_QUEUE=on ${tester} potrf --n 10)
  # So is a TESSERA_IDLE_SLEEP_US that is no number of microseconds up to 100000.
  apps_test(errors.tester.idle_sleep_value 2 "^tessera-tester: [ -~]*TESSERA_IDLE_SLEEP_US='fast': expected an integer[ -~]*.?$"
            ${CMAKE_COMMAND} -E env TESSERA_IDLE_SLEEP_US=fast ${tester} potrf --n 10)
  apps_test(errors.tester.idle_sleep_range 2 "^tessera-tester: [ -~]*TESSERA_IDLE_SLEEP_US='200000': expected an integer[ -~]*.?$"
            ${CMAKE_COMMAND} -E env TESSERA_IDLE_SLEEP_US=200000 ${tester} potrf --n 10)
  # So is a malformed TESSERA_DEVICE_GRID (its P*Q against the devices: multi_device.grid_product).
  apps_test(errors.tester.device_grid_value 2 "^tessera-tester: [ -~]*TESSERA_DEVICE_GRID='2by1': expected PxQ[ -~]*.?$"
            ${CMAKE_COMMAND} -E env TESSERA_DEVICE_GRID=2by1 ${tester} potrf --n 10)
endif()

if(TARGET tessera_tune)
  set(tune $<TARGET_FILE:tessera_tune>)
  # Parsed inside the guarded main: refused before any OpenCL device is looked for.
  apps_test(errors.tune.size_not_a_number 2 "^tessera-tune: --size: must be an integer, got 'abc'.?$" ${tune} --size abc)
  apps_test(errors.tune.size_without_value 2 "^tessera-tune: --size needs a value[ -~]*.?$" ${tune} --size)
endif()

if(TARGET gp_kriging)
  # One training airport: no variance, no model; the message says so (it used to suggest --prec d).
  apps_test(errors.gp_kriging.too_few_points 2
            "^gp_kriging: --n 1: too few training airports for the model[ -~]*.?$"
            $<TARGET_FILE:gp_kriging> --n 1)
  # A tile stores what it holds, not nb x nb: --nb 1048576 on 10 points is one 10 x 10 tile and runs
  # (it used to ask for an 8.8 TB tile and be refused). TileMatrix's refusal of storage beyond the
  # machine is test_runtime's TileCountsAndTheirBookkeepingAreCheckedBeforeAllocating.
  apps_test(apps.gp_kriging.nb_beyond_matrix 0 "GP beats both baselines: pass"
            $<TARGET_FILE:gp_kriging> --n 10 --nb 1048576)
endif()
