# tessera-tune --cpu end to end (tools/tune/cpu_tune.cpp), included by tests/CMakeLists.txt: a quick
# sweep on 256 x 256 matrices writes a CPU tile table that parses and holds the four d-routines; a
# second run (s, default output path through $TESSERA_CPU_TILES) merges into it; a corrupt table is
# left alone (exit 1); refusals exit 2. CPU only, own STARPU_HOME; about 5 s on 2 cores.
if(TARGET tessera_tune)
  set(CPU_TUNE_HOME ${CMAKE_BINARY_DIR}/test-home/cpu-tune)
  add_test(NAME tools.tune_cpu
           COMMAND ${CMAKE_COMMAND} -DTUNE=$<TARGET_FILE:tessera_tune> -DHOME_DIR=${CPU_TUNE_HOME}
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/tools/cpu_tune_check.cmake)
  set_tests_properties(tools.tune_cpu PROPERTIES TIMEOUT 120 LABELS cpu
                       ENVIRONMENT "STARPU_SILENT=1;STARPU_NCPU=2;STARPU_HOME=${CPU_TUNE_HOME}")
endif()
