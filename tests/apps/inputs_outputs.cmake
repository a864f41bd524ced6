# Issue 38, items 4, 5 (readers) and 8: garbage never printed as success by the applications, input
# lines bounded in every reader, and exit codes and messages of the tools' outputs. Included by
# tests/apps/CMakeLists.txt (apps_test). The inputs are generated here, under the build tree.
set(gen ${CMAKE_CURRENT_BINARY_DIR}/issue38)
file(MAKE_DIRECTORY ${gen})
set(line "[ -~]*")  # one printable line, as errors.cmake
set(nowhere /nonexistent-tessera-dir)  # a folder no test machine has: nothing can be written there

# Points around the antimeridian (longitudes 176..186 written past 180), a smooth value; then two
# training rows that repeat earlier places written the other way (182 as -178, 186 as -174).
set(text "lat,lon,v\n")
foreach(i RANGE 5)
  foreach(j RANGE 5)
    math(EXPR lat "-20 + ${i}")
    math(EXPR lon "176 + 2 * ${j}")
    math(EXPR v "100 * ${i} + 10 * ${j}")
    string(APPEND text "${lat},${lon},${v}\n")
  endforeach()
endforeach()
file(WRITE ${gen}/antimeridian.csv "${text}-20,-178,30\n-19,-174,150\n")
# The same with one value of 1e308 (its square and the variance overflow double).
file(WRITE ${gen}/huge_value.csv "${text}-20,-178,1e308\n")
# A latitude of 2000 characters: the error quotes its first 40 and "...".
string(REPEAT "a" 2000 wide)
string(REPEAT "a" 40 forty)
file(WRITE ${gen}/wide_field.csv "lat,lon,v\n1,2,3\n${wide},2,3\n")
# A line of 2 MiB (beyond the 1 MiB limit of an input line), in a CSV and in a Matrix Market file.
string(REPEAT "1" 2097152 long_line)
file(WRITE ${gen}/long_line.csv "lat,lon,v\n1,2,3\n1,2,${long_line}\n")
file(WRITE ${gen}/long_line.mtx "%%MatrixMarket matrix array real general\n%${long_line}\n1 1\n1\n")
file(WRITE ${gen}/predict.csv "lat,lon\n-18,180\n-17,183\n")

set(pts --data ${gen}/antimeridian.csv --lat lat --lon lon --value v)
# pipe_into.sh FILE PROG ARGS...: PROG reads FILE through a pipe (apps_test's words cannot hold a '|').
file(WRITE ${gen}/pipe_into.sh "file=$1\nshift\ncat \"$file\" | \"$@\"\n")
set(pipe_into sh ${gen}/pipe_into.sh)

# Under an address-space limit where the sanitizers allow it: a reader that grows without bound
# fails the test (out of memory) instead of filling the machine.
if(TESSERA_SANITIZE)
  set(limited)
else()
  set(limited bash -c "ulimit -v 8000000 && exec \"$@\"" limited)
endif()

if(TARGET rbf_interpolation)
  set(rbf $<TARGET_FILE:rbf_interpolation>)
  # Item 4: -178 and 182 are one place: merged, and the check passes on a well-conditioned system.
  apps_test(apps.merge.antimeridian 0 "2 training rows merged into others at the same location.*LAPACKE_dgesv: pass"
            ${rbf} ${pts} --check)
  # A value whose square overflows: refused before the work, naming the column (it gave a NaN RMSE, exit 0).
  apps_test(apps.huge_value.rbf 2 "^rbf_interpolation: ${line}huge_value.csv: the values of column v are too large${line}.?$"
            ${rbf} --data ${gen}/huge_value.csv --lat lat --lon lon --value v)
  # κ·ε ≥ 1 (a shape parameter 500 times the spacing: the multiquadric matrix is singular to working
  # precision): the comparison with LAPACKE accepts anything; never "pass" (exit 1 with --check).
  apps_test(apps.check.inconclusive 1 "check      backward error and agreement with LAPACKE_dgesv: INCONCLUSIVE.*inconclusive: kappa_1"
            ${rbf} ${pts} --c 100000 --check)
  # Item 5: a file without line ends, and a line of 2 MiB, as --data and as --predict.
  apps_test(apps.data.dev_zero 2 "^rbf_interpolation: /dev/zero:1: line longer than 1048576 bytes${line}.?$"
            ${limited} ${rbf} --data /dev/zero)
  apps_test(apps.data.long_line 2 "^rbf_interpolation: ${line}long_line.csv:3: line longer than 1048576 bytes${line}.?$"
            ${limited} ${rbf} --data ${gen}/long_line.csv --lat lat --lon lon --value v)
  apps_test(apps.predict.dev_zero 2 "^rbf_interpolation: /dev/zero:1: line longer than 1048576 bytes${line}.?$"
            ${limited} ${rbf} ${pts} --predict /dev/zero --out ${gen}/never.csv)
  # Item 8: a 2000-character field is quoted as its first 40 characters.
  apps_test(apps.data.wide_field 2 "^rbf_interpolation: ${line}wide_field.csv:3: column lat: '${forty}\\.\\.\\.' is not a finite number.?$"
            ${rbf} --data ${gen}/wide_field.csv --lat lat --lon lon --value v)
  # A pipe as --data (it was "cannot open the file").
  apps_test(apps.data.pipe 0 "columns    lat lat, lon lon, value v.*LAPACKE_dgesv: pass"
            ${pipe_into} ${gen}/antimeridian.csv ${rbf} --data /dev/stdin --lat lat --lon lon --value v --check)
  # Outputs that cannot be written after the work: the work failed (1), it was no refusal (2).
  apps_test(apps.out.unwritable 1 "rbf_interpolation: ${nowhere}/p.csv: cannot write the file"
            ${rbf} ${pts} --predict ${gen}/predict.csv --out ${nowhere}/p.csv)
  apps_test(apps.map.unwritable 1 "rbf_interpolation: ${line}cannot write '${nowhere}/m.svg'"
            ${rbf} ${pts} --map ${nowhere}/m.svg)
  apps_test(apps.trace.unwritable 1 "rbf_interpolation: tessera::Runtime::finish_trace: cannot write the trace file ${nowhere}/t.json"
            ${rbf} ${pts} --trace ${nowhere}/t.json)
