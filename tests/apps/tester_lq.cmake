# tessera-tester's LQ operations (gelqf, unmlq with --side and --trans, unglq) with --check: LAPACK's
# xLQT01 ratios and unmlq against the explicit Q; wide, tall and partial-tile shapes, s, d, c, z.
# Included by tests/apps/CMakeLists.txt (apps_test); CPU workers, each run well under a second.
if(TARGET tessera-tester)
  set(tester $<TARGET_FILE:tessera-tester>)
  set(row "[0-9.e+-]+  pass")  # the error column, then the status
  apps_test(tester.lq.dgelqf_wide 0 "gelqf +d .*${row}"
            ${tester} gelqf --prec d --m 150 --n 330 --nb 64 --ib 16 --check)
  apps_test(tester.lq.zgelqf_tall 0 "gelqf +z .*${row}"
            ${tester} gelqf --prec z --m 200 --n 130 --nb 48 --ib 12 --check)
  apps_test(tester.lq.cunmlq_right_conj 0 "unmlq +c .*${row}"
            ${tester} unmlq --prec c --m 120 --n 250 --nrhs 40 --nb 64 --side R --trans C --check)
  apps_test(tester.lq.sunmlq_left 0 "unmlq +s .*${row}"
            ${tester} unmlq --prec s --m 100 --n 170 --nrhs 30 --nb 32 --side L --trans N --check)
  apps_test(tester.lq.dunglq 0 "unglq +d .*${row}"
            ${tester} unglq --prec d --m 90 --n 200 --nb 32 --ib 8 --check)
endif()
