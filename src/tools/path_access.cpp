#include "tools/path_access.hpp"

#include <algorithm>

#include "tools/file_tracker.hpp"
#include "tools/path.hpp"

namespace nib::tools {

core::PathAccess path_access(std::string_view requested, const std::filesystem::path& cwd,
                             LocateFor purpose) {
  const LocatedPath located = locate_path(requested, cwd, purpose);
  return {std::string(requested), located.path, resolve_file(located.path)};
}

std::optional<std::string> given_path(const nlohmann::json& args) {
  const auto path = args.find("path");
  if (path == args.end() || !path->is_string() ||
      path->get_ref<const std::string&>().find_first_not_of(" \t\r\n") == std::string::npos) {
    return std::nullopt;
  }
  return path->get<std::string>();
}

core::CallAccess path_argument_access(const nlohmann::json& args, const core::ToolContext& context,
                                      LocateFor purpose, std::string_view fallback) {
  const std::optional<std::string> given = given_path(args);
  core::CallAccess access;
  if (!given && fallback.empty()) return access;
  access.paths.push_back(path_access(given.value_or(std::string(fallback)), context.cwd, purpose));
  return access;
}

std::variant<LocatedPath, std::string> locate_judged(std::string_view requested,
                                                     const core::ToolContext& context,
                                                     LocateFor purpose) {
  LocatedPath located = locate_path(requested, context.cwd, purpose);
  if (!located.ambiguous.empty()) {
    return ambiguous_path_message(requested, located, context.cwd);
  }
  if (!context.access) return located;
  const auto& judged = context.access->paths;
  const auto same = [&](const core::PathAccess& entry) {
    return entry.written == requested && entry.path == located.path &&
           entry.target == resolve_file(located.path);
  };
  if (std::any_of(judged.begin(), judged.end(), same)) return located;
  return display_path(located.path, context.cwd) +
         " is not the file this call was checked for: it changed between the check and the "
         "call (a link was made or changed, or a file appeared under another spelling). Nothing "
         "was done; make the call again.";
}

}  // namespace nib::tools
