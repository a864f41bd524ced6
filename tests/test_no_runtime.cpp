// Every tessera::lapack:: entry point called without a tessera::Runtime (issue 38): a tessera::Error
// that names the entry point and says a Runtime is needed (lapack::posv used to blame tuned_tile,
// which it calls to pick the tile size). StarPU-free: no Runtime is ever started in this executable.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "tessera/tessera.hpp"
#include "tessera/lu.hpp"
#include "tessera/qr.hpp"

using namespace tessera;

namespace {

void expect_needs_runtime(const std::string& name, const std::function<void()>& call) {
    SCOPED_TRACE(name);
    try {
        call();
        ADD_FAILURE() << name << " ran without a Runtime";
    } catch (const Error& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind("tessera::" + name + ": ", 0), 0u) << what;
        EXPECT_NE(what.find("needs a tessera::Runtime"), std::string::npos) << what;
    }
}

TEST(NoRuntime, EveryLapackEntryPointNamesItselfAndTheRuntime) {
    const int64_t n = 4;
    std::vector<double> a(n * n, 1.0), b(n * n, 1.0), c(n * n, 0.0);
    std::vector<int64_t> ipiv(n);
    for (int64_t i = 0; i < n; ++i) ipiv[size_t(i)] = i + 1;  // valid pivots: only the Runtime is missing
    for (const Options o : {Options{}, Options{.nb = 2}}) {  // tuned tile size, or given
        expect_needs_runtime("lapack::posv", [&] { lapack::posv<double>('L', n, 1, a.data(), n, b.data(), n, o); });
        expect_needs_runtime("lapack::potrf", [&] { lapack::potrf<double>('L', n, a.data(), n, o); });
        expect_needs_runtime("lapack::potrs", [&] { lapack::potrs<double>('L', n, 1, a.data(), n, b.data(), n, o); });
        expect_needs_runtime("lapack::getrf", [&] { lapack::getrf<double>(n, n, a.data(), n, ipiv.data(), o); });
        expect_needs_runtime("lapack::gesv", [&] { lapack::gesv<double>(n, 1, a.data(), n, ipiv.data(), b.data(), n, o); });
        expect_needs_runtime("lapack::getrs",
                             [&] { lapack::getrs<double>('N', n, 1, a.data(), n, ipiv.data(), b.data(), n, o); });
        expect_needs_runtime("lapack::getrf_nopiv", [&] { lapack::getrf_nopiv<double>(n, n, a.data(), n, o); });
        expect_needs_runtime("lapack::gesv_nopiv", [&] { lapack::gesv_nopiv<double>(n, 1, a.data(), n, b.data(), n, o); });
        expect_needs_runtime("lapack::gesv_incpiv", [&] { lapack::gesv_incpiv<double>(n, 1, a.data(), n, b.data(), n, o); });
        expect_needs_runtime("lapack::gels", [&] { lapack::gels<double>('N', n, n, 1, a.data(), n, b.data(), n, o); });
        expect_needs_runtime("lapack::gemm", [&] {
            lapack::gemm<double>('N', 'N', n, n, n, 1.0, a.data(), n, b.data(), n, 0.0, c.data(), n, o);
        });
        expect_needs_runtime("lapack::trsm",
                             [&] { lapack::trsm<double>('L', 'L', 'N', 'N', n, n, 1.0, a.data(), n, b.data(), n, o); });
        expect_needs_runtime("lapack::syrk",
                             [&] { lapack::syrk<double>('L', 'N', n, n, 1.0, a.data(), n, 0.0, c.data(), n, o); });
        expect_needs_runtime("lapack::trtri", [&] { lapack::trtri<double>('L', 'N', n, a.data(), n, o); });
        expect_needs_runtime("lapack::lauum", [&] { lapack::lauum<double>('U', n, a.data(), n, o); });
        expect_needs_runtime("lapack::potri", [&] { lapack::potri<double>('L', n, a.data(), n, o); });
        expect_needs_runtime("lapack::getri", [&] { lapack::getri<double>(n, a.data(), n, ipiv.data(), o); });
    }
}

}  // namespace
