# Eigensolver and SVD benchmarks (included by bench/CMakeLists.txt): LAPACKE_dsyevd and LAPACKE_dgesdd (eig_lapack --op gesdd), the peers of bench/eig_vs_lapack.sh.
add_executable(eig_lapack ${CMAKE_CURRENT_SOURCE_DIR}/eig_lapack.cpp)
target_link_libraries(eig_lapack PRIVATE tessera tessera_deps tessera_checks)
