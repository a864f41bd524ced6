# tessera-tester's matrix norms (lange, lansy, lanhe, lantr with --norm) checked against LAPACKE's
# xLANGE / xLANSY / xLANHE / xLANTR, and the refusal of --norm where it is not read and of a bad
# norm letter. Included by tests/apps/CMakeLists.txt (apps_test); CPU workers, each run well under
# a second.
if(TARGET tessera-tester)
  set(tester $<TARGET_FILE:tessera-tester>)
  set(row "[0-9.e+-]+  pass")  # the error column, then the status
  apps_test(tester.norms.zlange_fro 0 "lange +z .*${row}"
            ${tester} lange --prec z --m 300 --n 200 --nb 64 --norm F --check)
  apps_test(tester.norms.slantr_one 0 "lantr +s .*${row}"
            ${tester} lantr --prec s --m 150 --n 230 --nb 64 --uplo U --diag U --norm O --check)
  apps_test(tester.norms.clanhe_inf 0 "lanhe +c .*${row}"
            ${tester} lanhe --prec c --n 200 --nb 64 --uplo L --norm I --check)
  apps_test(tester.norms.dlansy_max 0 "lansy +d .*${row}"
            ${tester} lansy --prec d --n 200 --nb 64 --uplo U --norm M --check)
  apps_test(errors.tester.norm_not_read 2 "^tessera-tester: --norm does not apply to gemm [ -~]*.?$"
            ${tester} gemm --n 10 --norm F)
  apps_test(errors.tester.bad_norm 2 "--norm"
            ${tester} lange --n 10 --norm X)
endif()
