#pragma once
// What the file tools (read, edit, write, ls, find, grep) share about their one "path" argument,
// kept in one place so that the six treat it alike: its schema, reading it from a call, how a
// call is described and accounted for (path_access.hpp), finding the very file a call was
// judged on, and the error for a path that is not there. Thread-safe: a PathTool holds only
// its immutable spec.

#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/call_access.hpp"
#include "core/tool.hpp"
#include "tools/path_locate.hpp"
#include "util/result.hpp"

namespace nib::tools {

// What a call that gives no path acts on.
enum class PathDefault {
  kNone,              // nothing: the path is required (read, edit, write)
  kWorkingDirectory,  // the working directory (ls, find, grep)
};

// The schema of the "path" argument: a string, described only by its default when there is
// one (what it names and that it may be relative are plain to the model, and each word here is
// sent with every request).
nlohmann::json path_parameter(PathDefault fallback);

// The "path" argument of a call that must give one, or the error for the model: it holds a NUL
// byte (os_argument.hpp), is not a string ("path must be a string.") or is blank ("path is
// blank: give the file to <verb>.").
util::Result<std::string> required_path(const nlohmann::json& args, std::string_view verb);

// The path a call acts on.
struct CallPath {
  std::filesystem::path path;  // located (path_locate.hpp): absolute and lexically normal
  std::string shown;           // as named to the model (display_path())
};

// How much a "not found" error says of where the tool looked.
enum class NotFoundDetail {
  kNone,
  kAbsolutePath,           // " (looked for /abs/path)", unless the path was shown so already
  kAbsolutePathAndParent,  // and " Its directory /abs does not exist either." when it does not
};

// "<noun> not found: <shown>." with `detail`, then the existing names closest to it
// (did_you_mean()) and `advice`: the error for `target`, which does not exist.
std::string not_found_message(std::string_view noun, const CallPath& target,
                              const std::filesystem::path& cwd, NotFoundDetail detail,
                              std::string_view advice);

// A tool whose calls act on the path their "path" argument names.
class PathTool : public core::Tool {
 public:
  // `purpose`: how the path is located (write's may name a file to create).
  PathTool(core::ToolSpec spec, LocateFor purpose, PathDefault fallback);

  // "src/app.cpp", "TODO in src" (describe_path_call()).
  std::string describe_call(const nlohmann::json& args) const override;

  // The path the call names (or its default), located as the call will locate it. A read
  // tool's claim on it is shared, so the call never runs while a file under it is edited or
  // written, and overlaps reads and other searches.
  core::CallAccess access(const nlohmann::json& args,
                          const core::ToolContext& context) const override;

 protected:
  // `requested` as the call acts on it: located for the tool's purpose, and the very path the
  // call was judged on (locate_judged()); else the error for the model.
  util::Result<CallPath> locate(std::string_view requested, const core::ToolContext& context) const;

 private:
  LocateFor purpose_;
  PathDefault fallback_;
};

}  // namespace nib::tools
