// The OpenCL tile-QR update kernels (kernels/opencl/launch_qr.hpp: gemqrt, form_q, tpmqrt) run
// directly on the first OpenCL CPU device (PoCL; tests/opencl_env.hpp) without StarPU, against
// LAPACKE's xGEMQRT/xTPMQRT on the same V and T (made by LAPACKE's xGEQRT/xTPQRT): both sides, both
// transpositions (Qᵀ for s and d, Qᴴ for c and z), ib dividing k or not, ib above k, k below the
// row count, k above one super-block of the launchers (launch_qr.cpp); form_q against xGEMQRT on
// the identity. larft's merged T (CPU and OpenCL) is checked against xGEQRT's/xTPQRT's own T with
// ib = k, and the updates with it (ib = k) against LAPACKE's with the inner blocks. Buffers have a
// nonzero offset and ld > rows; V's upper triangle (gemqrt) is NaN, as the kernels must not read it.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/qr.hpp"
#include "kernels/opencl/launch_qr.hpp"
#include "tests/opencl_env.hpp"
#include "tests/uniform.hpp"

namespace {

using namespace tessera;
using namespace tessera::ocltest;

constexpr int64_t kOffset = 5;  // elements before (0, 0) in every buffer

template <class T>
bool has_nan(T x) {
    return std::isnan(double(std::real(x))) || std::isnan(double(std::imag(x)));
}

// A rows×cols column-major matrix with leading dimension rows + 3, stored at kOffset in a host
// vector and mirrored in an OpenCL buffer.
template <class T>
struct DevMat {
    int64_t rows, cols, ld;
    std::vector<T> host;
    cl_mem mem = nullptr;
    DevMat(int64_t r, int64_t c, std::mt19937_64& gen) : rows(r), cols(c), ld(r + 3), host(size_t(kOffset + ld * c + 4)) {
        for (T& x : host) {  // complex: real and imaginary parts
            const double re = testutil::uniform(gen, -0.5, 0.5);
            if constexpr (is_complex_v<T>)
                x = T(real_t<T>(re), real_t<T>(testutil::uniform(gen, -0.5, 0.5)));
            else
                x = T(re);
        }
    }
    ~DevMat() {
        if (mem) clReleaseMemObject(mem);
    }
    T& at(int64_t i, int64_t j) { return host[size_t(kOffset + i + j * ld)]; }
    T* data() { return host.data() + kOffset; }
    ocl::Mat upload() {
        cl_int err = CL_SUCCESS;
        mem = clCreateBuffer(Env::get().ctx(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host.size() * sizeof(T),
                             host.data(), &err);
        ocl::check(err, "clCreateBuffer");
        return {mem, size_t(kOffset), ld};
    }
    std::vector<T> download() {
        std::vector<T> out(host.size());
        ocl::check(clEnqueueReadBuffer(Env::get().queue(), mem, CL_TRUE, 0, out.size() * sizeof(T), out.data(), 0,
                                       nullptr, nullptr), "clEnqueueReadBuffer");
        return out;
    }
};

// max |got − want| (moduli for complex T) over the whole buffer (so writes outside the matrix
// count), scaled by (max |want| · rows · eps); infinite when either holds a NaN.
template <class T>
double scaled_difference(const std::vector<T>& got, const std::vector<T>& want, int64_t rows) {
    double diff = 0, norm = 0;
    for (size_t i = 0; i < got.size(); ++i) {
        if (has_nan(want[i]) || has_nan(got[i])) return INFINITY;
        diff = std::max(diff, double(std::abs(got[i] - want[i])));
        norm = std::max(norm, double(std::abs(want[i])));
    }
    return diff / (norm * double(rows) * std::numeric_limits<real_t<T>>::epsilon() / 2);
}

/// op(Q): Q and Qᵀ for real T, Q and Qᴴ for complex T (LAPACK's 'N', 'T' / 'N', 'C').
template <class T>
std::vector<Trans> q_ops() {
    return {Trans::NoTrans, is_complex_v<T> ? Trans::ConjTrans : Trans::Trans};
}

template <class T>
class QRKernels : public ::testing::Test {};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(QRKernels, Precisions);

struct Case {
    int64_t mv, k, ib, other;  // rows of V, reflectors, inner block, the dimension Q does not touch
};
// The last case has more reflectors than one of the launchers' super-blocks (TESSERA_QR_SB = 512:
// 480 = 10 blocks of 48 here), and a last super-block of one full and one partial inner block.
const Case kCases[] = {{40, 40, 8, 37}, {50, 33, 7, 20}, {70, 64, 40, 33}, {20, 12, 64, 70},
                       {9, 3, 1, 5},    {96, 80, 32, 65}, {600, 560, 48, 21}};

// V and T from xGEQRT of an mv×k tile (info: xGEQRT's), NaN above V's diagonal (the kernels must
// not read it), uploaded as vm and tm.
template <class T>
struct GeqrtFactors {
    DevMat<T> V, Tf;
    int info;
    ocl::Mat vm, tm;
    GeqrtFactors(const Case& c, std::mt19937_64& gen) : V(c.mv, c.k, gen), Tf(std::min(c.ib, c.k), c.k, gen) {
        Tf.ld = std::max<int64_t>(c.ib, 1) + 2;
        Tf.host.assign(size_t(kOffset + Tf.ld * c.k + 4), T(0));
        info = cpu::geqrt<T>(c.mv, c.k, c.ib, V.data(), V.ld, Tf.data(), Tf.ld);
        for (int64_t j = 0; j < c.k; ++j)
            for (int64_t i = 0; i <= j; ++i) V.at(i, j) = nan_value<T>();
        vm = V.upload(), tm = Tf.upload();
    }
};

TYPED_TEST(QRKernels, GemqrtMatchesLapacke) {
    using T = TypeParam;
    auto& env = Env::get();
    const auto& dk = env.template kernels<T>();
    std::mt19937_64 gen(1);
    for (const Case& c : kCases) {
        GeqrtFactors<T> f(c, gen);
        ASSERT_EQ(f.info, 0);
        for (Side side : {Side::Left, Side::Right})
            for (Trans trans : q_ops<T>()) {
                const bool left = side == Side::Left;
                const int64_t m = left ? c.mv : c.other, n = left ? c.other : c.mv;
                DevMat<T> C(m, n, gen);
                auto want = C.host;
                ASSERT_EQ(cpu::gemqrt<T>(side, trans, m, n, c.k, c.ib, f.V.data(), f.V.ld, f.Tf.data(), f.Tf.ld,
                                         want.data() + kOffset, C.ld), 0);
                ocl::gemqrt<T>(dk, env.queue(), side, trans, m, n, c.k, c.ib, f.vm, f.tm, C.upload());
                EXPECT_LE(scaled_difference(C.download(), want, c.mv), 60.0)
                    << "mv " << c.mv << " k " << c.k << " ib " << c.ib << " side " << char(side) << " trans "
                    << char(trans);
            }
    }
}

// form_q: op(Q) as an explicit mv×mv matrix, against LAPACKE's xGEMQRT applied to the identity; the
// buffer around the matrix must be left as it was.
TYPED_TEST(QRKernels, FormQMatchesLapackeOnTheIdentity) {
    using T = TypeParam;
    auto& env = Env::get();
    const auto& dk = env.template kernels<T>();
    std::mt19937_64 gen(3);
    for (const Case& c : kCases) {
        GeqrtFactors<T> f(c, gen);
        ASSERT_EQ(f.info, 0);
        for (Trans trans : q_ops<T>()) {
            DevMat<T> Q(c.mv, c.mv, gen);
            auto want = Q.host;
            for (int64_t j = 0; j < c.mv; ++j)
                for (int64_t i = 0; i < c.mv; ++i) want[size_t(kOffset + i + j * Q.ld)] = T(i == j ? 1 : 0);
            ASSERT_EQ(cpu::gemqrt<T>(Side::Left, trans, c.mv, c.mv, c.k, c.ib, f.V.data(), f.V.ld, f.Tf.data(),
                                     f.Tf.ld, want.data() + kOffset, Q.ld), 0);
            ocl::form_q<T>(dk, env.queue(), trans, c.mv, c.k, c.ib, f.vm, f.tm, Q.upload());
            EXPECT_LE(scaled_difference(Q.download(), want, c.mv), 60.0)
                << "mv " << c.mv << " k " << c.k << " ib " << c.ib << " trans " << char(trans);
        }
    }
}

TYPED_TEST(QRKernels, TpmqrtMatchesLapacke) {
    using T = TypeParam;
    auto& env = Env::get();
    const auto& dk = env.template kernels<T>();
    std::mt19937_64 gen(2);
    for (const Case& c : kCases) {
        // V (mv×k), T from xTPQRT of [R; B], R k×k upper triangular.
        DevMat<T> R(c.k, c.k, gen), V(c.mv, c.k, gen), Tf(std::min(c.ib, c.k), c.k, gen);
        Tf.ld = c.ib + 2;
        Tf.host.assign(size_t(kOffset + Tf.ld * c.k + 4), T(0));
        ASSERT_EQ(cpu::tpqrt<T>(c.mv, c.k, c.ib, R.data(), R.ld, V.data(), V.ld, Tf.data(), Tf.ld), 0);
        const ocl::Mat vm = V.upload(), tm = Tf.upload();
        for (Side side : {Side::Left, Side::Right})
            for (Trans trans : q_ops<T>()) {
                const bool left = side == Side::Left;
                // Left: A k×n, B mv×n; Right: A m×k, B m×mv.
                DevMat<T> A(left ? c.k : c.other, left ? c.other : c.k, gen);
                DevMat<T> B(left ? c.mv : c.other, left ? c.other : c.mv, gen);
                auto want_a = A.host, want_b = B.host;
                ASSERT_EQ(cpu::tpmqrt<T>(side, trans, B.rows, B.cols, c.k, c.ib, V.data(), V.ld, Tf.data(), Tf.ld,
                                         want_a.data() + kOffset, A.ld, want_b.data() + kOffset, B.ld), 0);
                const ocl::Mat am = A.upload(), bm = B.upload();
                ocl::tpmqrt<T>(dk, env.queue(), side, trans, B.rows, B.cols, c.k, c.ib, vm, tm, am, bm);
                const std::string what = "mv " + std::to_string(c.mv) + " k " + std::to_string(c.k) + " ib " +
                                         std::to_string(c.ib) + " side " + char(side) + " trans " + char(trans);
                EXPECT_LE(scaled_difference(A.download(), want_a, c.mv + c.k), 60.0) << what;
                EXPECT_LE(scaled_difference(B.download(), want_b, c.mv + c.k), 60.0) << what;
            }
    }
}

// The T of all k reflectors, merged from the inner blocks by larft (CPU and OpenCL), against the T
// that xGEQRT / xTPQRT compute themselves with ib = k from the same matrix; then the updates with
// it (ib = k, one block) against LAPACKE's with the inner blocks, Left and Qᴴ as geqrf applies them.
TYPED_TEST(QRKernels, LarftMergesTheInnerBlocks) {
    using T = TypeParam;
    auto& env = Env::get();
    const auto& dk = env.template kernels<T>();
    std::mt19937_64 gen(3);
    const Trans qh = q_ops<T>()[1];
    for (const Case& c : kCases)
        for (bool below_identity : {false, true}) {
            const std::string what = std::string(below_identity ? "tpqrt" : "geqrt") + " mv " + std::to_string(c.mv) +
                                     " k " + std::to_string(c.k) + " ib " + std::to_string(c.ib);
            // V and its inner blocks Tf; Tref: the same factorization with ib = k.
            DevMat<T> R(c.k, c.k, gen), V(c.mv, c.k, gen), Tf(c.k, c.k, gen), Tref(c.k, c.k, gen);
            auto r = R.host, v = V.host;
            if (below_identity) {
                ASSERT_EQ(cpu::tpqrt<T>(c.mv, c.k, c.ib, R.data(), R.ld, V.data(), V.ld, Tf.data(), Tf.ld), 0);
                ASSERT_EQ(cpu::tpqrt<T>(c.mv, c.k, c.k, r.data() + kOffset, R.ld, v.data() + kOffset, V.ld,
                                        Tref.data(), Tref.ld), 0);
            } else {
                ASSERT_EQ(cpu::geqrt<T>(c.mv, c.k, c.ib, V.data(), V.ld, Tf.data(), Tf.ld), 0);
                ASSERT_EQ(cpu::geqrt<T>(c.mv, c.k, c.k, v.data() + kOffset, V.ld, Tref.data(), Tref.ld), 0);
                for (int64_t j = 0; j < c.k; ++j)
                    for (int64_t i = 0; i <= j; ++i) V.at(i, j) = nan_value<T>();  // not to be read
            }
            DevMat<T> Tk(c.k, c.k, gen);
            auto tk_cpu = Tk.host;
            cpu::larft<T>(below_identity, c.mv, c.k, c.ib, V.data(), V.ld, Tf.data(), Tf.ld, tk_cpu.data() + kOffset,
                          Tk.ld);
            const ocl::Mat vm = V.upload(), tfm = Tf.upload(), tkm = Tk.upload();
            ocl::larft<T>(dk, env.queue(), below_identity, c.mv, c.k, c.ib, vm, tfm, tkm);
            const auto tk_ocl = Tk.download();
            // Against the reference: the upper triangles (LAPACK leaves Tref's lower part alone).
            double diff = 0, norm = 0;
            for (int64_t j = 0; j < c.k; ++j)
                for (int64_t i = 0; i < c.k; ++i) {
                    const size_t at = size_t(kOffset + i + j * Tk.ld);
                    const T want = i <= j ? Tref.at(i, j) : T(0);
                    diff = std::max(diff, double(std::abs(tk_cpu[at] - want)));
                    norm = std::max(norm, double(std::abs(want)));
                }
            EXPECT_LE(diff / (norm * double(c.mv + c.k) * std::numeric_limits<real_t<T>>::epsilon()), 60.0) << what;
            EXPECT_LE(scaled_difference(tk_ocl, tk_cpu, c.mv + c.k), 60.0) << what;
            // The updates with the merged T in one block.
            DevMat<T> A(c.k, c.other, gen), C(c.mv, c.other, gen);
            auto want_a = A.host, want_c = C.host;
            const ocl::Mat am = A.upload(), cm = C.upload();
            if (below_identity) {
                ASSERT_EQ(cpu::tpmqrt<T>(Side::Left, qh, c.mv, c.other, c.k, c.ib, V.data(), V.ld, Tf.data(), Tf.ld,
                                         want_a.data() + kOffset, A.ld, want_c.data() + kOffset, C.ld), 0);
                ocl::tpmqrt<T>(dk, env.queue(), Side::Left, qh, c.mv, c.other, c.k, c.k, vm, tkm, am, cm);
                EXPECT_LE(scaled_difference(A.download(), want_a, c.mv + c.k), 60.0) << what;
            } else {
                ASSERT_EQ(cpu::gemqrt<T>(Side::Left, qh, c.mv, c.other, c.k, c.ib, V.data(), V.ld, Tf.data(), Tf.ld,
                                         want_c.data() + kOffset, C.ld), 0);
                ocl::gemqrt<T>(dk, env.queue(), Side::Left, qh, c.mv, c.other, c.k, c.k, vm, tkm, cm);
            }
            EXPECT_LE(scaled_difference(C.download(), want_c, c.mv + c.k), 60.0) << what;
        }
}

}  // namespace
