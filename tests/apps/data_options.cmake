# The applications on any CSV of point data (issue 17): --lat/--lon/--value, --holdout, merged
# duplicate locations, rows without a value, too few points, and --predict/--out. Included by
# tests/apps/CMakeLists.txt (apps_test, APPS_ENV). The fixtures in csv/ are real rows of
# examples/data/airports.csv (csv/README.md); each row takes about a second on 2 CPU cores.
set(csv ${CMAKE_CURRENT_SOURCE_DIR}/csv)
set(predict_check ${CMAKE_CURRENT_SOURCE_DIR}/predict_check.cmake)
# German airports with other column names, in another order, quoted names holding commas (LF ends).
set(de --data ${csv}/germany_renamed.csv --lat lat_n --lon lon_e --value elev_ft)
# "^prog: ...$" on one line, as tests/apps/errors.cmake.
set(line "[ -~]*")

# apps_predict_test(name header rows [DATA file VALUE column] COMMAND command args...): run the
# command with --predict/--out (out file under the build tree) and check the file (predict_check.cmake).
function(apps_predict_test name header rows)
  cmake_parse_arguments(P "" "DATA;VALUE;REGEX;OUT" "COMMAND" ${ARGN})
  string(REPLACE ";" "|" cmd "${P_COMMAND}")
  set(args "-DCMD=${cmd}" "-DOUT=${P_OUT}" "-DHEADER=${header}" -DROWS=${rows})
  if(P_DATA)
    list(APPEND args "-DDATA=${P_DATA}" "-DVALUE=${P_VALUE}")
  endif()
  if(P_REGEX)
    list(APPEND args "-DREGEX=${P_REGEX}")
  endif()
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} ${args} -P ${predict_check})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${APPS_ENV}" TIMEOUT 300 LABELS apps)
endfunction()

