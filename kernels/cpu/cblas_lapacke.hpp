// CBLAS and LAPACKE with std::complex<float> / std::complex<double> as their complex types (the
// override lapack.h offers), so that the c/z routines take the library's own complex tiles. Include
// this instead of <cblas.h> and <lapacke.h>, before anything else that includes them.
#pragma once

#include <complex>

#ifndef lapack_complex_float
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#endif
#include <cblas.h>
#include <lapacke.h>
