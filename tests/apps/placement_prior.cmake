# The placement prior and the calibration command (issue 39), in the mixed mode (one CPU worker,
# PoCL's OpenCL device, dmdas) with a StarPU home of its own, fresh each run:
#   cmake -DTESTER=path -DTUNE=path -DHOME_DIR=dir -P placement_prior.cmake
# 1. The first start measures the CPU's worker rates (s and d) into
#    $STARPU_HOME/.tessera/worker_rates.txt; the OpenCL device's rate of a precision is measured when
#    its program is first built, at the first task of that precision: a double run adds d only, a
#    single run then adds s.
# 2. With no history (models removed), the first run's double tasks go where the rates put them:
#    rates that make the OpenCL device 10^6 times faster than a core keep every task of a codelet
#    with an OpenCL implementation off the CPU, and the reverse keeps them off OpenCL; the results
#    pass their check either way. A malformed line is named in one warning and skipped.
# 2b. Rates within the factor of 10 (the CPU a third of the device): codelets spanning a tile column
#    (getrf_panel, laswp) stay off the CPU all the same.
# 2c. A product with one column is bound by reading its tile: a core's estimate is then its bytes
#    floor, a lower bound, and an uncalibrated CPU estimated more than kRuleOutFactorBytes (2) times
#    the best is ruled out. Rates CPU 100 / OpenCL 10: a 64 trsm (gemm) with one column is 0.04
#    (0.08) µs on a core by its flops but 3.3 µs by its 33 KB, against 0.41 (0.82) µs on OpenCL:
#    4-8 times, within the factor 10 of tile codelets.
# 3. TESSERA_PLACEMENT_PRIOR accepts 0 and 1 only: another value is refused (exit 2) naming it.
# 4. tessera-tune --calibrate (STARPU_CALIBRATE_MINIMUM=2: three measurements per footprint, the
#    first dropped) ends calibrated on both kinds of worker, and then a run of each routine at the
#    calibrated nb has no task placed to calibrate (no "uncalibrated:" line in its profile).
#    STARPU_HISTORY_MAX_ERROR=1000000: no sample of these millisecond tasks is rejected, nor a model
#    flushed, for deviating from the mean on a loaded machine.
include(${CMAKE_CURRENT_LIST_DIR}/fresh_mixed_home.cmake)
set(rates_file "${HOME_DIR}/.tessera/worker_rates.txt")

function(run var rc_expected)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}${err}")
  if(NOT rc EQUAL rc_expected)
    message(FATAL_ERROR "exit code ${rc}, expected ${rc_expected}: ${ARGN}")
  endif()
  set(${var} "${out}${err}" PARENT_SCOPE)
endfunction()

set(potrf ${TESTER} potrf --prec d --n 256 --nb 64 --check --profile)

# 1.
run(out 0 ${potrf})
file(STRINGS "${rates_file}" rates REGEX "^[sd] ")
foreach(want "s [0-9.e+]+ cpu: " "d [0-9.e+]+ cpu: " "d [0-9.e+]+ opencl: ")
  if(NOT rates MATCHES "${want}")
    message(FATAL_ERROR "worker_rates.txt has no line '${want}...': ${rates}")
  endif()
endforeach()
if(rates MATCHES "s [0-9.e+]+ opencl: ")
  message(FATAL_ERROR "a double run measured the OpenCL device's single rate (built the s program): ${rates}")
endif()
run(out 0 ${TESTER} potrf --prec s --n 256 --nb 64 --check)
file(STRINGS "${rates_file}" rates REGEX "^[sd] ")
if(NOT rates MATCHES "s [0-9.e+]+ opencl: ")
  message(FATAL_ERROR "worker_rates.txt has no line 's ... opencl: ...' after a single run: ${rates}")
endif()
string(REGEX MATCH "cpu: [^;]*" cpu_name "${rates}")
string(REGEX MATCH "opencl: [^;]*" ocl_name "${rates}")

# A first run (no history) of the tester command in ARGN under the double rates (GFLOP/s) of the CPU
# and of the OpenCL device, plus the extra lines of worker_rates.txt; its check must pass.
function(first_run var cpu_rate ocl_rate extra)
  file(WRITE "${rates_file}" "d ${cpu_rate} ${cpu_name}\nd ${ocl_rate} ${ocl_name}\n${extra}")
  file(REMOVE_RECURSE "${HOME_DIR}/.starpu/sampling")
  run(out 0 ${ARGN})
  list(GET ARGN 1 op)
  if(NOT out MATCHES "${op} +d .* pass")
    message(FATAL_ERROR "the first ${op} run's check did not pass")
  endif()
  set(${var} "${out}" PARENT_SCOPE)
