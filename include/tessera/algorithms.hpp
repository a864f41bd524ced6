// Every tile algorithm of Tessera, one header per family.
#pragma once

#include "tessera/blas3.hpp"
#include "tessera/cholesky.hpp"
#include "tessera/lu.hpp"
#include "tessera/qr.hpp"
