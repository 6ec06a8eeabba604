#include "hooks/hook_input.hpp"

#include "core/claude_tool_names.hpp"

namespace nib::hooks {

nlohmann::json hook_input(const HookSession& session, HookEvent event, nlohmann::json fields) {
  nlohmann::json input = {
      {"session_id", session.session_id},
      {"transcript_path", session.transcript_path.string()},
      {"cwd", session.cwd.string()},
      {"permission_mode", session.permission_mode},
      {"hook_event_name", hook_event_name(event)},
  };
  if (fields.is_object()) input.update(fields);
  return input;
}

nlohmann::json tool_fields(const std::string& tool, const std::string& call_id,
                           const nlohmann::json& args, const core::CallAccess& access) {
  nlohmann::json input = args;
  if (args.contains("path") && !args.contains("file_path") && !access.paths.empty()) {
    input["file_path"] = access.paths.front().path.string();
  }
  if (tool == core::kApplyPatchToolName && !access.paths.empty()) {
    // A patch may touch several files: all of them, absolute, as the gate judged them; and
    // Edit's "file_path" when there is only one, so that a script written for Edit reads it.
    nlohmann::json paths = nlohmann::json::array();
    for (const auto& path : access.paths) paths.push_back(path.path.string());
    if (paths.size() == 1) input["file_path"] = paths.front();
    input["file_paths"] = std::move(paths);
  }
  return {{"tool_name", std::string(core::claude_tool_name(tool))},
          {"tool_input", std::move(input)},
          {"tool_use_id", call_id}};
}

nlohmann::json nib_tool_input(const std::string& tool, nlohmann::json updated,
                              const nlohmann::json& original) {
  if (!updated.is_object()) return updated;
  if (tool == core::kApplyPatchToolName) {
    updated.erase("file_path");
    updated.erase("file_paths");
    return updated;
  }
  if (!original.contains("path") || original.contains("file_path")) return updated;
  // The hook saw the path as Claude's absolute "file_path"; what it sends back there is the path
  // the call uses (the same file when it left it alone).
  if (const auto file_path = updated.find("file_path"); file_path != updated.end()) {
    if (file_path->is_string()) updated["path"] = *file_path;
    updated.erase("file_path");
  }
  return updated;
}

nlohmann::json tool_response(const core::ToolResult& result) {
  nlohmann::json response = {{"content", core::content_text(result.content)},
                             {"is_error", result.is_error}};
  if (result.exit_code) response["exit_code"] = *result.exit_code;
  return response;
}

}  // namespace nib::hooks
