# tessera-solve on complex Matrix Market files (issue 15), included at the end of
# tests/apps/CMakeLists.txt (uses its apps_test). Every complex file is solved in z (its default
# precision) and in c; each row checks the precision, the method auto picks and "check     pass".
# The symmetric, skew-symmetric and Hermitian files are built so that a wrong mirror (conjugating a
# complex symmetric matrix, not conjugating a Hermitian one, a lost sign) makes the solve singular
# or fail its check (examples/solve/matrices/README.md). Malformed complex files: exit code 2 and
# the exact line "FILE:LINE: what". "^[ -~]*...$" asserts one printable line.
if(TARGET tessera-solve)
  set(solve $<TARGET_FILE:tessera-solve>)
  set(mtx ${PROJECT_SOURCE_DIR}/examples/solve/matrices)
  foreach(case "complex_general_array:getrf[ -~]*auto: square, general"
               "complex_general_coordinate:getrf[ -~]*auto: square, general"
               "hpd_coordinate_hermitian:potrf[ -~]*auto: declared hermitian\\]"
               "hermitian_indefinite_array:potrf[ -~]*not positive definite \\(LAPACK info = 2\\), falling back to LU.method    getrf[ -~]*Cholesky failed"
               "complex_symmetric_coordinate:getrf[ -~]*auto: square, complex symmetric"
               "complex_skew_coordinate:getrf[ -~]*auto: square, complex skew-symmetric"
               "complex_tall_coordinate:gels[ -~]*auto: rectangular"
               "complex_wide_array:gels[ -~]*auto: rectangular")
    string(FIND "${case}" ":" colon)
    string(SUBSTRING "${case}" 0 ${colon} file)
    math(EXPR colon "${colon} + 1")
    string(SUBSTRING "${case}" ${colon} -1 method)
    apps_test(solve.${file}.z 0 "precision double complex.*method    ${method}.*check     pass" ${solve} ${mtx}/${file}.mtx --nb 2)
    apps_test(solve.${file}.c 0 "precision single complex.*method    ${method}.*check     pass"
              ${solve} ${mtx}/${file}.mtx --nb 2 --prec c)
  endforeach()
  apps_test(solve.complex_potrf_indefinite 1 "leading minor of order 2 \\(LAPACK info = 2\\); no solution"
            ${solve} ${mtx}/hermitian_indefinite_array.mtx --method potrf)
  apps_test(solve.complex_potrf_not_hermitian 1 "not declared hermitian.*not positive definite"
            ${solve} ${mtx}/complex_symmetric_coordinate.mtx --method potrf)
  # An inconsistent complex right-hand side: the least-squares residual must be orthogonal to A's
  # columns in the Hermitian sense, ||A^H r|| small (below 10 here; with A^T it is ~1/eps).
  foreach(prec z c)
    apps_test(solve.complex_rhs_least_squares.${prec} 0
              "A\\^H \\(b - A x\\)[^=]*= [0-9](\\.[0-9]*)?(e-[0-9]+)? \\(least squares\\).*check     pass"
              ${solve} ${mtx}/complex_tall_coordinate.mtx --rhs ${mtx}/complex_rhs_tall.mtx --nb 2 --prec ${prec})
  endforeach()
  # A real matrix with complex right-hand sides: solved in z by default; --prec d is refused.
  apps_test(solve.complex_rhs_real_matrix 0 "3 right-hand side.*precision double complex.*gels.*check     pass"
            ${solve} ${mtx}/wide_array.mtx --rhs ${mtx}/complex_general_array.mtx)
  apps_test(solve.complex_rhs_real_prec 2
            "tessera-solve: [ -~]*/complex_general_array.mtx is a complex matrix: --prec d is a real precision \\(use --prec c or z\\).?$"
            ${solve} ${mtx}/wide_array.mtx --rhs ${mtx}/complex_general_array.mtx --prec d)
  apps_test(solve.complex_prec_s 2
            "tessera-solve: [ -~]*/complex_general_array.mtx is a complex matrix: --prec s is a real precision \\(use --prec c or z\\).?$"
            ${solve} ${mtx}/complex_general_array.mtx --prec s)
  # Real files solved in complex arithmetic: a real symmetric matrix is Hermitian.
  apps_test(solve.real_in_z.spd 0 "precision double complex.*potrf[ -~]*auto: declared symmetric.*check     pass"
            ${solve} ${mtx}/spd_tridiag_coordinate_symmetric.mtx --prec z --nb 4)
  apps_test(solve.real_in_c.indefinite 0 "precision single complex.*falling back to LU.*getrf.*check     pass"
            ${solve} ${mtx}/symmetric_indefinite_array.mtx --prec c)
  apps_test(solve.real_in_z.tall 0 "precision double complex.*gels.*check     pass" ${solve} ${mtx}/tall_coordinate.mtx --prec z --nb 2)
  # |c| = 2.12e308 exceeds the largest double although each part does not: the scale is chosen on
  # the modulus, and x = 1 up to rounding: A/c is sqrt(2) times a unitary matrix, kappa_inf(A) <= 2,
  # so the forward error is within solve.huge_entries' bounds (forward_d, forward_s: solve_errors.cmake).
  apps_test(solve.complex_huge_entries.z 0
            "A multiplied by 2\\^-55: max \\|a_ij\\| = 2.12e\\+308.*${forward_d}.*check     pass"
            ${solve} ${mtx}/complex_huge_entries_array.mtx)
  apps_test(solve.complex_huge_entries.c 0
            "A multiplied by 2\\^-922: max \\|a_ij\\| = 2.12e\\+308.*${forward_s}.*check     pass"
            ${solve} ${mtx}/complex_huge_entries_array.mtx --prec c)
  # Malformed complex files, each message exactly (the glob in CMakeLists.txt checks exit code 2).
  foreach(case "hermitian_complex_diagonal:5: diagonal entry \\(2, 2\\) has imaginary part 0.5: a hermitian matrix's diagonal is real"
               "complex_one_value:4: entry has 3 fields, expected 4 \\(i j re im\\) for a complex matrix"
               "complex_array_one_value:4: array line has 1 field, expected two values \\(re im\\) for a complex matrix"
               "hermitian_real_field:1: symmetry 'hermitian' needs the complex field, not 'real' \\(a real hermitian matrix is 'symmetric'\\)")
    string(FIND "${case}" ":" colon)
    string(SUBSTRING "${case}" 0 ${colon} file)
    string(SUBSTRING "${case}" ${colon} -1 message)
    apps_test(solve.malformed_message.${file} 2 "^[ -~]*/malformed/${file}\\.mtx${message}.?$"
              ${solve} ${mtx}/malformed/${file}.mtx)
  endforeach()
endif()
