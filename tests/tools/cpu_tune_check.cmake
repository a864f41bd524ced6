# Run by tests/tools/cpu_tune.cmake: cmake -DTUNE=tessera-tune -DHOME_DIR=DIR -P cpu_tune_check.cmake
set(table ${HOME_DIR}/sub/cpu_tiles.txt)  # sub/ does not exist: the tool creates it
file(REMOVE_RECURSE ${HOME_DIR})

# run(rc args...): run the tool, expect exit code rc; its output in `out`.
function(run rc)
  execute_process(COMMAND ${TUNE} ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE o ERROR_VARIABLE e)
  string(REPLACE ";" " " line "${ARGN}")
  message("$ tessera-tune ${line}\n${o}${e}")
  if(NOT "${code}" STREQUAL "${rc}")
    message(FATAL_ERROR "exit code ${code}, expected ${rc}")
  endif()
  set(out "${o}${e}" PARENT_SCOPE)
endfunction()

# expect_entries(prec...): the table is a whole version-1 table with one entry per routine of each precision.
function(expect_entries)
  file(READ ${table} text)
  if(NOT text MATCHES "^tessera-cpu-tiles 1\n" OR NOT text MATCHES "\nend\n$")
    message(FATAL_ERROR "${table} is not a whole table:\n${text}")
  endif()
  foreach(prec ${ARGN})
    foreach(routine potrf getrf geqrf gemm)
      if(NOT text MATCHES "\n${prec}${routine} +[0-9]+ +[0-9]+ +[0-9]+ +[^\n ][^\n]*\n")
        message(FATAL_ERROR "${table} has no ${prec}${routine} entry:\n${text}")
      endif()
    endforeach()
  endforeach()
endfunction()

run(0 --cpu --quick --size 256 --out ${table})
expect_entries(d)
if(NOT out MATCHES "dgeqrf +nb +[0-9]+ ib +[0-9]+ +[0-9.]+ GFLOP/s" OR NOT out MATCHES "wrote ")
  message(FATAL_ERROR "no candidate line or no 'wrote' line")
endif()

# The default output is the user table of tuned_tile's rule (1); merging keeps the d entries, which
# needs the file to parse.
set(ENV{TESSERA_CPU_TILES} ${table})
run(0 --cpu --quick --size 256 --prec s)
expect_entries(d s)
if(NOT out MATCHES "4 entries of this run, 4 others kept")
  message(FATAL_ERROR "the s run did not merge into the d table")
endif()

# A table that does not parse is left alone, before any measurement.
file(APPEND ${table} "garbage after end\n")
file(READ ${table} before)
run(1 --cpu --quick --size 256)
file(READ ${table} after)
if(NOT out MATCHES "cpu_tiles.txt:[0-9]+: text after 'end'; not overwriting it" OR NOT before STREQUAL after)
  message(FATAL_ERROR "the corrupt table was not refused, or was changed")
endif()

# Refusals: one line, exit 2.
run(2 --cpu --budget 0)
if(NOT out MATCHES "^tessera-tune: --budget: must be an integer from 1")
  message(FATAL_ERROR "--budget 0 not refused as expected")
endif()
run(2 --cpu --prec q)
run(2 --cpu --kernel nv)