endif()
if(TARGET gp_kriging)
  apps_test(apps.huge_value.gp 2 "^gp_kriging: ${line}huge_value.csv: the values of column v are too large${line}.?$"
            $<TARGET_FILE:gp_kriging> --data ${gen}/huge_value.csv --lat lat --lon lon --value v)
endif()
if(TARGET elevation_fit)
  apps_test(apps.huge_value.fit 2 "^elevation_fit: ${line}huge_value.csv: the values of column v are too large${line}.?$"
            $<TARGET_FILE:elevation_fit> --data ${gen}/huge_value.csv --lat lat --lon lon --value v --L 2)
  apps_test(apps.gantt.unwritable 1 "elevation_fit: ${line}cannot write '${nowhere}/g.svg'"
            $<TARGET_FILE:elevation_fit> ${pts} --L 2 --gantt ${nowhere}/g.svg)
endif()

if(TARGET tessera-solve)
  set(solve $<TARGET_FILE:tessera-solve>)
  set(spd ${PROJECT_SOURCE_DIR}/examples/solve/matrices/spd_tridiag_coordinate_symmetric.mtx)
  apps_test(solve.dev_zero 2 "^/dev/zero:1: line longer than 1048576 bytes${line}.?$" ${limited} ${solve} /dev/zero)
  apps_test(solve.rhs_dev_zero 2 "/dev/zero:1: line longer than 1048576 bytes" ${limited} ${solve} ${spd} --rhs /dev/zero)
  apps_test(solve.long_line 2 "long_line.mtx:2: line longer than 1048576 bytes" ${limited} ${solve} ${gen}/long_line.mtx)
  # A directory is named as one (it was "empty file"); a pipe is read as a stream (it was "cannot open").
  apps_test(solve.directory 2 "^${line}matrices: is a directory, not a file.?$"
            ${solve} ${PROJECT_SOURCE_DIR}/examples/solve/matrices)
  apps_test(solve.pipe 0 "matrix    /dev/stdin: [0-9]+ x [0-9]+.*check     pass" ${pipe_into} ${spd} ${solve} /dev/stdin --nb 2)
  apps_test(solve.gantt.unwritable 1 "tessera-solve: ${line}cannot write '${nowhere}/g.svg'"
            ${solve} ${spd} --nb 2 --gantt ${nowhere}/g.svg)
  apps_test(solve.trace.unwritable 1 "tessera-solve: tessera::Runtime::finish_trace: cannot write the trace file ${nowhere}/t.json"
            ${solve} ${spd} --nb 2 --trace ${nowhere}/t.json)
endif()

if(TARGET tessera-tester)
  set(tester $<TARGET_FILE:tessera-tester>)
  # A run without --check is not a pass.
  apps_test(tester.unchecked 0 "potrf +d +16 +16 +[0-9]+ +8 [ -~]* unchecked" ${tester} potrf --n 16 --nb 8)
  # --grid parsed with overflow checks (99999999999 wrapped around int).
  apps_test(errors.tester.grid_overflow 2 "^tessera-tester: --grid: must be PxQ with P, Q from 1 to 2147483647${line}.?$"
            ${tester} potrf --n 16 --grid 99999999999x1)
  apps_test(errors.tester.grid_trailing 2 "^tessera-tester: --grid: must be PxQ${line}.?$" ${tester} potrf --n 16 --grid 1x1x)
  apps_test(errors.tester.grid_product 2 "^tessera-tester: --grid: P\\*Q = 4294967296 ranks is more than 2147483647.?$"
            ${tester} potrf --n 16 --grid 65536x65536)
endif()

if(TARGET tessera_tune)
  # --help and -h print the usage of both modes, --cpu included (they were "unknown argument").
  apps_test(tune.help 0 "usage: tessera-tune --cpu .*-h, --help" $<TARGET_FILE:tessera_tune> --help)
  apps_test(tune.help_short 0 "usage: tessera-tune --cpu" $<TARGET_FILE:tessera_tune> -h)
  apps_test(errors.tune.unknown_names_cpu 2 "^tessera-tune: unknown argument '--bogus'; ${line}tessera-tune --cpu${line}.?$"
            $<TARGET_FILE:tessera_tune> --bogus)
  # --calibrate's arguments are refused before any Runtime starts.
  apps_test(tune.help_calibrate 0 "usage: tessera-tune --calibrate .*--max-runs R" $<TARGET_FILE:tessera_tune> --help)
  apps_test(errors.tune.calibrate_nb 2 "^tessera-tune: --nb: must be an integer from 1 to 2147483647, got 0.?$"
            $<TARGET_FILE:tessera_tune> --calibrate --nb 256,0)
  apps_test(errors.tune.calibrate_unknown 2 "^tessera-tune: unknown argument '--size' with --calibrate; usage: tessera-tune --calibrate"
            $<TARGET_FILE:tessera_tune> --calibrate --size 100)
endif()
