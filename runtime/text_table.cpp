// The line framing of Tessera's text tables: header, comments, blank lines, "end". See text_table.hpp.
#include "runtime/text_table.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tessera::detail {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    return s;
}

/// The next blank-separated token of `s` (consumed from it); empty at the end.
std::string_view next_token(std::string_view& s) {
    s = trim(s);
    size_t n = 0;
    while (n < s.size() && !is_blank(s[n])) ++n;
    const std::string_view token = s.substr(0, n);
    s.remove_prefix(n);
    return token;
}

}  // namespace

std::string read_table_lines(std::string_view text, const std::string& origin, const char* what, const char* magic,
                             int version, const TableLines& lines) {
    int lineno = 0;
    bool have_header = false, have_end = false;
    auto fail = [&](const std::string& why) { return origin + ":" + std::to_string(std::max(lineno, 1)) + ": " + why; };
    for (size_t pos = 0; pos < text.size();) {
        size_t nl = text.find('\n', pos);
        if (nl == std::string_view::npos) nl = text.size();
        const std::string_view raw = text.substr(pos, nl - pos);
        pos = nl + 1;
        ++lineno;
        if (raw.find('\0') != std::string_view::npos) return fail("binary data (NUL byte)");
        const size_t hash = raw.find('#');
        const std::string line(trim(raw.substr(0, hash)));
        if (line.empty()) {
            if (!have_header) continue;
            if (hash != std::string_view::npos) {
                if (lines.comment) lines.comment(raw.substr(hash + 1));
            } else if (lines.blank) {
                lines.blank();
            }
            continue;
        }
        if (have_end) return fail("text after 'end'");
        if (!have_header) {
            std::string_view rest = line;
            const std::string_view word = next_token(rest), number = next_token(rest);
            if (word != magic)
                return fail(std::string("not a ") + what + " (first line must be '" + magic + " " + std::to_string(version) + "')");
            int v = -1;
            try {
                size_t used = 0;
                v = std::stoi(std::string(number), &used);
                if (used != number.size()) v = -1;
            } catch (const std::exception&) {
            }
            if (v < 0 || !trim(rest).empty()) return fail("malformed header line '" + line + "'");
            if (v != version)
                return fail("table format version " + std::to_string(v) + ", this library reads version " + std::to_string(version));
            have_header = true;
            continue;
        }
        if (line == "end") {
            have_end = true;
            continue;
        }
        if (std::string why = lines.content(line, lineno); !why.empty()) return fail(why);
    }
    if (!have_header) return fail("empty table");
    if (!have_end) return fail("missing final 'end' line (truncated file?)");
    return {};
}

std::optional<std::string> read_text_file(const std::string& path, std::string* error) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        if (error) *error = path + ": is a directory";
        return std::nullopt;
    }
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        if (error) *error = path + ": cannot open";
        return std::nullopt;
    }
    std::ostringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

}  // namespace tessera::detail
