# Run one command and check its exit code (and optionally its output) exactly:
#   cmake "-DCMD=prog|arg|..." -DRC=2 ["-DREGEX=..."] -P expect.cmake
# CMD separates its words with '|'. Prints the command's output; fails when the exit code differs
# from RC or when stdout+stderr do not match REGEX.
string(REPLACE "|" ";" CMD "${CMD}")
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT "${rc}" STREQUAL "${RC}")
  message(FATAL_ERROR "exit code ${rc}, expected ${RC}")
endif()
if(DEFINED REGEX AND NOT "${out}${err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match: ${REGEX}")
endif()
