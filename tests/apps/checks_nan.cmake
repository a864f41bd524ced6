# --check never passes a result holding NaN or Inf (issue 38): LAPACKE_xlange returned −5 for an
# array with a NaN, and the negative residual passed. An infinite or NaN alpha or beta (or 1e39,
# infinite in single precision) fills the result with NaN and Inf: the row must say FAILED with a
# NaN error, and the exit code be 1 (work done, check failed). Included by tests/apps/CMakeLists.txt.
# The residual functions themselves are checked with a NaN and an Inf in every result by
# tests/test_checks.cpp.
if(TARGET tessera-tester)
  set(tester $<TARGET_FILE:tessera-tester>)
  set(failed_row "[ ]+-?nan  FAILED")
  apps_test(checks_nan.gemm_alpha_inf 1 "gemm .*${failed_row}" ${tester} gemm --n 20 --alpha inf --check)
  apps_test(checks_nan.gemm_alpha_nan 1 "gemm .*${failed_row}" ${tester} gemm --n 20 --alpha nan --check)
  apps_test(checks_nan.gemm_beta_inf 1 "gemm .*${failed_row}" ${tester} gemm --n 20 --beta inf --check)
  apps_test(checks_nan.gemm_beta_minus_inf 1 "gemm .*${failed_row}" ${tester} gemm --n 20 --beta -inf --check)
  apps_test(checks_nan.gemm_s_alpha_1e39 1 "gemm .*${failed_row}" ${tester} gemm --n 20 --prec s --alpha 1e39 --check)
  apps_test(checks_nan.gemm_z_alpha_inf 1 "gemm .*${failed_row}" ${tester} gemm --n 20 --prec z --alpha inf --check)
  apps_test(checks_nan.trsm_alpha_inf 1 "trsm .*${failed_row}" ${tester} trsm --n 20 --alpha inf --check)
  apps_test(checks_nan.syrk_alpha_inf 1 "syrk .*${failed_row}" ${tester} syrk --n 20 --alpha inf --check)
  apps_test(checks_nan.herk_alpha_inf 1 "herk .*${failed_row}" ${tester} herk --n 20 --prec z --alpha inf --check)
  # The randomized check too (Freivalds' residual of checks_random.cpp).
  apps_test(checks_nan.gemm_check_random 1 "gemm .*${failed_row}" ${tester} gemm --n 20 --alpha inf --check-random)
endif()
