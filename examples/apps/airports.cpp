// Transitional (see airports.hpp): tests/fuzz/CMakeLists.txt compiles this path into the fuzz target
// of the CSV reader, which now lives in point_data.cpp. Not part of the applications' build.
#include "examples/apps/point_data.cpp"
