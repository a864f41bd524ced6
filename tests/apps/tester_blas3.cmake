# tessera-tester's BLAS 3 operations of issue 46 (trmm, symm, hemm, syr2k, her2k) checked against
# CBLAS on the same data, and the refusal of a transpose her2k does not take. Included by
# tests/apps/CMakeLists.txt (apps_test); CPU workers, each run well under a second.
if(TARGET tessera-tester)
  set(tester $<TARGET_FILE:tessera-tester>)
  set(row "[0-9.e+-]+  pass")  # the error column, then the status
  apps_test(tester.blas3.dtrmm 0 "trmm +d .*${row}"
            ${tester} trmm --prec d --m 150 --n 230 --nb 64 --side R --uplo U --trans T --diag U --check)
  apps_test(tester.blas3.ztrmm 0 "trmm +z .*${row}"
            ${tester} trmm --prec z --m 170 --n 120 --nb 64 --side L --uplo L --trans C --check)
  apps_test(tester.blas3.ssymm 0 "symm +s .*${row}"
            ${tester} symm --prec s --m 200 --n 130 --nb 64 --side R --uplo U --check)
  apps_test(tester.blas3.chemm 0 "hemm +c .*${row}"
            ${tester} hemm --prec c --m 130 --n 200 --nb 64 --side L --uplo L --check)
  apps_test(tester.blas3.dsyr2k 0 "syr2k +d .*${row}"
            ${tester} syr2k --prec d --n 200 --k 90 --nb 64 --uplo U --trans T --check)
  apps_test(tester.blas3.zher2k 0 "her2k +z .*${row}"
            ${tester} her2k --prec z --n 150 --k 200 --nb 64 --uplo L --trans C --check)
  apps_test(errors.tester.her2k_trans 2 "'trans'"
            ${tester} her2k --prec c --n 20 --trans T)
endif()
