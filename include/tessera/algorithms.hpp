// Every tile algorithm of Tessera, one header per family. In every family, invalid arguments throw
// Error before anything is submitted, a task failing on its worker (kernel launch, device,
// allocation) makes the synchronous and LAPACK-layout forms and Sequence::wait throw TaskError, and
// a task StarPU refuses makes the submitting call throw Error (see Sequence in tile_matrix.hpp).
#pragma once

#include "tessera/blas3.hpp"
#include "tessera/cholesky.hpp"
#include "tessera/condition.hpp"
#include "tessera/eig.hpp"
#include "tessera/inverse.hpp"
#include "tessera/svd.hpp"
#include "tessera/lu.hpp"
#include "tessera/mixed.hpp"
#include "tessera/norms.hpp"
#include "tessera/qr.hpp"
#include "tessera/lq.hpp"
