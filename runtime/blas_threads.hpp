// Thread count of the process's BLAS library (OpenBLAS, BLIS or MKL, found at run time).
#pragma once

namespace tessera::detail {

/// Current BLAS thread count, or -1 when the BLAS library offers no way to query it.
int blas_num_threads();
/// Set the BLAS thread count; does nothing when the BLAS library offers no way to set it.
void set_blas_num_threads(int n);

}  // namespace tessera::detail
