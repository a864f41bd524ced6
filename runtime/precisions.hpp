// The four precisions every templated source is instantiated for, LAPACK's s, d, c and z:
//   #define TESSERA_INSTANTIATE(T) template void f<T>(T*);
//   TESSERA_FOR_EACH_PRECISION(TESSERA_INSTANTIATE)
// Internal header.
#pragma once

#include <complex>

#define TESSERA_FOR_EACH_PRECISION(M) M(float) M(double) M(std::complex<float>) M(std::complex<double>)
