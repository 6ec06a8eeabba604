#pragma once
// How the file tools turn a path the model wrote into an absolute path, and how they name a
// file back to the model. Pure functions apart from reading the process's home directory
// (util/user_places.hpp); thread-safe. Finding the existing file a loosely written path means
// is path_locate.hpp's job.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace nib::tools {

// `requested` as an absolute, lexically normal path: "~" and "~/x" expand to `home`, a relative
// path is taken from `cwd`, an absolute path stays as it is. "~user/x" is not expanded (it is a
// relative path), and neither is "~" when `home` is empty. A relative or empty `cwd` is made
// absolute against the process's working directory.
std::filesystem::path resolve_path(std::string_view requested, const std::filesystem::path& cwd,
                                   const std::filesystem::path& home);

// resolve_path() with the process's home directory (util::process_places()).
std::filesystem::path resolve_path(std::string_view requested, const std::filesystem::path& cwd);

// How to name a resolved path to the model: relative to `cwd` when it lies inside it ("." for
// `cwd` itself), otherwise absolute; in escape_name() form.
std::string display_path(const std::filesystem::path& absolute, const std::filesystem::path& cwd);

// How a call of a file tool reads for people (core::Tool::describe_call): its "pattern" and
// "path" arguments as "TODO in src", "src/app.cpp" or "*.cpp", as far as it has them.
std::string describe_path_call(const nlohmann::json& args);

// A file name or path as the model is shown it: valid UTF-8 stays as it is, and every byte that
// is not part of a valid UTF-8 sequence becomes "\xNN" (two lowercase hex digits). Results
// reach the model as JSON strings, which cannot carry such bytes; replaced by U+FFFD, the name
// could not be given back. locate_path() turns the escapes into the bytes again.
std::string escape_name(std::string_view raw);

// The bytes `shown` stands for: every "\xNN" whose NN is 80 to ff (hex, either case: the bytes
// escape_name() escapes, never ASCII) becomes that byte. nullopt when `shown` holds none.
std::optional<std::string> unescape_name(std::string_view shown);

}  // namespace nib::tools
