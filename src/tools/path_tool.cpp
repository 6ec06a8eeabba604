#include "tools/path_tool.hpp"

#include <system_error>

#include "tools/os_argument.hpp"
#include "tools/path.hpp"
#include "tools/path_access.hpp"

namespace nib::tools {

nlohmann::json path_parameter(PathDefault fallback) {
  nlohmann::json schema = {{"type", "string"}};
  if (fallback == PathDefault::kWorkingDirectory) {
    schema["description"] = "Default: the working directory.";
  }
  return schema;
}

util::Result<std::string> required_path(const nlohmann::json& args, std::string_view verb) {
  using Result = util::Result<std::string>;
  if (auto refusal = nul_refusal(args, {"path"})) return Result::failure(*refusal);
  const auto path = args.find("path");
  if (path == args.end() || !path->is_string()) return Result::failure("path must be a string.");
  std::string requested = path->get<std::string>();
  if (requested.find_first_not_of(" \t\r\n") == std::string::npos) {
    return Result::failure("path is blank: give the file to " + std::string(verb) + ".");
  }
  return requested;
}

std::string not_found_message(std::string_view noun, const CallPath& target,
                              const std::filesystem::path& cwd, NotFoundDetail detail,
                              std::string_view advice) {
  std::string message = std::string(noun) + " not found: " + target.shown;
  const std::string absolute = escape_name(target.path.native());
  if (detail != NotFoundDetail::kNone && target.shown != absolute) {
    message += " (looked for " + absolute + ")";
  }
  message += ".";
  std::error_code ignored;
  if (detail == NotFoundDetail::kAbsolutePathAndParent &&
      !std::filesystem::is_directory(target.path.parent_path(), ignored)) {
    message += " Its directory " + escape_name(target.path.parent_path().native()) +
               " does not exist either.";
  }
  return message + did_you_mean(target.path, cwd) + " " + std::string(advice);
}

PathTool::PathTool(core::ToolSpec spec, LocateFor purpose, PathDefault fallback)
    : core::Tool(std::move(spec)), purpose_(purpose), fallback_(fallback) {}

std::string PathTool::describe_call(const nlohmann::json& args) const {
  return describe_path_call(args);
}

core::CallAccess PathTool::access(const nlohmann::json& args,
                                  const core::ToolContext& context) const {
  return path_argument_access(args, context, purpose_,
                              fallback_ == PathDefault::kWorkingDirectory ? "." : "");
}

util::Result<CallPath> PathTool::locate(std::string_view requested,
                                        const core::ToolContext& context) const {
  auto judged = locate_judged(requested, context, purpose_);
  if (auto* failure = std::get_if<std::string>(&judged)) {
    return util::Result<CallPath>::failure(std::move(*failure));
  }
  std::filesystem::path path = std::move(std::get<LocatedPath>(judged).path);
  std::string shown = display_path(path, context.cwd);
  return CallPath{std::move(path), std::move(shown)};
}

}  // namespace nib::tools
