# tessera-tester's inverses of issue 46 (trtri, lauum, potri, getri) checked with LAPACK's ratios
# (xTRT01, xPOT03, xGET03) and lauum against CBLAS on the same data, and the refusal of an option
# getri does not read. Included by tests/apps/CMakeLists.txt (apps_test); CPU workers, each run well
# under a second.
if(TARGET tessera-tester)
  set(tester $<TARGET_FILE:tessera-tester>)
  set(row "[0-9.e+-]+  pass")  # the error column, then the status
  apps_test(tester.inverse.dtrtri 0 "trtri +d .*${row}"
            ${tester} trtri --prec d --n 230 --nb 64 --uplo U --diag U --check)
  apps_test(tester.inverse.ctrtri 0 "trtri +c .*${row}"
            ${tester} trtri --prec c --n 170 --nb 64 --uplo L --check)
  apps_test(tester.inverse.slauum 0 "lauum +s .*${row}"
            ${tester} lauum --prec s --n 200 --nb 64 --uplo L --check)
  apps_test(tester.inverse.zpotri 0 "potri +z .*${row}"
            ${tester} potri --prec z --n 150 --nb 64 --uplo U --check)
  apps_test(tester.inverse.dgetri 0 "getri +d .*${row}"
            ${tester} getri --prec d --n 250 --nb 64 --check)
  apps_test(errors.tester.getri_uplo 2 "--uplo does not apply to getri"
            ${tester} getri --prec d --n 20 --uplo U)
endif()
