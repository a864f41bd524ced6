// hello_tessera: the smallest application linking the installed Tessera package. It solves an SPD
// system A·x = b with Cholesky in LAPACK layout and checks the residual ‖b − A·x‖∞.
#include <tessera/tessera.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
    tessera::Runtime runtime;  // starts StarPU; honours STARPU_SCHED, STARPU_NCPU, ...
    const int64_t n = 500;
    std::vector<double> a(n * n), b(n, 1.0);
    for (int64_t j = 0; j < n; ++j)  // a well-conditioned SPD matrix: 1/(1+|i-j|) plus n on the diagonal
        for (int64_t i = 0; i < n; ++i) a[i + j * n] = 1.0 / (1.0 + std::abs(double(i - j))) + (i == j ? n : 0);
    std::vector<double> f = a, x = b;
    const int64_t info = tessera::lapack::posv<double>('L', n, 1, f.data(), n, x.data(), n, {.nb = 128});
    double residual = 0;
    for (int64_t i = 0; i < n; ++i) {
        double r = b[i];
        for (int64_t j = 0; j < n; ++j) r -= a[i + j * n] * x[j];
        residual = std::max(residual, std::abs(r));
    }
    std::printf("hello_tessera: posv n=%lld info=%lld residual=%.3g (%s)\n", (long long)n, (long long)info, residual,
                runtime.scheduler().c_str());
    return info == 0 && residual < 1e-10 ? 0 : 1;
}
