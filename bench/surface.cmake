# The LAPACK surface of issue 46 (included by bench/CMakeLists.txt): lapack_surface, the LAPACKE /
# CBLAS peer of bench/lapack_surface_vs_lapack.sh.
add_executable(lapack_surface ${CMAKE_CURRENT_SOURCE_DIR}/lapack_surface.cpp)
target_link_libraries(lapack_surface PRIVATE tessera tessera_deps tessera_checks)
