#pragma once
// Tool arguments that reach the operating system as C strings: paths, a shell command, and the
// patterns and globs matched against file names. A C string ends at its first NUL byte, so
// write {"path": "imp.txt\u0000.bak"} would overwrite imp.txt, and a command
// "rm -rf DIR\u0000/sub" would delete all of DIR. Such an argument is refused, before anything
// runs. (A file's content, which write and edit pass as data, may hold NUL bytes.)
// Pure functions; thread-safe.

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace nib::tools {

// The error for the first of `args`' string fields `names` that holds a NUL byte, saying where it
// is and what the operating system would have been given instead; nullopt when none does.
std::optional<std::string> nul_refusal(const nlohmann::json& args,
                                       std::initializer_list<std::string_view> names);

}  // namespace nib::tools
