// The one way the tools read their text input files (tessera-solve's Matrix Market files and --rhs,
// the applications' --data and --predict CSV files): opening a path (a regular file, a pipe or
// /dev/stdin alike; a directory refused by name), reading it line by line with a bound on a line's
// length, so that a file without line ends (/dev/zero) is refused after kMaxLineBytes instead of
// growing until memory runs out, and quoting an input's text in a one-line error message.
// docs/errors.md#input-files. Header-only (the fuzz targets of tests/fuzz/ link nothing more).
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tessera::tool {

/// The longest line (bytes, line end excluded) an input file may have: 1 MiB.
constexpr size_t kMaxLineBytes = size_t(1) << 20;

/// Thrown by the functions below; what() is one line, "FILE:LINE: what is wrong" or "FILE: what is
/// wrong". The readers rethrow it as their own error type (MMError, DataError).
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// `text` as an error message quotes it: control bytes escaped (\n, \r, \xNN) so that the message
/// stays one line, and cut after `max_chars` characters with "..." (a 1 GB field is not echoed).
inline std::string excerpt(std::string_view text, size_t max_chars = 40) {
    std::string out;
    size_t shown = 0;
    for (const unsigned char c : text) {
        if (shown == max_chars) return out + "...";
        ++shown;
        if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c < 0x20 || c == 0x7f) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            out += hex;
        } else {
            out += char(c);
        }
    }
    return out;
}

/// "FILE:LINE: line longer than N bytes (the limit of an input line)".
inline std::string line_too_long(const std::string& name, int64_t line, size_t max_bytes = kMaxLineBytes) {
    return name + ":" + std::to_string(line) + ": line longer than " + std::to_string(max_bytes) +
           " bytes (the limit of an input line)";
}

/// An input file opened for reading. A regular file has its size; a pipe, a FIFO, /dev/stdin or a
/// character device is read as a stream (size -1). Throws InputError "PATH: is a directory" or
/// "PATH: cannot open the file: REASON".
struct InputFile {
    std::ifstream stream;
    int64_t bytes = -1;  ///< the size of a regular file; -1 for a stream
    explicit InputFile(const std::string& path) {
        std::error_code ec;
        const auto st = std::filesystem::status(path, ec);
        if (!ec && std::filesystem::is_directory(st))
            throw InputError(path + ": is a directory, not a file");
        errno = 0;
        stream.open(path, std::ios::binary);
        if (!stream) throw InputError(path + ": cannot open the file: " + std::strerror(errno ? errno : ENOENT));
        if (!ec && std::filesystem::is_regular_file(st)) {
            const uintmax_t size = std::filesystem::file_size(path, ec);
            if (!ec) bytes = int64_t(size);
        }
    }
};

/// Reads an istream line by line (LF or CRLF; the CR is kept for the caller to drop, and counts
/// towards the limit), counting lines from 1 and refusing a line longer than max_bytes (InputError,
/// line_too_long) before storing more of it. A read error ends the input (the caller may check
/// the stream's bad()).
class LineReader {
public:
    LineReader(std::istream& in, std::string name, size_t max_bytes = kMaxLineBytes)
        : in_(in), name_(std::move(name)), max_(max_bytes) {}

    /// The next line into `line` (without its '\n'); false at the end of the input. Throws InputError
    /// for a line longer than the limit. The line comes in chunks of kChunk bytes
    /// (istream::getline into a buffer on the stack), so that at most max_bytes + kChunk bytes of
    /// it are ever stored, and a short line costs no allocation of the limit's size.
    bool next(std::string& line) {
        line.clear();
        bool extracted = false;
        char chunk[kChunk];
        while (in_.good()) {
            in_.getline(chunk, std::streamsize(sizeof chunk));
            const std::streamsize got = in_.gcount();
            if (got == 0) break;  // the end (or a read error): nothing extracted
            extracted = true;
            const bool newline = !in_.fail() && !in_.eof();  // the '\n' was extracted (and counted)
            const bool full = in_.fail() && !in_.eof();      // the chunk filled before a '\n'
            line.append(chunk, size_t(got) - (newline ? 1 : 0));
            if (line.size() > max_) throw InputError(line_too_long(name_, line_ + 1, max_));
            if (!full) break;
            in_.clear(in_.rdstate() & ~std::ios::failbit);
        }
        if (!extracted) return false;
        ++line_;
        return true;
    }
    /// The number of the line last returned (1-based; 0 before the first).
    int64_t line() const { return line_; }
    const std::string& name() const { return name_; }

private:
    std::istream& in_;
    std::string name_;
    size_t max_;
    int64_t line_ = 0;
    static constexpr size_t kChunk = 4096;
};

/// The whole content of `path` (a file or a stream), read through a LineReader so that every line is
/// bounded; line ends are kept as '\n' (a CR before them is kept too). Throws InputError.
inline std::string read_bounded_text(const std::string& path, size_t max_line_bytes = kMaxLineBytes) {
    InputFile file(path);
    LineReader lines(file.stream, path, max_line_bytes);
    std::string text, line;
    if (file.bytes > 0) text.reserve(size_t(file.bytes));
    while (lines.next(line)) {
        text += line;
        text += '\n';
    }
    if (file.stream.bad()) throw InputError(path + ": cannot read the file");
    return text;
}

}  // namespace tessera::tool
