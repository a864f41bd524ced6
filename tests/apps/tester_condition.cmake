# tessera-tester's condition number estimates (gecon, pocon, trcon) checked against LAPACKE's
# xGECON / xPOCON / xTRCON on the same factors and, n ≤ 512, the exact rcond from the inverse
# (check::rcond_error), with --cond matrices in double and the default ones elsewhere, and the
# refusal of a norm the estimates do not take. Included by tests/apps/CMakeLists.txt (apps_test); CPU
# workers, each run well under a second.
if(TARGET tessera-tester)
  set(tester $<TARGET_FILE:tessera-tester>)
  set(row "[0-9.e+-]+  pass")  # the error column, then the status
  apps_test(tester.condition.dgecon_cond 0 "gecon +d .*${row}"
            ${tester} gecon --prec d --n 300 --nb 64 --norm I --cond 1e10 --check)
  apps_test(tester.condition.zgecon 0 "gecon +z .*${row}"
            ${tester} gecon --prec z --n 150 --nb 32 --check)
  apps_test(tester.condition.spocon 0 "pocon +s .*${row}"
            ${tester} pocon --prec s --n 200 --nb 64 --uplo U --check)
  apps_test(tester.condition.dpocon_cond 0 "pocon +d .*${row}"
            ${tester} pocon --prec d --n 200 --nb 64 --uplo L --cond 1e8 --check)
  apps_test(tester.condition.ctrcon 0 "trcon +c .*${row}"
            ${tester} trcon --prec c --n 150 --nb 32 --uplo U --norm O --check)
  apps_test(tester.condition.dtrcon_cond 0 "trcon +d .*${row}"
            ${tester} trcon --prec d --n 200 --nb 64 --uplo L --diag U --norm I --cond 1e6 --check)
  apps_test(errors.tester.gecon_bad_norm 2 "gecon: argument 'norm' = 'F'"
            ${tester} gecon --n 10 --norm F)
endif()
