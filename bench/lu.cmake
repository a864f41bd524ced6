# LU benchmarks (included by bench/CMakeLists.txt): dgetrf against OpenBLAS, with nopiv and incpiv timings.
add_executable(getrf_vs_lapack ${CMAKE_CURRENT_SOURCE_DIR}/getrf_vs_lapack.cpp)
target_link_libraries(getrf_vs_lapack PRIVATE tessera tessera_deps tessera_checks)
