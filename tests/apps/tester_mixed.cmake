# tessera-tester's mixed-precision solvers (issue 47): posv_mixed and gesv_mixed, and their GMRES-IR
# forms posv_mixed_gmres and gesv_mixed_gmres (one right-hand side: --nrhs refused), in d and z with
# --check (the double backward error) and the refinement's iter in the status, --cond matrices that
# converge and that fall back to double (iter < 0), gesv on gesv_mixed's --cond matrix, --factor
# tf32, and the refusals of the precisions and of --cond where it is not read. Included by
# tests/apps/CMakeLists.txt (apps_test); CPU workers, each run well under a second.
if(TARGET tessera-tester)
  set(tester $<TARGET_FILE:tessera-tester>)
  set(row "[0-9.e+-]+  pass")  # the error column, then the status
  apps_test(tester.mixed.dposv 0 "posv_mixed d .*${row} \\(iter=[0-9]+\\)"
            ${tester} posv_mixed --prec d --n 300 --nb 64 --nrhs 2 --check)
  apps_test(tester.mixed.zposv_upper 0 "posv_mixed z .*${row} \\(iter=[0-9]+\\)"
            ${tester} posv_mixed --prec z --uplo U --n 200 --nb 64 --check)
  apps_test(tester.mixed.dgesv_cond 0 "gesv_mixed d .*${row} \\(iter=[0-9]+\\)"
            ${tester} gesv_mixed --prec d --n 300 --nb 64 --cond 1e4 --check)
  apps_test(tester.mixed.zgesv_fallback 0 "gesv_mixed z .*${row} \\(iter=-(3|31)\\)"
            ${tester} gesv_mixed --prec z --n 200 --nb 64 --cond 1e12 --check)
  apps_test(tester.mixed.dposv_fallback 0 "posv_mixed d .*${row} \\(iter=-(3|31)\\)"
            ${tester} posv_mixed --prec d --n 200 --nb 64 --cond 1e12 --check)
  apps_test(tester.mixed.dgesv_gmres_cond 0 "gesv_mixed_gmres d .*${row} \\(iter=[0-9]+\\)"
            ${tester} gesv_mixed_gmres --prec d --n 300 --nb 64 --cond 1e10 --check)
  apps_test(tester.mixed.zposv_gmres_upper 0 "posv_mixed_gmres z .*${row} \\(iter=[0-9]+\\)"
            ${tester} posv_mixed_gmres --prec z --uplo U --n 200 --nb 64 --cond 1e6 --check)
  apps_test(tester.mixed.dposv_gmres_fallback 0 "posv_mixed_gmres d .*${row} \\(iter=-(3|31)\\)"
            ${tester} posv_mixed_gmres --prec d --n 200 --nb 64 --cond 1e13 --check)
  # gesv reads --cond too: the same matrix as gesv_mixed's, the double solver's side of a comparison.
  apps_test(tester.gesv_cond 0 "gesv +z .*${row}"
            ${tester} gesv --prec z --n 300 --nb 64 --cond 1e8 --check)
  # --factor tf32 (LowFactorization::Tf32): TF32 GEMMs on an NVIDIA device, as low elsewhere.
  apps_test(tester.mixed.dposv_tf32 0 "posv_mixed d .*${row} \\(iter=[0-9]+\\)"
            ${tester} posv_mixed --prec d --n 300 --nb 64 --factor tf32 --check)
  apps_test(errors.tester.factor_not_read 2 "^tessera-tester: --factor does not apply to posv [ -~]*.?$"
            ${tester} posv --n 10 --factor tf32)
  apps_test(errors.tester.gmres_nrhs 2 "^tessera-tester: --nrhs does not apply to gesv_mixed_gmres [ -~]*.?$"
            ${tester} gesv_mixed_gmres --n 10 --nrhs 2)
  apps_test(errors.tester.mixed_prec 2 "^tessera-tester: posv_mixed takes --prec d or z only, not s[ -~]*.?$"
            ${tester} posv_mixed --prec s --n 10)
  apps_test(errors.tester.cond_not_read 2 "^tessera-tester: --cond does not apply to posv [ -~]*.?$"
            ${tester} posv --n 10 --cond 10)
endif()
