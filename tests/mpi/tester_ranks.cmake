# tessera-tester under mpirun, with each rank's exit code checked (docs/distributed.md):
#   cmake -DMPIRUN=mpirun -DRANKS=4 "-DCMD=tessera-tester|potrf|--n|700|..." -DRC=0 "-DROW=potrf .* pass"
#         [-DPROFILE=ON] -P tester_ranks.cmake
# Each rank runs CMD through `sh -c`, which prints "tester exit <code> on rank <rank>" after it and
# exits 0 (mpirun kills the other ranks as soon as one exits non-zero: they would print no line).
# Fails unless every rank 0..RANKS-1 printed exactly one exit line with code RC (the ranks agree on
# pass or fail), and ROW (a row of the table, printed by rank 0 alone) matches exactly once.
# PROFILE: the output must hold one profile block per rank, in rank order, each headed
# "rank R of RANKS on HOST" and followed by its run phases, its profile and its CPU workers, and
# exactly RANKS profile tables (the other ranks print none of their own).
string(REPLACE "|" ";" CMD "${CMD}")
execute_process(COMMAND ${MPIRUN} -np ${RANKS} --oversubscribe --bind-to none --timeout 100
                        /bin/sh -c "\"$@\"; rc=$?; echo \"tester exit $rc on rank $OMPI_COMM_WORLD_RANK\""
                        sh ${CMD}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
set(text "${out}${err}")
string(REPLACE ";" "<semicolon>" text "${text}")  # ';' would split the lists of matches below

# The number of matches of `regex` in the output, in `count`.
function(count_matches regex count)
  string(REGEX MATCHALL "${regex}" matches "${text}")
  list(LENGTH matches n)
  set(${count} ${n} PARENT_SCOPE)
endfunction()

if(NOT "${rc}" STREQUAL "0")
  message(FATAL_ERROR "mpirun exit code ${rc}, expected 0 (a rank ended without its exit line)")
endif()
math(EXPR last "${RANKS} - 1")
foreach(r RANGE ${last})
  count_matches("tester exit ${RC} on rank ${r}\n" n)
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "rank ${r} printed 'tester exit ${RC}' ${n} times, expected once: the ranks disagree")
  endif()
endforeach()
count_matches("tester exit [0-9]+ on rank" n)
if(NOT n EQUAL RANKS)
  message(FATAL_ERROR "${n} exit lines, expected ${RANKS}")
endif()
count_matches("${ROW}" n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "the row matches ${n} times, expected once: ${ROW}")
endif()

if(PROFILE)
  set(blocks "")
  foreach(r RANGE ${last})
    string(APPEND blocks "rank ${r} of ${RANKS} on [^\n]+\nrun +setup [^\n]+\nprofile +wall [^\n]+\n +worker [^\n]+\n +CPU 0 .*")
  endforeach()
  if(NOT "${text}" MATCHES "${blocks}")
    message(FATAL_ERROR "no profile block per rank in rank order: ${blocks}")
  endif()
  count_matches("rank [0-9]+ of ${RANKS} on " n)
  count_matches("profile +wall " tables)
  if(NOT n EQUAL RANKS OR NOT tables EQUAL RANKS)
    message(FATAL_ERROR "${n} rank headers and ${tables} profile tables, expected ${RANKS} of each")
  endif()
endif()
