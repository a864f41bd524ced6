# Run one command and check its exit code (and optionally its output) exactly:
#   cmake "-DCMD=prog|arg|..." -DRC=2 ["-DREGEX=..."] ["-DONCE=..."] -P expect.cmake
# CMD separates its words with '|'. Prints the command's output; fails when the exit code differs
# from RC, when stdout+stderr do not match REGEX, or when they do not match ONCE exactly once (a
# line that every MPI rank would print).
string(REPLACE "|" ";" CMD "${CMD}")
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT "${rc}" STREQUAL "${RC}")
  message(FATAL_ERROR "exit code ${rc}, expected ${RC}")
endif()
if(DEFINED REGEX AND NOT "${out}${err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match: ${REGEX}")
endif()
if(DEFINED ONCE)
  # ';' would split the list of matches: counted as another character.
  string(REPLACE ";" "<semicolon>" text "${out}${err}")
  string(REPLACE ";" "<semicolon>" once "${ONCE}")
  string(REGEX MATCHALL "${once}" matches "${text}")
  list(LENGTH matches count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "output matches ${count} times, expected once: ${ONCE}")
  endif()
endif()