endfunction()

# 2. Each codelet row of the profile: name, worker kind, tasks, ...
function(first_run_on cpu_rate ocl_rate kept_off)
  first_run(out ${cpu_rate} ${ocl_rate} "d fast ${ocl_name}\n" ${potrf})
  if(NOT out MATCHES "warning: [^\n]*worker_rates.txt:3: GFLOP/s 'fast' is not a positive number; line ignored")
    message(FATAL_ERROR "no warning naming the malformed line 3 of worker_rates.txt")
  endif()
  string(REGEX MATCHALL "\n  d(gemm|syrk|trsm|trmm|trtri|potrf) +(CPU|OpenCL) +[0-9]+" rows "${out}")
  if(NOT rows)
    message(FATAL_ERROR "no codelet rows in the profile")
  endif()
  foreach(row IN LISTS rows)
    if(row MATCHES " ${kept_off} ")
      message(FATAL_ERROR "rates d ${cpu_rate} (CPU) / ${ocl_rate} (OpenCL), first run: a task ran on ${kept_off}: ${row}")
    endif()
  endforeach()
endfunction()
first_run_on(1 1000000 CPU)
first_run_on(1000000 1 OpenCL)

# A first run (first_run) under the rates CPU / OpenCL: the profile has a task of `on_opencl` on
# OpenCL and none of the codelets `off_cpu` (a regex) on the CPU.
function(first_run_off_cpu cpu_rate ocl_rate on_opencl off_cpu)
  first_run(out ${cpu_rate} ${ocl_rate} "" ${ARGN})
  if(NOT out MATCHES "\n  d${on_opencl} +OpenCL +[0-9]+")
    message(FATAL_ERROR "no ${on_opencl} task on OpenCL in the profile")
  endif()
  if(out MATCHES "\n  d(${off_cpu}) +CPU +[0-9]+")
    message(FATAL_ERROR "rates d ${cpu_rate} (CPU) / ${ocl_rate} (OpenCL), first run: a ${off_cpu} task ran on the CPU")
  endif()
endfunction()

# 2b. Codelets spanning a tile column (the LU panel, laswp) meet each footprint once per run: with no
#     history, a kind estimated slower at all is ruled out for them (kRuleOutFactorColumn), here the
#     CPU at a third of the OpenCL device's rate, within the factor 10 of tile codelets.
first_run_off_cpu(1 3 getrf_panel "getrf_panel|laswp" ${TESTER} getrf --prec d --n 192 --nb 64 --check --profile)

# 2c.
first_run_off_cpu(100 10 trsm "trsm|gemm" ${TESTER} trsm --prec d --m 192 --n 1 --nb 64 --side L --check --profile)

# 3.
set(ENV{TESSERA_PLACEMENT_PRIOR} maybe)
run(out 2 ${potrf})
if(NOT out MATCHES "TESSERA_PLACEMENT_PRIOR='maybe': expected 1")
  message(FATAL_ERROR "TESSERA_PLACEMENT_PRIOR=maybe was not refused naming the variable")
endif()
unset(ENV{TESSERA_PLACEMENT_PRIOR})

# 4.
file(REMOVE_RECURSE "${HOME_DIR}")
set(ENV{STARPU_CALIBRATE_MINIMUM} 2)
set(ENV{STARPU_HISTORY_MAX_ERROR} 1000000)
run(out 0 ${TUNE} --calibrate --prec d --nb 64 --tiles 3)
foreach(want "dpotrf nb 64 on OpenCL: run 1" "dgemm nb 64 on CPU\\+OpenCL: run 1" "calibrate: done")
  if(NOT out MATCHES "${want}")
    message(FATAL_ERROR "tessera-tune --calibrate printed no '${want}'")
  endif()
endforeach()
foreach(op potrf getrf geqrf gemm)
  run(out 0 ${TESTER} ${op} --prec d --n 192 --nb 64 --check --profile)
  if(out MATCHES "uncalibrated:")
    message(FATAL_ERROR "${op} after tessera-tune --calibrate still has tasks placed to calibrate")
  endif()
endforeach()
