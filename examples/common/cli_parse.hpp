// Command-line parsing with the tools' exit codes (docs/errors.md), shared by every CLI11 main.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdio>
#include <optional>

#include "examples/common/tool_main.hpp"

namespace tessera::tool {

/// Parse argv into `app`. Returns nothing when the run should go on; otherwise the exit code:
/// CLI11's for --help (after printing it), kRefused after one line "prog: what is wrong".
inline std::optional<int> parse_cli(CLI::App& app, int argc, char** argv, const char* prog) {
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "%s: %s\n", prog, e.what());
        return kRefused;
    }
    return std::nullopt;
}

}  // namespace tessera::tool
