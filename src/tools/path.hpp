#pragma once
// How the file tools turn a path the model wrote into the file they touch, and how they name
// that file back to the model. Pure functions apart from home_directory() (reads the
// environment); thread-safe as long as nobody changes $HOME while they run.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/tool.hpp"

namespace nib::tools {

// The user's home: $HOME when it is set and absolute, else the password database entry, else
// an empty path.
std::filesystem::path home_directory();

// `requested` as an absolute, lexically normal path: "~" and "~/x" expand to `home`, a relative
// path is taken from `cwd`, an absolute path stays as it is. "~user/x" is not expanded (it is a
// relative path), and neither is "~" when `home` is empty. A relative or empty `cwd` is made
// absolute against the process's working directory.
std::filesystem::path resolve_path(std::string_view requested, const std::filesystem::path& cwd,
                                   const std::filesystem::path& home);

// resolve_path() with home_directory().
std::filesystem::path resolve_path(std::string_view requested, const std::filesystem::path& cwd);

// How to name a resolved path to the model: relative to `cwd` when it lies inside it ("." for
// `cwd` itself), otherwise absolute.
std::string display_path(const std::filesystem::path& absolute, const std::filesystem::path& cwd);

// How a call of a file tool reads for people (core::Tool::describe_call): its "pattern" and
// "path" arguments as "TODO in src", "src/app.cpp" or "*.cpp", as far as it has them.
std::string describe_path_call(const nlohmann::json& args);

// The ResourceClaim key for a file, so that a read and an edit of the same file conflict.
std::string file_claim_key(const std::filesystem::path& absolute);

// The claim of a call on the file its "path" argument names (resolved against `cwd`): shared
// for readers, exclusive for writers. None when the argument is missing.
std::vector<core::ResourceClaim> claim_path_argument(const nlohmann::json& args,
                                                     const std::filesystem::path& cwd,
                                                     bool exclusive);

}  // namespace nib::tools