if(TARGET rbf_interpolation)
  set(rbf $<TARGET_FILE:rbf_interpolation>)
  # Columns by name: the data line names them; values used as they are (unit: the column's name).
  apps_test(apps.data.columns_renamed 0
            "columns    lat lat_n, lon lon_e, value elev_ft; 0 rows without.*held-out RMSE over 23 points \\(elev_ft\\).*LAPACKE_dgesv: pass"
            ${rbf} ${de} --check)
  # A missing column: the option that names it and the header's columns.
  apps_test(apps.data.missing_column 2
            "^rbf_interpolation: ${line}germany_renamed.csv:1: header has no column 'latitude_deg' \\(named by --lat\\); its columns are: 'icao', 'place, name', 'elev_ft', 'lon_e', 'lat_n'.?$"
            ${rbf} --data ${csv}/germany_renamed.csv)
  apps_test(apps.data.missing_value_column 2
            "^rbf_interpolation: ${line}germany_renamed.csv:1: header has no column 'depth' \\(named by --value\\)${line}.?$"
            ${rbf} --data ${csv}/germany_renamed.csv --lat lat_n --lon lon_e --value depth)
  # A non-numeric value: FILE:LINE.
  apps_test(apps.data.non_numeric 2 "^rbf_interpolation: ${line}non_numeric.csv:7: column altitude_ft: 'n/a' is not a finite number.?$"
            ${rbf} --data ${csv}/non_numeric.csv)
  # Three training rows repeated at the same location: merged, reported, the matrix nonsingular.
  apps_test(apps.data.duplicates 0 "63 rows, 54 training airports \\(using 54\\), 6 held out.*3 training rows merged into others.*LAPACKE_dgesv: pass"
            ${rbf} --data ${csv}/duplicates.csv --check)
  # Rows with an empty value: skipped and counted, still counted by the hold-out rule.
  apps_test(apps.data.empty_values 0 "50 rows, 41 training airports \\(using 41\\), 5 held out.*4 rows without a value skipped.*LAPACKE_dgesv: pass"
            ${rbf} --data ${csv}/empty_values.csv --check)
  # --holdout K: every Kth row held out.
  apps_test(apps.data.holdout_4 0 "236 rows, 177 training points \\(using 177\\), 59 held out \\(every 4th row\\).*LAPACKE_dgesv: pass"
            ${rbf} ${de} --holdout 4 --check)
  # --holdout 0: nothing held out, no RMSE; --check checks the solve only.
  apps_test(apps.data.holdout_0 0 "236 training points.*0 held out \\(none: --holdout 0\\).*no held-out RMSE.*LAPACKE_dgesv: pass"
            ${rbf} ${de} --holdout 0 --check)
  apps_test(apps.data.rbf_too_few 2 "^rbf_interpolation: --n 1: too few training points for the model: the interpolant needs at least 2.?$"
            ${rbf} --data ${csv}/two_rows.csv --lat lat_n --lon lon_e --value elev_ft --holdout 0 --n 1)
  # Round trip: the interpolant at its own training points gives back their values.
  apps_predict_test(apps.predict.rbf_round_trip "lat,lon,elev_ft_pred" 236
                    DATA ${csv}/germany_renamed.csv VALUE elev_ft OUT ${CMAKE_CURRENT_BINARY_DIR}/rbf_round_trip.csv
                    REGEX "predict    236 locations of ${line}germany_renamed.csv: interpolant written"
                    COMMAND ${rbf} ${de} --holdout 0 --predict ${csv}/germany_renamed.csv
                            --out ${CMAKE_CURRENT_BINARY_DIR}/rbf_round_trip.csv)
  apps_test(apps.predict.needs_out 2 "^rbf_interpolation: --predict requires --out.?$"
            ${rbf} ${de} --predict ${csv}/two_rows.csv)
  apps_test(apps.predict.needs_predict 2 "^rbf_interpolation: --out requires --predict.?$" ${rbf} ${de} --out x.csv)
  # The --predict file under the same discipline as the data: its columns named by --lat/--lon.
  apps_test(apps.predict.missing_column 2
            "^rbf_interpolation: ${line}france_crlf.csv:1: header has no column 'lat_n' \\(named by --lat\\)${line}.?$"
            ${rbf} ${de} --predict ${csv}/france_crlf.csv --out ${CMAKE_CURRENT_BINARY_DIR}/never_written.csv)
endif()

if(TARGET gp_kriging)
  set(gp $<TARGET_FILE:gp_kriging>)
  # Another data set through the derived hyperparameter grid (11 factorizations), beating both
  # baselines; kriging mean and sd at the other fixture's airports (default columns there: the
  # --predict file is read with --lat/--lon, so this one uses the airports' names).
  apps_predict_test(apps.predict.gp_kriging "lat,lon,elev_ft_pred,elev_ft_sd" 2
                    OUT ${CMAKE_CURRENT_BINARY_DIR}/gp_predict.csv
                    REGEX "derived from the data.*beats both baselines: pass"
                    COMMAND ${gp} ${de} --check --predict ${csv}/two_rows.csv --out ${CMAKE_CURRENT_BINARY_DIR}/gp_predict.csv)
  apps_test(apps.data.gp_same_values 2
            "^gp_kriging: the 2 training points all have the same value \\(sigma\\^2 = 0\\): nothing for the model to fit.?$"
            ${gp} --data ${csv}/two_rows.csv --lat lat_n --lon lon_e --value elev_ft --holdout 0)
  apps_test(apps.data.gp_holdout_0_check 2 "^gp_kriging: --check compares the held-out RMSE with the baselines, and --holdout 0 holds nothing out: nothing to check.?$"
            ${gp} --holdout 0 --check)
endif()

if(TARGET elevation_fit)
  # CRLF line ends and the airports' own columns (altitude_ft in metres) in a file of French airports.
  apps_test(apps.data.crlf 0 "france_crlf.csv: 211 rows, 190 training airports.*value altitude_ft \\(feet, used in metres\\).*LAPACKE_dgels: pass"
            $<TARGET_FILE:elevation_fit> --data ${csv}/france_crlf.csv --L 8 --check)
  apps_test(apps.data.elevation_fit_too_few 2 "^elevation_fit: 2 training points for 9 coefficients \\(degree 2\\): need m >= n or --lambda > 0.?$"
            $<TARGET_FILE:elevation_fit> --data ${csv}/two_rows.csv --lat lat_n --lon lon_e --value elev_ft --holdout 0 --lambda 0 --L 2)
