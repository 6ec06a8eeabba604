#pragma once
// The JSON a hook reads on stdin, in Claude Code's shape: the session's fields (session_id,
// transcript_path, cwd, permission_mode, hook_event_name) and the event's own (tool_name,
// tool_input, tool_use_id, tool_response, prompt, stop_hook_active, source, reason, trigger,
// custom_instructions). Built-in tools appear under Claude Code's names ("Bash", "Edit"), and
// their inputs carry Claude's "file_path" (absolute) beside nib's "path", so scripts written for
// Claude Code read what they expect. Pure; thread-safe.

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "core/call_access.hpp"
#include "core/messages.hpp"
#include "hooks/hook_config.hpp"

namespace nib::hooks {

struct HookSession {
  std::string session_id;
  std::filesystem::path transcript_path;
  std::filesystem::path cwd;
  std::string permission_mode = "default";
};

// The whole input: `session`'s fields, "hook_event_name", then `fields`.
nlohmann::json hook_input(const HookSession& session, HookEvent event, nlohmann::json fields);

// PreToolUse's and PostToolUse's fields for a call of nib's tool `tool` with `args`, which
// touches `access`: Claude's "file_path" is the file the tool opens (absolute, `~` and `@`
// resolved as the tool resolves them). apply_patch's input also has "file_paths", every file
// the patch touches, and "file_path" when that is one.
nlohmann::json tool_fields(const std::string& tool, const std::string& call_id,
                           const nlohmann::json& args, const core::CallAccess& access);

// A hook's updatedInput as nib's tool takes it: a "file_path" it sent (or changed) becomes the
// tool's "path" when the tool `tool` has one in `original`; for apply_patch, the path fields
// tool_fields added are dropped, the patch itself saying what it changes.
nlohmann::json nib_tool_input(const std::string& tool, nlohmann::json updated,
                              const nlohmann::json& original);

// tool_response for a result: {"content": text, "is_error": b} and "exit_code" when known.
nlohmann::json tool_response(const core::ToolResult& result);

}  // namespace nib::hooks
