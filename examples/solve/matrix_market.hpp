// Reader of the Matrix Market exchange format (https://math.nist.gov/MatrixMarket/formats.html)
// into a dense column-major array, for tessera-solve.
//
// Supported: object "matrix"; format "array" (dense, column-major) and "coordinate" (one entry per
// line, 1-based "i j value"); field "real", "integer" and "pattern" (coordinate only, every stored
// entry is 1); symmetry "general", "symmetric" and "skew-symmetric". Banner keywords are
// case-insensitive; a UTF-8 byte order mark before the banner is skipped. Lines starting with '%'
// after the banner and blank lines are skipped.
// Symmetric and skew-symmetric files store one triangle: an array file the lower one column by
// column (the diagonal excluded for skew-symmetric); a coordinate file either triangle, mirrored on
// reading (aᵢⱼ = aⱼᵢ, or −aⱼᵢ). Not supported: field "complex" and symmetry "hermitian" (a clear
// "not supported yet" error). Anything malformed gives an MMError naming the file and line.
#pragma once

#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::solve {

enum class MMFormat { Array, Coordinate };
enum class MMField { Real, Integer, Pattern };
enum class MMSymmetry { General, Symmetric, SkewSymmetric };

/// A matrix read from a Matrix Market file, expanded to a dense m×n column-major array (lda = m),
/// both triangles filled for symmetric and skew-symmetric files.
struct MMMatrix {
    int64_t m = 0, n = 0;
    MMFormat format = MMFormat::Coordinate;
    MMField field = MMField::Real;
    MMSymmetry symmetry = MMSymmetry::General;
    int64_t stored = 0;     ///< entries stored in the file (values of an array file, lines of a coordinate file)
    std::vector<double> a;  ///< a[i + j·m] = A(i, j)
    double& at(int64_t i, int64_t j) { return a[size_t(i + j * m)]; }
    double at(int64_t i, int64_t j) const { return a[size_t(i + j * m)]; }
};

/// Malformed or unsupported file: what() is the one line "FILE:LINE: what is wrong" (LINE 1-based;
/// 0 when the file cannot be opened).
struct MMError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// "array", "coordinate"; "real", ...; "general", ... (the banner's spelling).
const char* to_string(MMFormat f);
const char* to_string(MMField f);
const char* to_string(MMSymmetry s);

/// Largest m, n and m·n accepted (the dense array, b = A·1 and the tile copies must fit in memory):
/// 2^28, 2 GiB as double. Each dimension is bounded, not only the product: an m×0 matrix stores
/// nothing, but its solve still allocates m-entry vectors. A larger declared size is an MMError.
constexpr int64_t kMaxDenseEntries = int64_t(1) << 28;

/// Parse a Matrix Market stream; `name` is the file name used in error messages. `max_entries`
/// bounds m, n and m·n (a smaller bound lets the fuzz target, tests/fuzz/, stay within its memory).
MMMatrix parse_matrix_market(std::istream& in, const std::string& name, int64_t max_entries = kMaxDenseEntries);
/// Open and parse a file. Throws MMError.
MMMatrix read_matrix_market(const std::string& path);

}  // namespace tessera::solve
