# tessera-tester --profile names the tasks a performance-model scheduler placed to calibrate
# (issue 39: "a slow run says why"). In the mixed mode (one CPU worker, PoCL's OpenCL device,
# dmdas), with a StarPU home of its own:
#   cmake -DTESTER=path -DHOME_DIR=dir -P profile_calibration.cmake
# 1. Fresh home: every model lacks samples, so the profile's `uncalibrated:` line names dpotrf.
# 2. A second process, after six warm-up runs with STARPU_CALIBRATE_MINIMUM=1 (one sample makes a
#    model calibrated; StarPU drops the first measurement of each footprint on each kind of worker,
#    so that takes two runs per kind) and STARPU_HISTORY_MAX_ERROR=1000000 (no sample of these
#    microsecond tasks is rejected, nor a model flushed, for deviating from the mean on a loaded
#    machine): every task was placed by its model, so the profile has no such line and its uncalib
#    column holds zeros only.
include(${CMAKE_CURRENT_LIST_DIR}/fresh_mixed_home.cmake)

function(run_profiled var)
  execute_process(COMMAND ${TESTER} potrf --n 128 --nb 32 --check --profile ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "exit code ${rc}, expected 0")
  endif()
  set(${var} "${out}${err}" PARENT_SCOPE)
endfunction()

run_profiled(first)
if(NOT first MATCHES "uncalibrated: [^\n]*dpotrf [0-9]+ of [0-9]+ on (CPU|OpenCL)")
  message(FATAL_ERROR "the first run in a fresh home does not name dpotrf as uncalibrated")
endif()

set(ENV{STARPU_CALIBRATE_MINIMUM} 1)
set(ENV{STARPU_HISTORY_MAX_ERROR} 1000000)
run_profiled(calibrated --warmup 6)
if(calibrated MATCHES "uncalibrated:")
  message(FATAL_ERROR "a run after calibration still reports uncalibrated tasks")
endif()
# Each codelet row: name, worker kind, tasks, seconds, mean_ms, uncalib (0 once calibrated).
string(REGEX MATCHALL "\n  d[a-z]+ +(CPU|OpenCL) +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9]+" rows "${calibrated}")
list(LENGTH rows nrows)
if(nrows EQUAL 0)
  message(FATAL_ERROR "no codelet rows in the profile")
endif()
foreach(row IN LISTS rows)
  if(NOT row MATCHES " 0$")
    message(FATAL_ERROR "a calibrated run's codelet row has uncalibrated tasks: ${row}")
  endif()
endforeach()
