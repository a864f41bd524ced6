// Several application threads submitting and waiting on their own sequences through one Runtime:
// four threads each run potrf, getrf and geqrf (+ ungqr) on their own matrices, in rotated orders so
// that different algorithms overlap, and every result passes the scaled residual checks of
// docs/architecture.md#numerical-checks. A failure in one thread's tasks is reported to that thread
// only.
#include <algorithm>
#include <atomic>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "examples/common/checks.hpp"
#include "examples/common/checks_lu.hpp"
#include "examples/common/checks_qr.hpp"
#include "tests/test_env.hpp"

namespace tessera {
namespace {

using test::RuntimeTest;

class Concurrency : public RuntimeTest {
protected:
    void SetUp() override {
        RuntimeTest::SetUp();
        allow_cpu_tasks();  // LU and QR panels are CPU codelets
    }
};

constexpr int kThreads = 4;
constexpr int64_t kN = 300, kNb = 64, kQrCols = 236;  // n not divisible by nb; a tall QR

struct Residuals {
    double potrf = -1, getrf = -1, qr = -1, orthogonality = -1;
    std::string error;  // what the thread caught, if anything
};

double run_potrf(uint64_t seed) {
    auto a = check::random_spd<double>(kN, kN, seed), f = a;
    TileMatrix<double> A(kN, kN, kNb);
    A.fill_from_lapack(a.data(), kN);
    if (potrf(Uplo::Lower, A) != 0) throw std::runtime_error("potrf reported info > 0");
    A.to_lapack(f.data(), kN);
    return check::potrf_residual(Uplo::Lower, kN, a.data(), kN, f.data(), kN);
}

double run_getrf(uint64_t seed) {
    auto a = check::random_matrix<double>(kN, kN, kN, seed), f = a;
    TileMatrix<double> A(kN, kN, kNb);
    A.fill_from_lapack(a.data(), kN);
    std::vector<int64_t> ipiv;
    if (getrf(A, ipiv) != 0) throw std::runtime_error("getrf reported info > 0");
    A.to_lapack(f.data(), kN);
    return check::getrf_residual(kN, kN, a.data(), kN, f.data(), kN, ipiv.data());
}

void run_geqrf(uint64_t seed, Residuals& r) {
    const int64_t m = kN, n = kQrCols;
    auto a = check::random_matrix<double>(m, n, m, seed), f = a;
    std::vector<double> q(size_t(m * n));
    TileMatrix<double> A(m, n, kNb), Q(m, n, kNb);
    A.fill_from_lapack(a.data(), m);
    QRFactors<double> F = geqrf(A, {.ib = 16});
    ungqr(A, F, Q);
    A.to_lapack(f.data(), m);
    Q.to_lapack(q.data(), m);
    r.qr = check::qr_residual(m, n, a.data(), m, q.data(), m, f.data(), m);
    r.orthogonality = check::orthogonality_residual(m, n, q.data(), m);
}

// Start all threads together, so that their graphs overlap, and join them.
template <class F>
void run_threads(F&& body) {
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            ready.fetch_add(1);
            while (ready.load() < kThreads) std::this_thread::yield();
            body(t);
        });
    for (std::thread& th : threads) th.join();
}

TEST_F(Concurrency, FourThreadsFactorTheirOwnMatrices) {
    std::vector<Residuals> results(kThreads);
    run_threads([&](int t) {
        Residuals& r = results[size_t(t)];
        try {
            for (int step = 0; step < 3; ++step) switch ((t + step) % 3) {  // rotated: algorithms overlap
                    case 0: r.potrf = run_potrf(100 + t); break;
                    case 1: r.getrf = run_getrf(200 + t); break;
                    default: run_geqrf(300 + t, r); break;
                }
        } catch (const std::exception& e) {
            r.error = e.what();
        }
    });
    for (int t = 0; t < kThreads; ++t) {
        const Residuals& r = results[size_t(t)];
        EXPECT_EQ(r.error, "") << "thread " << t;
        for (double v : {r.potrf, r.getrf, r.qr, r.orthogonality}) {
            EXPECT_GE(v, 0) << "thread " << t << ": a residual was not computed";
            EXPECT_LE(v, check::kThreshold) << "thread " << t;
        }
    }
}

// Thread 0's generator throws: only thread 0 gets the TaskError (its failure outside any sequence
// is its own), the other threads' factorizations are correct, and thread 0's next one too.
TEST_F(Concurrency, AFailureIsReportedToItsThreadOnly) {
    std::vector<Residuals> results(kThreads);
    std::vector<std::string> task_errors(kThreads);
    run_threads([&](int t) {
        Residuals& r = results[size_t(t)];
        try {
            if (t == 0) {
                TileMatrix<double> A(kN, kN, kNb);
                A.generate([](int64_t i0, int64_t j0, int64_t rows, int64_t cols, double* tile, int64_t ld) {
                    if (i0 == kNb && j0 == 0) throw std::runtime_error("thread 0's generator fails");
                    for (int64_t j = 0; j < cols; ++j) std::fill(tile + j * ld, tile + j * ld + rows, 1.0);
                });
                try {
                    potrf(Uplo::Lower, A);
                } catch (const TaskError& e) {
                    task_errors[0] = e.what();
                }
            }
            r.potrf = run_potrf(400 + t);
            r.getrf = run_getrf(500 + t);
        } catch (const std::exception& e) {
            r.error = e.what();
        }
    });
    EXPECT_NE(task_errors[0].find("failed: thread 0's generator fails"), std::string::npos) << task_errors[0];
    for (int t = 0; t < kThreads; ++t) {
        const Residuals& r = results[size_t(t)];
        EXPECT_EQ(r.error, "") << "thread " << t;
        for (double v : {r.potrf, r.getrf}) {
            EXPECT_GE(v, 0) << "thread " << t << ": a residual was not computed";
            EXPECT_LE(v, check::kThreshold) << "thread " << t;
        }
    }
}

}  // namespace
}  // namespace tessera
