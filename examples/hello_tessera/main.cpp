// hello_tessera: the smallest application linking the installed Tessera package. It solves an SPD
// system A·x = b with Cholesky in LAPACK layout and checks the residual ‖b − A·x‖∞.
// Exit status, as Tessera's own tools: 0 solved and checked; 1 the solve failed (info > 0, a residual
// too large, a task or device failure: tessera::TaskError); 2 refused (tessera::Error: an invalid
// argument; std::bad_alloc: more memory than the machine has).
#include <tessera/tessera.hpp>

#include <cmath>
#include <cstdio>
#include <exception>
#include <new>
#include <vector>

namespace {

int solve_and_check() {
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

}  // namespace

// No exception leaves main: each becomes one line on stderr and an exit code. TaskError derives
// from Error, so it is caught first.
int main() {
    try {
        return solve_and_check();
    } catch (const tessera::TaskError& e) {
        std::fprintf(stderr, "hello_tessera: %s\n", e.what());
        return 1;
    } catch (const tessera::Error& e) {
        std::fprintf(stderr, "hello_tessera: %s\n", e.what());
        return 2;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "hello_tessera: out of memory\n");
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "hello_tessera: internal error: %s\n", e.what());
        return 1;
    }
}
