// The framing Tessera's text tables share (kernel parameters: kernels/opencl/params.hpp; CPU tile
// sizes: runtime/cpu_tiles.hpp): a first line "<magic> <version>", '#' starting a comment, blank
// lines, and "end" as the last line, which guards against a truncated file. Internal.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace tessera::detail {

/// What a table's own parser does with the lines between the header and "end".
struct TableLines {
    /// A line with content: its comment cut off and its ends trimmed of blanks, and its 1-based
    /// number. Returns "" when the line is valid, else the reason it is not.
    std::function<std::string(const std::string& line, int lineno)> content;
    /// A line that is only a comment (after the header): the text after '#', as written. Optional.
    std::function<void(std::string_view comment)> comment;
    /// A blank line (after the header). Optional.
    std::function<void()> blank;
};

/// Read `text` line by line as a table of the kind `what` (e.g. "CPU tile table") whose header
/// is "<magic> <version>". Returns "" when every line is valid, else "<origin>:<line>: <reason>"
/// for the first that is not: binary data, a wrong or malformed header, another format version,
/// text after "end", a missing "end", an empty table, or the reason `lines.content` gave.
std::string read_table_lines(std::string_view text, const std::string& origin, const char* what, const char* magic,
                             int version, const TableLines& lines);

/// The whole content of the file at `path`; nullopt and *error = "<path>: cannot open" (or
/// "<path>: is a directory") when it cannot be read.
std::optional<std::string> read_text_file(const std::string& path, std::string* error);

}  // namespace tessera::detail
