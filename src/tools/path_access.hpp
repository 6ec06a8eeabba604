#pragma once
// The file tools' account of the paths a call touches (core/call_access.hpp), made with the
// very resolver they open paths with (locate_path(), then resolve_file() for links), and the
// check, when a call runs, that the file it is about to open is the one it was judged on.
// Thread-safe: no shared state; the functions only look at the file system.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "core/call_access.hpp"
#include "core/tool.hpp"
#include "tools/path_locate.hpp"

namespace nib::tools {

// `requested` as the file tools open it for `purpose` (locate_path()), with its target (every
// link resolved, a dangling one's target included: resolve_file()).
core::PathAccess path_access(std::string_view requested, const std::filesystem::path& cwd,
                             LocateFor purpose);

// The "path" argument when it is a string that is not blank; else nullopt.
std::optional<std::string> given_path(const nlohmann::json& args);

// The access of a call whose one path is its "path" argument: that path, or `fallback` when
// the argument is missing or blank (the search tools' ".", the working directory); no path
// when both are missing. The kind is stamped by the caller (core::prepare_tool_call).
core::CallAccess path_argument_access(const nlohmann::json& args, const core::ToolContext& context,
                                      LocateFor purpose, std::string_view fallback = {});

// The file `requested` names, for a call about to act on it: located for `purpose`, and, when
// the call went through the checks (context.access), the very path and target it was judged
// on. Else the error the model gets: the spelling fits several files, or the file it names
// changed between the check and the call (a link made or changed, a name that appeared), so
// that a call never acts on a file nobody judged.
std::variant<LocatedPath, std::string> locate_judged(std::string_view requested,
                                                     const core::ToolContext& context,
                                                     LocateFor purpose);

}  // namespace nib::tools
