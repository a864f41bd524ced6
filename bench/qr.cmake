# QR benchmarks (included by bench/CMakeLists.txt): dgeqrf against OpenBLAS.
add_executable(geqrf_vs_lapack ${CMAKE_CURRENT_SOURCE_DIR}/geqrf_vs_lapack.cpp)
target_link_libraries(geqrf_vs_lapack PRIVATE tessera tessera_deps tessera_checks)
