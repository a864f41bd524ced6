# tessera-solve's reliability rows (issue 13), included at the end of tests/apps/CMakeLists.txt (uses
# its apps_test): size limits on each dimension and on the product, a UTF-8 byte order mark, entries
# whose b = A·1 overflows (power-of-2 scaling as LAPACK's xGELS), a solution that overflows, and any
# exception (here std::bad_alloc) turned into one line and exit code 2 by tool::guarded_main.
if(TARGET tessera-solve)
  set(solve $<TARGET_FILE:tessera-solve>)
  set(mtx ${PROJECT_SOURCE_DIR}/examples/solve/matrices)
  apps_test(solve.limit_rows 2
            "too_large_rows.mtx:2: matrix 10000000000 x 0 is too large for a dense solve \\(limit 268435456 rows or columns\\)"
            ${solve} ${mtx}/malformed/too_large_rows.mtx)
  apps_test(solve.limit_product 2
            "too_large_product.mtx:2: matrix 20000 x 20000 is too large for a dense solve \\(limit 268435456 entries\\)"
            ${solve} ${mtx}/malformed/too_large_product.mtx)
  apps_test(solve.limit_overflowing_product 2 "too_large_overflowing.mtx:2: matrix 3037000500 x 3037000500 is too large"
            ${solve} ${mtx}/malformed/too_large_overflowing.mtx)
  apps_test(solve.utf8_bom 0 "3 x 3, coordinate real general.*getrf.*check     pass" ${solve} ${mtx}/bom_coordinate.mtx --nb 2)
  # ±1e308: b = A·1 would be (2e308, 0); scaled by 2^-54 (double) or 2^-921 (single), x = 1 up to
  # rounding. Forward error bound: kappa_inf(A) · n · eps · 60 = 2 · 2 · 60 · eps, 2.7e-14 in double
  # and 1.4e-5 in single (the scaling by powers of 2 is exact; other CPUs round the LU differently).
  set(forward_d "forward   [^=]*= (0|[0-9.]+e-(1[5-9]|[2-9][0-9]|[1-9][0-9][0-9])|[12](\\.[0-9]*)?e-14)[^.0-9e]")
  set(forward_s "forward   [^=]*= (0|[0-9.]+e-(0[6-9]|[1-9][0-9])|1(\\.[0-3][0-9]*)?e-05)[^.0-9e]")
  apps_test(solve.huge_entries.d 0 "A multiplied by 2\\^-54.*${forward_d}.*check     pass"
            ${solve} ${mtx}/huge_entries_array.mtx)
  apps_test(solve.huge_entries.s 0 "A multiplied by 2\\^-921.*${forward_s}.*check     pass"
            ${solve} ${mtx}/huge_entries_array.mtx --prec s)
  # x = (1e310, 1): the scaled solve is finite, the original solution is not; the message names it.
  apps_test(solve.solution_overflows 1
            "the solution of the original system overflows: x\\(1,1\\) = [0-9.e+]+ \\* 2\\^27 exceeds the largest double"
            ${solve} ${mtx}/small_pivot_array.mtx --rhs ${mtx}/huge_rhs.mtx)
  # 16384 x 16384 is within the limits (2 GiB as double); under an address-space limit below 2 GiB
  # that allocation alone cannot fit: one line, exit code 2, no abort. ASan reserves terabytes of
  # shadow address space and its operator new aborts instead of throwing, so the sanitized build
  # cannot run this one.
  if(TESSERA_SANITIZE)
    message(STATUS "solve.out_of_memory: not added in the sanitized build (ulimit -v and ASan's shadow memory exclude each other)")
  else()
    apps_test(solve.out_of_memory 2 "tessera-solve: out of memory: the request needs more memory than could be allocated"
              bash -c "ulimit -v 2000000 && exec \"$0\" \"$1\"" ${solve} ${mtx}/large_truncated.mtx)
  endif()
endif()