endif()

# --map, --gantt, --trace and the progress lines (watch_check.cmake): pictures of the requested
# size (2 CPU workers: a Gantt chart 160 + 60 px per worker tall), a trace whose task events are
# the tasks that ran, and no live progress line off a terminal.
set(watch_check ${CMAKE_CURRENT_SOURCE_DIR}/watch_check.cmake)
set(watch_dir ${CMAKE_CURRENT_BINARY_DIR}/watch)
file(MAKE_DIRECTORY ${watch_dir})
function(apps_watch_test name)
  cmake_parse_arguments(W "" "PNG;PNG_SIZE;SVG;SVG_SIZE;TRACE;STAGE" "COMMAND" ${ARGN})
  string(REPLACE ";" "|" cmd "${W_COMMAND}")
  set(args "-DCMD=${cmd}")
  foreach(k PNG PNG_SIZE SVG SVG_SIZE TRACE STAGE)
    if(DEFINED W_${k})
      list(APPEND args "-D${k}=${W_${k}}")
    endif()
  endforeach()
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} ${args} -P ${watch_check})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${APPS_ENV};STARPU_NCPU=2" TIMEOUT 300 LABELS apps)
endfunction()
set(tonga ${PROJECT_SOURCE_DIR}/examples/data/tonga_fiji_quakes.csv)
if(TARGET gp_kriging)
  apps_watch_test(apps.watch.gp_tonga_map_png PNG ${watch_dir}/gp.png PNG_SIZE 1200x700
                  SVG ${watch_dir}/gp_gantt.svg SVG_SIZE 1400x280 TRACE ${watch_dir}/gp.json
                  STAGE "gp search [^\n]*: [0-9]+ tasks in"
                  COMMAND $<TARGET_FILE:gp_kriging> --data ${tonga} --lat latitude --lon longitude --value depth
                          --n 600 --map ${watch_dir}/gp.png --gantt ${watch_dir}/gp_gantt.svg --trace ${watch_dir}/gp.json
                          --check)
endif()
if(TARGET rbf_interpolation)
  apps_watch_test(apps.watch.rbf_map_svg SVG ${watch_dir}/rbf.svg SVG_SIZE 1200x700
                  COMMAND $<TARGET_FILE:rbf_interpolation> --n 400 --map ${watch_dir}/rbf.svg --quiet)
  apps_test(apps.watch.bad_map_extension 2 "--map [^\n]*map.jpg: the picture's file name must end in .png or .svg"
            $<TARGET_FILE:rbf_interpolation> --n 50 --map ${watch_dir}/map.jpg)
endif()
if(TARGET elevation_fit)
  apps_watch_test(apps.watch.fit_gantt_png PNG ${watch_dir}/fit_gantt.png PNG_SIZE 1400x280
                  TRACE ${watch_dir}/fit.json STAGE "fit generate \\+ gels: [0-9]+ tasks in"
                  COMMAND $<TARGET_FILE:elevation_fit> --n 600 --L 8 --gantt ${watch_dir}/fit_gantt.png
                          --trace ${watch_dir}/fit.json)
endif()
if(TARGET tessera-solve)
  apps_watch_test(solve.watch.gantt_trace SVG ${watch_dir}/solve_gantt.svg SVG_SIZE 1400x280
                  TRACE ${watch_dir}/solve.json STAGE "solve: [0-9]+ tasks in"
                  COMMAND $<TARGET_FILE:tessera-solve> ${PROJECT_SOURCE_DIR}/examples/solve/matrices/general_array_real.mtx
                          --nb 2 --gantt ${watch_dir}/solve_gantt.svg --trace ${watch_dir}/solve.json)
endif()
