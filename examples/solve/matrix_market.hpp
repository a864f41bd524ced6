// Reader of the Matrix Market exchange format (https://math.nist.gov/MatrixMarket/formats.html)
// into a dense column-major array, for tessera-solve.
//
// Supported: object "matrix"; format "array" (dense, column-major) and "coordinate" (one entry per
// line, 1-based "i j value"); field "real", "integer", "pattern" (coordinate only, every stored entry
// is 1) and "complex" (each value is two numbers "re im": "i j re im" in a coordinate file, "re im"
// on an array line); symmetry "general", "symmetric", "skew-symmetric" and "hermitian" (complex
// field only, as the format defines it). Banner keywords are case-insensitive; a UTF-8 byte order
// mark before the banner is skipped. Lines starting with '%' after the banner and blank lines are
// skipped.
// Symmetric, skew-symmetric and Hermitian files store one triangle: an array file the lower one
// column by column (the diagonal excluded for skew-symmetric); a coordinate file either triangle,
// mirrored on reading (aⱼᵢ = aᵢⱼ, −aᵢⱼ, or conj(aᵢⱼ) for Hermitian; a complex symmetric matrix is
// mirrored without conjugation). A Hermitian file's diagonal entries must be real (imaginary part 0).
// Anything malformed gives an MMError naming the file and line.
#pragma once

#include <complex>
#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::solve {

enum class MMFormat { Array, Coordinate };
enum class MMField { Real, Integer, Pattern, Complex };
enum class MMSymmetry { General, Symmetric, SkewSymmetric, Hermitian };

/// A matrix read from a Matrix Market file, expanded to a dense m×n column-major array (lda = m),
/// both triangles filled for symmetric, skew-symmetric and Hermitian files. Real parts in `a`;
/// imaginary parts in `im`, which holds m·n entries for a complex file and none otherwise (so that
/// a real matrix costs one array).
struct MMMatrix {
    int64_t m = 0, n = 0;
    MMFormat format = MMFormat::Coordinate;
    MMField field = MMField::Real;
    MMSymmetry symmetry = MMSymmetry::General;
    int64_t stored = 0;      ///< entries stored in the file (values of an array file, lines of a coordinate file)
    std::vector<double> a;   ///< a[i + j·m] = Re A(i, j)
    std::vector<double> im;  ///< im[i + j·m] = Im A(i, j) for a complex file; empty otherwise
    bool is_complex() const { return field == MMField::Complex; }
    double& at(int64_t i, int64_t j) { return a[size_t(i + j * m)]; }
    double at(int64_t i, int64_t j) const { return a[size_t(i + j * m)]; }
    /// A(i, j) as a complex number (imaginary part 0 for a real file).
    std::complex<double> value(int64_t i, int64_t j) const {
        const size_t k = size_t(i + j * m);
        return {a[k], im.empty() ? 0.0 : im[k]};
    }
};

/// Malformed or unsupported file: what() is the one line "FILE:LINE: what is wrong" (LINE 1-based),
/// or "FILE: what is wrong" when the file cannot be opened or is a directory.
struct MMError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// "array", "coordinate"; "real", ..., "complex"; "general", ..., "hermitian" (the banner's spelling).
const char* to_string(MMFormat f);
const char* to_string(MMField f);
const char* to_string(MMSymmetry s);

/// Largest m, n and m·n accepted (the dense array, b = A·1 and the tile copies must fit in memory):
/// 2^28, 2 GiB as double (4 GiB as complex double). Each dimension is bounded, not only the
/// product: an m×0 matrix stores nothing, but its solve still allocates m-entry vectors. A larger
/// declared size is an MMError.
constexpr int64_t kMaxDenseEntries = int64_t(1) << 28;

/// Parse a Matrix Market stream; `name` is the file name used in error messages. `max_entries`
/// bounds m, n and m·n (a smaller bound lets the fuzz target, tests/fuzz/, stay within its memory).
/// Lines are read with tool::LineReader: a line longer than tool::kMaxLineBytes (1 MiB) is an MMError
/// "FILE:LINE: line longer than 1048576 bytes ...", and a token quoted in a message is cut after 40
/// characters.
MMMatrix parse_matrix_market(std::istream& in, const std::string& name, int64_t max_entries = kMaxDenseEntries);
/// (tessera-solve opens and parses its files with progress: read_progress.hpp.)

}  // namespace tessera::solve
