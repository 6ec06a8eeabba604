#pragma once
// The hooks configured in settings files, in Claude Code's format, so that hooks written for it
// carry over unchanged:
//   "hooks": {"PreToolUse": [{"matcher": "Edit|Write",
//                             "hooks": [{"type": "command", "command": "...", "timeout": 30,
//                                        "onFailure": "allow"}]}], ...}
// Every source adds its hooks (user, then project, then local: they all run). Events nib does
// not have (Notification, PermissionRequest, ...) are skipped with a warning; a hook type other
// than "command" is kept as a hook that cannot run, so it fails (closed) when its event comes.
// Pure; thread-safe.

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "hooks/hook_matcher.hpp"
#include "hooks/limits.hpp"
#include "util/result.hpp"

namespace nib::hooks {

enum class HookEvent {
  kPreToolUse,
  kPostToolUse,
  kUserPromptSubmit,
  kStop,
  kSubagentStop,
  kSessionStart,
  kSessionEnd,
  kPreCompact,
};
inline constexpr std::size_t kHookEventCount = 8;

// "PreToolUse", ... as settings files and hook inputs spell them.
const char* hook_event_name(HookEvent event);
std::optional<HookEvent> parse_hook_event(std::string_view name);
// The events whose hooks may stop what is about to happen (a call, a prompt, the end of a run):
// for them a hook that fails blocks, unless it opts out (onFailure "allow").
bool can_block(HookEvent event);

struct HookCommand {
  std::string command;  // run by /bin/sh -c
  std::chrono::milliseconds timeout = kDefaultHookTimeout;
  bool allow_on_failure = false;  // "onFailure": "allow"
  // Set for a hook nib cannot run (a "prompt" or "http" hook): why, said when it fails.
  std::string unsupported;
  std::string origin;  // "<file>: hooks.PreToolUse[0].hooks[1]", for messages
  // Given to its process besides the project's: a plugin's CLAUDE_PLUGIN_ROOT (HookSource).
  std::vector<std::pair<std::string, std::string>> environment;
};

struct HookGroup {
  HookMatcher matcher;
  std::vector<HookCommand> hooks;
};

struct HookConfig {
  std::vector<HookGroup> groups[kHookEventCount];  // by HookEvent, in source order
  std::vector<std::string> warnings;               // entries skipped, naming file and entry

  const std::vector<HookGroup>& of(HookEvent event) const {
    return groups[static_cast<std::size_t>(event)];
  }
  bool empty() const;
};

// One settings document's "hooks" section (absent or null: none).
struct HookSource {
  std::filesystem::path file;
  const nlohmann::json* hooks = nullptr;
  // Variables every hook of this source gets (HookCommand::environment).
  std::vector<std::pair<std::string, std::string>> environment = {};
};

// Every source's hooks. A malformed entry is an error naming the file and the entry
// ("<file>: hooks.PreToolUse[0].hooks[1].timeout: must be a positive number of seconds").
util::Result<HookConfig> parse_hook_config(const std::vector<HookSource>& sources);

}  // namespace nib::hooks
