// Real spherical harmonics up to degree L, 4π-normalized (geodesy convention: the mean of each
// function's square over the sphere is 1), evaluated with the stable recurrences of the fully
// normalized associated Legendre functions P̄ₙₘ (Holmes and Featherstone 2002, eqs. 11-13).
// Header-only.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace tessera::apps {

/// Number of real spherical harmonics of degree ≤ L: (L + 1)².
constexpr int64_t sh_count(int64_t L) { return (L + 1) * (L + 1); }

/// Evaluates every real spherical harmonic of degree ≤ L at one point. Order of the values:
/// degree n = 0, 1, …, L; within degree n, P̄ₙ₀, then P̄ₙₘ·cos(mλ), P̄ₙₘ·sin(mλ) for m = 1, …, n
/// (index n² for m = 0, n² + 2m − 1 and n² + 2m for m ≥ 1).
class SphericalHarmonics {
public:
    explicit SphericalHarmonics(int64_t L) : L_(L), p_(size_t((L + 1) * (L + 1))), a_(p_.size()), b_(p_.size()) {
        for (int64_t m = 0; m <= L; ++m)
            for (int64_t n = m + 2; n <= L; ++n) {
                const double nm = double((n - m) * (n + m));
                a_[idx(n, m)] = std::sqrt(double((2 * n - 1) * (2 * n + 1)) / nm);
                b_[idx(n, m)] = std::sqrt(double((2 * n + 1) * (n + m - 1) * (n - m - 1)) / (nm * double(2 * n - 3)));
            }
    }

    int64_t degree() const { return L_; }
    int64_t count() const { return sh_count(L_); }

    /// Write the count() values at latitude lat_deg, longitude lon_deg (degrees) into out[0..count()).
    template <class T>
    void evaluate(double lat_deg, double lon_deg, T* out) {
        const double deg = 3.14159265358979323846 / 180.0;
        const double t = std::sin(lat_deg * deg), u = std::cos(lat_deg * deg), lon = lon_deg * deg;
        // Sectoral terms P̄ₘₘ, then the columns of fixed order m upward in degree.
        for (int64_t m = 0; m <= L_; ++m) {
            double& pmm = p_[idx(m, m)];
            pmm = m == 0 ? 1.0 : m == 1 ? std::sqrt(3.0) * u : u * std::sqrt(double(2 * m + 1) / double(2 * m)) * p_[idx(m - 1, m - 1)];
            if (m + 1 <= L_) p_[idx(m + 1, m)] = std::sqrt(double(2 * m + 3)) * t * pmm;
            for (int64_t n = m + 2; n <= L_; ++n)
                p_[idx(n, m)] = a_[idx(n, m)] * t * p_[idx(n - 1, m)] - b_[idx(n, m)] * p_[idx(n - 2, m)];
        }
        for (int64_t n = 0; n <= L_; ++n) {
            out[n * n] = T(p_[idx(n, 0)]);
            for (int64_t m = 1; m <= n; ++m) {
                const double pnm = p_[idx(n, m)];  // includes the √2 of m > 0 (full normalization)
                out[n * n + 2 * m - 1] = T(pnm * std::cos(double(m) * lon));
                out[n * n + 2 * m] = T(pnm * std::sin(double(m) * lon));
            }
        }
    }

private:
    size_t idx(int64_t n, int64_t m) const { return size_t(n * (L_ + 1) + m); }
    int64_t L_;
    std::vector<double> p_, a_, b_;  ///< P̄ₙₘ of the last point and the recurrence coefficients
};

}  // namespace tessera::apps
