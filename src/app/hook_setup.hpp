#pragma once
// Wires the hooks of settings.json (and Claude Code's settings files) into nib's runs:
// PreToolUse before the gate and PostToolUse after each call (hooks/tool_hooks.hpp), Stop and
// SubagentStop when the model is done (a block sends it on with the reason, at most
// hooks::kMaxStopContinuations times in a row), UserPromptSubmit before a prompt joins the
// history (a block refuses it; context is added to it), SessionStart (its context goes with the
// first prompt), SessionEnd and PreCompact. A front end calls these at its moments; notices
// (hooks' warnings and systemMessages) go to the front end's line. Wiring only; not thread-safe
// beyond what HookSet is.

#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "agent/subagent_environment.hpp"
#include "app/settings.hpp"
#include "core/agent_loop.hpp"
#include "hooks/hook_set.hpp"
#include "permissions/permission_mode.hpp"
#include "util/result.hpp"

namespace nib::app {

// Receives one line for the user: a hook's warning or message.
using HookNotice = std::function<void(const std::string& text, bool is_error)>;

// The hooks of every settings file in `configuration`, run in `cwd` (also the project
// directory hooks get); an error names the file and the entry (exit 2). The warnings of
// skipped entries are the HookConfig's.
util::Result<hooks::HookConfig> load_hook_config(const Configuration& configuration);
std::shared_ptr<hooks::HookSet> make_hook_set(hooks::HookConfig config,
                                              const std::filesystem::path& cwd,
                                              std::vector<std::string> withheld_environment);

// The files the hooks of `config` run that lie in `project_dir` (the words of their commands
// that name one, `$CLAUDE_PROJECT_DIR/hooks/check.sh` and `python3 hooks/x.py` alike): a
// command in the sandbox must not rewrite what runs on the host at the next hook.
std::vector<std::filesystem::path> hook_scripts(const hooks::HookConfig& config,
                                                const std::filesystem::path& project_dir);

// Sets loop.before_done (Stop hooks) and the subagents' SubagentStop hooks in `subagents`
// (after lend_run_to_subagents). The tool hooks come with the run's guard (run_guard.hpp).
void install_stop_hooks(core::LoopOptions& loop, agent::SubagentEnvironment& subagents,
                        std::shared_ptr<hooks::HookSet> hooks, HookNotice notice);

// A prompt that UserPromptSubmit (and, for the session's first, SessionStart) let through, as
// the message to send: the prompt, then the hooks' context; or the reason it was refused.
struct CheckedPrompt {
  std::optional<core::UserMessage> message;  // none: refused
  std::string refusal;                       // "hook <command>: <reason>"
  std::size_t prompt_block = 0;              // the prompt's text block in message->content
};
// `session_start` names the SessionStart source ("startup", "resume") for the session's first
// prompt, empty for later ones.
CheckedPrompt check_prompt(hooks::HookSet& hooks, const std::string& prompt,
                           const std::string& session_start, std::stop_token stop,
                           const HookNotice& notice);

// SessionEnd with `reason` ("prompt_input_exit", "other").
void end_session_hooks(hooks::HookSet& hooks, const std::string& reason, const HookNotice& notice);

// PreCompact with `input`: Claude Code's trigger ("manual", "auto") and custom_instructions, and
// what the compaction will summarise and carry (compaction_hooks.hpp).
void pre_compact_hooks(hooks::HookSet& hooks, const nlohmann::json& input, std::stop_token stop,
                       const HookNotice& notice);

}  // namespace nib::app
