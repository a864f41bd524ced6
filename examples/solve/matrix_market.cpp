// Matrix Market reader (see matrix_market.hpp).
#include "examples/solve/matrix_market.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "examples/common/line_reader.hpp"

namespace tessera::solve {

const char* to_string(MMFormat f) { return f == MMFormat::Array ? "array" : "coordinate"; }
const char* to_string(MMField f) {
    return f == MMField::Real ? "real" : f == MMField::Integer ? "integer" : f == MMField::Pattern ? "pattern" : "complex";
}
const char* to_string(MMSymmetry s) {
    return s == MMSymmetry::General     ? "general"
           : s == MMSymmetry::Symmetric ? "symmetric"
           : s == MMSymmetry::Hermitian ? "hermitian"
                                        : "skew-symmetric";
}

namespace {

/// Line-by-line reader that knows its line number and raises errors naming file and line.
class Reader {
public:
    Reader(std::istream& in, const std::string& name) : in_(in), lines_(in, name), name_(name) {}

    [[noreturn]] void fail(const std::string& what) const { fail_at(line_, what); }
    [[noreturn]] void fail_at(int64_t line, const std::string& what) const {
        throw MMError(name_ + ":" + std::to_string(line) + ": " + what);
    }
    int64_t line() const { return line_; }

