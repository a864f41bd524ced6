// One-line warnings on stderr, each said once per process. Internal: not installed.
#pragma once

#include <string>

namespace tessera::detail {

/// Print "tessera: warning: <msg>" on stderr the first time this process warns with `msg`;
/// later calls with the same message print nothing. Thread-safe.
void warn_once(const std::string& msg);

}  // namespace tessera::detail
