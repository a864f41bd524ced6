// tessera-solve's reading of a large Matrix Market file with progress on stderr (ProgressDisplay:
// a self-overwriting line on a terminal, one line at the end otherwise, nothing with --quiet).
#pragma once

#include <fstream>
#include <optional>
#include <streambuf>
#include <string>
#include <vector>

#include "examples/common/line_reader.hpp"
#include "examples/common/progress_display.hpp"
#include "examples/solve/matrix_market.hpp"

namespace tessera::solve {

/// A read-only stream buffer over a file that reports the bytes consumed so far to a
/// ProgressDisplay each time it refills its 1 MiB buffer (nothing for a stream of unknown size).
class ProgressReadBuffer : public std::streambuf {
public:
    ProgressReadBuffer(std::ifstream& file, double file_bytes, tool::ProgressDisplay& progress)
        : file_(file), bytes_(file_bytes), progress_(progress), buffer_(size_t(1) << 20) {}

protected:
    int_type underflow() override {
        if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
        file_.read(buffer_.data(), std::streamsize(buffer_.size()));
        const std::streamsize got = file_.gcount();
        if (got <= 0) return traits_type::eof();
        consumed_ += double(got);
        if (bytes_ > 0) progress_.update(consumed_, bytes_);
        setg(buffer_.data(), buffer_.data(), buffer_.data() + got);
        return traits_type::to_int_type(*gptr());
    }

private:
    std::ifstream& file_;
    double bytes_, consumed_ = 0;
    tool::ProgressDisplay& progress_;
    std::vector<char> buffer_;
};

/// Open and parse the Matrix Market file `path` (parse_matrix_market), with the stage "read PATH"
/// shown while the file is parsed (regular files of 64 MiB or more: smaller ones read in well under
/// a second and show nothing). A pipe, /dev/stdin or another non-seekable input is read as a stream,
/// without progress (tool::InputFile). Throws MMError "PATH:LINE: what is wrong", or "PATH: is a
/// directory, not a file" / "PATH: cannot open the file: REASON".
inline MMMatrix read_matrix_market_with_progress(const std::string& path, bool quiet) {
    std::optional<tool::InputFile> input;
    try {
        input.emplace(path);
    } catch (const tool::InputError& e) {
        throw MMError(e.what());
    }
    std::ifstream& file = input->stream;
    const double bytes = double(input->bytes);
    const bool show = !quiet && bytes >= double(int64_t(64) << 20);
    tool::ProgressDisplay progress("read " + path, !show);
    ProgressReadBuffer buffer(file, bytes, progress);
    std::istream in(&buffer);
    return parse_matrix_market(in, path);
}

}  // namespace tessera::solve
