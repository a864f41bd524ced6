# tessera-tester in complex precisions on PoCL's OpenCL device (issue 15): the randomized residuals
# (--check-random) and device-resident runs (--resident) in c and z, conjugate transposes included.
# Included by tests/apps/CMakeLists.txt (apps_test: exit code and output regex); one OpenCL worker
# and one CPU worker, as the opencl mode of the unit tests, whose PoCL kernel cache they share (the
# same programs: compiling the complex kernels again took minutes under the sanitizers). The
# placement prior is off, as in the mixed mode (tests/CMakeLists.txt): the tasks may run on PoCL.
if(TARGET tessera-tester)
  set(tester ${CMAKE_COMMAND} -E env STARPU_OPENCL_ON_CPUS=1 STARPU_NOPENCL=1 STARPU_NCPU=1 TESSERA_PLACEMENT_PRIOR=0
             POCL_CACHE_DIR=${CMAKE_BINARY_DIR}/test-home/pocl $<TARGET_FILE:tessera-tester>)
  set(row "[0-9.e+-]+  pass")  # the error column, then the status
  apps_test(tester.complex.zgemm_conj 0 "gemm +z .*${row}"
            ${tester} gemm --prec z --transA C --transB T --m 150 --n 130 --k 170 --nb 64 --check-random --resident)
  apps_test(tester.complex.cpotrf_upper 0 "potrf +c .*${row}"
            ${tester} potrf --prec c --uplo U --n 300 --nb 64 --check-random --resident)
  apps_test(tester.complex.zgetrf 0 "getrf +z .*${row}" ${tester} getrf --prec z --n 300 --nb 64 --check-random)
  apps_test(tester.complex.cgeqrf 0 "geqrf +c .*${row}"
            ${tester} geqrf --prec c --m 300 --n 200 --nb 64 --check-random --resident)
  apps_test(tester.complex.zunmqr_right 0 "unmqr +z .*${row}"
            ${tester} unmqr --prec z --side R --trans C --m 200 --n 250 --nrhs 130 --nb 64 --check)
endif()
