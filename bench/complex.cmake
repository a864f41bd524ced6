# Complex precisions (included by bench/CMakeLists.txt): zgemm, zpotrf and zgetrf against OpenBLAS next to d.
add_executable(complex_vs_lapack ${CMAKE_CURRENT_SOURCE_DIR}/complex_vs_lapack.cpp)
target_link_libraries(complex_vs_lapack PRIVATE tessera tessera_deps tessera_checks)