    /// Next line's whitespace-separated tokens, skipping blank lines and (when skip_comments) lines
    /// starting with '%'. Returns false at the end of the file. A line longer than tool::kMaxLineBytes
    /// is an MMError (a file without line ends, /dev/zero, is not read into memory whole).
    bool next(std::vector<std::string>& tokens, bool skip_comments = true) {
        std::string& text = text_;
        for (;;) {
            try {
                if (!lines_.next(text)) break;
            } catch (const tool::InputError& e) {
                throw MMError(e.what());
            }
            line_ = lines_.line();
            // Editors on Windows may start a UTF-8 file with a byte order mark; it is not part of the banner.
            if (line_ == 1 && text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
            if (!text.empty() && text.back() == '\r') text.pop_back();
            if (skip_comments && !text.empty() && text[0] == '%') continue;
            std::istringstream s(text);
            tokens.clear();
            for (std::string t; s >> t;) tokens.push_back(t);
            if (!tokens.empty() || !skip_comments) return true;
        }
        if (in_.bad()) fail("read error");
        return false;
    }

    int64_t integer(const std::string& tok, const char* what) const {
        const char* begin = tok.c_str();
        char* end = nullptr;
        errno = 0;
        const long long v = std::strtoll(begin, &end, 10);
        // The whole token, not up to a NUL byte inside it (c_str() would stop there: "1\0x" is no 1).
        if (end == begin || end != begin + tok.size()) fail(std::string(what) + " '" + tool::excerpt(tok) + "' is not an integer");
        if (errno == ERANGE) fail(std::string(what) + " '" + tool::excerpt(tok) + "' is out of the 64-bit integer range");
        return v;
    }

    double real(const std::string& tok, MMField field) const {
        if (field == MMField::Integer) return double(integer(tok, "value"));
        const char* begin = tok.c_str();
        char* end = nullptr;
        errno = 0;
        const double v = std::strtod(begin, &end);
        if (end == begin || end != begin + tok.size()) fail("value '" + tool::excerpt(tok) + "' is not a number");
        if (!std::isfinite(v) || (errno == ERANGE && std::abs(v) > 1)) fail("value '" + tool::excerpt(tok) + "' is not a finite number");
        return v;
    }

private:
    std::istream& in_;
    tool::LineReader lines_;
    std::string text_;
    const std::string& name_;
    int64_t line_ = 0;
};

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

// "1 entry", "2 entries", "0 words".
std::string plural(int64_t count, const std::string& noun) {
    if (count == 1) return "1 " + noun;
    const bool y = !noun.empty() && noun.back() == 'y';
    return std::to_string(count) + " " + (y ? noun.substr(0, noun.size() - 1) + "ies" : noun + "s");
}

// Banner: %%MatrixMarket matrix <format> <field> <symmetry>
void read_banner(Reader& r, MMMatrix& M) {
    std::vector<std::string> t;
    if (!r.next(t, false)) r.fail_at(1, "empty file, expected the banner '%%MatrixMarket matrix ...'");
    if (t.empty() || lower(t[0]) != "%%matrixmarket")
        r.fail("expected the banner '%%MatrixMarket matrix <format> <field> <symmetry>' on the first line");
    if (t.size() != 5) r.fail("the banner has " + plural(int64_t(t.size()) - 1, "word") + " after %%MatrixMarket, expected 4");
    if (lower(t[1]) != "matrix") r.fail("object '" + tool::excerpt(t[1]) + "' is not supported (only 'matrix')");
    const std::string format = lower(t[2]), field = lower(t[3]), symmetry = lower(t[4]);
    if (format == "array") M.format = MMFormat::Array;
    else if (format == "coordinate") M.format = MMFormat::Coordinate;
    else r.fail("unknown format '" + tool::excerpt(t[2]) + "' (expected array or coordinate)");
    if (field == "real") M.field = MMField::Real;
    else if (field == "integer") M.field = MMField::Integer;
    else if (field == "pattern") M.field = MMField::Pattern;
    else if (field == "complex") M.field = MMField::Complex;
    else r.fail("unknown field '" + tool::excerpt(t[3]) + "' (expected real, integer, pattern or complex)");
    if (symmetry == "general") M.symmetry = MMSymmetry::General;
    else if (symmetry == "symmetric") M.symmetry = MMSymmetry::Symmetric;
    else if (symmetry == "skew-symmetric") M.symmetry = MMSymmetry::SkewSymmetric;
    else if (symmetry == "hermitian") M.symmetry = MMSymmetry::Hermitian;
    else r.fail("unknown symmetry '" + tool::excerpt(t[4]) + "' (expected general, symmetric, skew-symmetric or hermitian)");
    if (M.field == MMField::Pattern && M.format == MMFormat::Array) r.fail("field 'pattern' needs the coordinate format");
    if (M.field == MMField::Pattern && M.symmetry == MMSymmetry::SkewSymmetric)
        r.fail("field 'pattern' cannot be skew-symmetric (its entries have no sign)");
    // The format defines hermitian for the complex field only (a real hermitian matrix is symmetric).
    if (M.symmetry == MMSymmetry::Hermitian && M.field != MMField::Complex)
        r.fail("symmetry 'hermitian' needs the complex field, not '" + tool::excerpt(t[3]) + "' (a real hermitian matrix is 'symmetric')");
}

// Bound each dimension and the product before anything is allocated. The product alone let an
// m×0 header with m = 10^10 through, and tessera-solve then allocated b = A·1 (80 GB); the
// multiplication is overflow-checked so that no pair of dimensions can wrap around the bound.
void check_size(const Reader& r, const MMMatrix& M, int64_t max_entries) {
    const std::string size = std::to_string(M.m) + " x " + std::to_string(M.n);
    const std::string limit = std::to_string(max_entries);
    if (M.m > max_entries || M.n > max_entries)
        r.fail("matrix " + size + " is too large for a dense solve (limit " + limit + " rows or columns)");
    int64_t entries = 0;
    if (__builtin_mul_overflow(M.m, M.n, &entries) || entries > max_entries)
        r.fail("matrix " + size + " is too large for a dense solve (limit " + limit + " entries)");
}

// Size line: "M N" (array) or "M N NNZ" (coordinate). Returns the number of entries to read.
int64_t read_size(Reader& r, MMMatrix& M, int64_t max_entries) {
    std::vector<std::string> t;
    const bool coo = M.format == MMFormat::Coordinate;
    if (!r.next(t)) r.fail(std::string("end of file before the size line '") + (coo ? "M N NNZ" : "M N") + "'");
    if (t.size() != (coo ? 3u : 2u))
        r.fail(std::string("size line has ") + plural(int64_t(t.size()), "number") + ", expected " + (coo ? "3 (M N NNZ)" : "2 (M N)"));
    M.m = r.integer(t[0], "row count");
    M.n = r.integer(t[1], "column count");
    if (M.m < 0 || M.n < 0) r.fail("negative matrix size " + tool::excerpt(t[0]) + " x " + tool::excerpt(t[1]));
    if (M.symmetry != MMSymmetry::General && M.m != M.n)
        r.fail(std::string("a ") + to_string(M.symmetry) + " matrix must be square, got " + tool::excerpt(t[0]) + " x " + tool::excerpt(t[1]));
    check_size(r, M, max_entries);
    // Entries one triangle holds: all of them, or n(n+1)/2 with the diagonal, n(n−1)/2 without.
    const int64_t capacity = M.symmetry == MMSymmetry::General         ? M.m * M.n
                             : M.symmetry == MMSymmetry::SkewSymmetric ? M.n * (M.n - 1) / 2
                                                                       : M.n * (M.n + 1) / 2;
    if (!coo) return capacity;
    const int64_t nnz = r.integer(t[2], "entry count");
    if (nnz < 0 || nnz > capacity)
        r.fail("entry count " + tool::excerpt(t[2]) + " outside [0, " + std::to_string(capacity) + "] for a " + tool::excerpt(t[0]) + " x " + tool::excerpt(t[1]) +
               " " + to_string(M.symmetry) + " matrix");
    return nnz;
}

/// One value of the file: its real part and, for the complex field, its imaginary part (0 otherwise).
struct Value {
    double re = 0, im = 0;
};

/// The value in tokens t[first...]: one number, or two ("re im") for the complex field. At (i, i) of
/// a Hermitian matrix (`diagonal`), an imaginary part other than 0 is an error naming the entry.
Value read_value(const Reader& r, const MMMatrix& M, const std::vector<std::string>& t, size_t first, int64_t i,
                 bool diagonal) {
    if (M.field == MMField::Pattern) return {1.0, 0.0};
    Value v{r.real(t[first], M.field), 0.0};
    if (!M.is_complex()) return v;
    v.im = r.real(t[first + 1], M.field);
    if (diagonal && M.symmetry == MMSymmetry::Hermitian && v.im != 0)
        r.fail("diagonal entry (" + std::to_string(i + 1) + ", " + std::to_string(i + 1) + ") has imaginary part " +
               t[first + 1] + ": a hermitian matrix's diagonal is real");
    return v;
}

/// aⱼᵢ from aᵢⱼ (i ≠ j) in a symmetric (v), skew-symmetric (−v) or Hermitian (conj(v)) matrix.
Value mirror(MMSymmetry s, Value v) {
    if (s == MMSymmetry::SkewSymmetric) return {-v.re, -v.im};
    if (s == MMSymmetry::Hermitian) return {v.re, -v.im};
    return v;
}

// A(p, q) = v (its imaginary part only where the matrix has one).
void set(MMMatrix& M, int64_t p, int64_t q, Value v) {
    M.at(p, q) = v.re;
    if (M.is_complex()) M.im[size_t(p + q * M.m)] = v.im;
}

// Store A(i, j) = v and its mirror (v, −v or conj(v)); `seen` flags every position written so far.
void store(Reader& r, MMMatrix& M, std::vector<bool>& seen, int64_t i, int64_t j, Value v) {
    auto put = [&](int64_t p, int64_t q, Value value) {
        if (seen[size_t(p + q * M.m)])
            r.fail("duplicate entry (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) + ")" +
                   (M.symmetry != MMSymmetry::General && i != j ? ": a " + std::string(to_string(M.symmetry)) +
                                                                      " file gives each pair (i, j), (j, i) once"
                                                                : std::string()));
        seen[size_t(p + q * M.m)] = true;
        set(M, p, q, value);
    };
    put(i, j, v);
    if (i != j && M.symmetry != MMSymmetry::General) put(j, i, mirror(M.symmetry, v));
}

void read_coordinate(Reader& r, MMMatrix& M, int64_t nnz) {
    std::vector<bool> seen(M.a.size(), false);
    const size_t want = M.field == MMField::Pattern ? 2 : M.is_complex() ? 4 : 3;
    std::vector<std::string> t;
    for (int64_t k = 0; k < nnz; ++k) {
        if (!r.next(t)) r.fail("end of file after " + plural(k, "entry") + ", the size line declares " + std::to_string(nnz));
        if (t.size() != want)
            r.fail("entry has " + plural(int64_t(t.size()), "field") + ", expected " +
                   (want == 2   ? "2 (i j) for a pattern matrix"
                    : want == 4 ? "4 (i j re im) for a complex matrix"
                                : "3 (i j value)"));
        const int64_t i = r.integer(t[0], "row index"), j = r.integer(t[1], "column index");
        if (i < 1 || i > M.m) r.fail("row index " + tool::excerpt(t[0]) + " outside [1, " + std::to_string(M.m) + "]");
        if (j < 1 || j > M.n) r.fail("column index " + tool::excerpt(t[1]) + " outside [1, " + std::to_string(M.n) + "]");
        if (i == j && M.symmetry == MMSymmetry::SkewSymmetric)
            r.fail("diagonal entry (" + tool::excerpt(t[0]) + ", " + tool::excerpt(t[1]) + ") in a skew-symmetric matrix (its diagonal is zero and not stored)");
        store(r, M, seen, i - 1, j - 1, read_value(r, M, t, 2, i - 1, i == j));
    }
    M.stored = nnz;
}

void read_array(Reader& r, MMMatrix& M, int64_t count) {
    std::vector<std::string> t;
    const int64_t first_below = M.symmetry == MMSymmetry::SkewSymmetric ? 1 : 0;
    const size_t want = M.is_complex() ? 2 : 1;
    int64_t k = 0;
    for (int64_t j = 0; j < M.n; ++j) {
        for (int64_t i = M.symmetry == MMSymmetry::General ? 0 : j + first_below; i < M.m; ++i, ++k) {
            if (!r.next(t)) r.fail("end of file after " + plural(k, "value") + ", the size line implies " + std::to_string(count));
            if (t.size() != want)
                r.fail("array line has " + plural(int64_t(t.size()), "field") + ", expected " +
                       (want == 1 ? "one value" : "two values (re im) for a complex matrix"));
            const Value v = read_value(r, M, t, 0, i, i == j);
            set(M, i, j, v);
            if (M.symmetry != MMSymmetry::General && i != j) set(M, j, i, mirror(M.symmetry, v));
        }
    }
    M.stored = count;
}

}  // namespace

MMMatrix parse_matrix_market(std::istream& in, const std::string& name, int64_t max_entries) {
    Reader r(in, name);
    MMMatrix M;
    read_banner(r, M);
    const int64_t count = read_size(r, M, max_entries);
    M.a.assign(size_t(M.m * M.n), 0.0);
    if (M.is_complex()) M.im.assign(size_t(M.m * M.n), 0.0);
    if (M.format == MMFormat::Coordinate) read_coordinate(r, M, count);
    else read_array(r, M, count);
    std::vector<std::string> t;
    if (r.next(t))
        r.fail(std::string("more ") + (M.format == MMFormat::Array ? "values than the " : "entries than the ") +
               std::to_string(count) + " the size line declares");
    return M;
}

}  // namespace tessera::solve
