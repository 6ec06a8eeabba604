#include "app/hook_setup.hpp"

#include <algorithm>
#include <sstream>

#include "app/plugin_setup.hpp"
#include "hooks/limits.hpp"
#include "permissions/shell_split.hpp"

namespace nib::app {
namespace {

using hooks::HookEvent;

void report(const hooks::HookOutcome& outcome, const HookNotice& notice) {
  for (const std::string& warning : outcome.warnings) notice(warning, true);
  for (const std::string& message : outcome.system_messages) notice(message, false);
}

// The before_done of a run whose end `event` (Stop or SubagentStop) guards.
std::function<std::optional<core::UserMessage>(const std::vector<core::Message>&, int,
                                               std::stop_token)>
stop_hooks(std::shared_ptr<hooks::HookSet> hooks, HookEvent event, HookNotice notice) {
  return [hooks = std::move(hooks), event, notice = std::move(notice)](
             const std::vector<core::Message>&, int continued,
             std::stop_token stop) -> std::optional<core::UserMessage> {
    if (!hooks->has(event) || stop.stop_requested()) return std::nullopt;
    if (continued >= hooks::kMaxStopContinuations) {
      notice(std::string(hooks::hook_event_name(event)) + " hooks sent the model on " +
                 std::to_string(continued) +
                 " times in a row; nib ends the run here (a hook should let it stop when "
                 "stop_hook_active is true)",
             true);
      return std::nullopt;
    }
    const hooks::HookOutcome outcome =
        hooks->run(event, "", {{"stop_hook_active", continued > 0}}, stop);
    report(outcome, notice);
    if (outcome.stop_run || !outcome.blocks()) return std::nullopt;
    return core::UserMessage{core::text_content(std::string(hooks::hook_event_name(event)) + " " +
                                                outcome.source + ": " + outcome.reason)};
  };
}

}  // namespace

util::Result<hooks::HookConfig> load_hook_config(const Configuration& configuration) {
  std::vector<hooks::HookSource> sources;
  for (const SettingsSource& source : configuration.sources) {
    const auto section = source.document.find("hooks");
    if (section != source.document.end()) sources.push_back({source.file, &*section});
  }
  if (configuration.plugins) {
    for (hooks::HookSource& source : plugin_hook_sources(*configuration.plugins)) {
      sources.push_back(source);
    }
  }
  return hooks::parse_hook_config(sources);
}

std::shared_ptr<hooks::HookSet> make_hook_set(hooks::HookConfig config,
                                              const std::filesystem::path& cwd,
                                              std::vector<std::string> withheld_environment) {
  hooks::HookSession session;
  session.cwd = cwd;
  return std::make_shared<hooks::HookSet>(
      std::move(config), std::move(session),
      hooks::HookRunSettings{cwd, cwd, std::move(withheld_environment), &core::steady_clock()});
}

std::vector<std::filesystem::path> hook_scripts(const hooks::HookConfig& config,
                                                const std::filesystem::path& project_dir) {
  std::vector<std::filesystem::path> scripts;
  const auto consider = [&](std::string word) {
    std::erase(word, '"');
    std::erase(word, '\'');
    for (const char* variable : {"$CLAUDE_PROJECT_DIR", "${CLAUDE_PROJECT_DIR}", "$NIB_PROJECT_DIR",
                                 "${NIB_PROJECT_DIR}"}) {
      if (word.starts_with(variable))
        word.replace(0, std::string_view(variable).size(), project_dir.string());
    }
    if (word.empty() || word.front() == '-' || word.find('$') != std::string::npos) return;
    std::filesystem::path path(word);
    if (path.is_relative()) path = project_dir / path;
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error)) return;
    path = path.lexically_normal();
    if (std::find(scripts.begin(), scripts.end(), path) == scripts.end()) scripts.push_back(path);
  };
  for (std::size_t event = 0; event < hooks::kHookEventCount; ++event) {
    for (const hooks::HookGroup& group : config.groups[event]) {
      for (const hooks::HookCommand& hook : group.hooks) {
        const permissions::ShellSplit split = permissions::split_command(hook.command);
        for (const permissions::SimpleCommand& command : split.commands) {
          for (const permissions::ShellWord& word : command.words) consider(word.source);
          for (const permissions::ShellWord& word : command.command) consider(word.text);
        }
        // What cannot be split still names its files in its words, as far as blanks tell.
        if (!split.understood) {
          std::istringstream words(hook.command);
          for (std::string word; words >> word;) consider(word);
        }
      }
    }
  }
  return scripts;
}

void install_stop_hooks(core::LoopOptions& loop, agent::SubagentEnvironment& subagents,
                        std::shared_ptr<hooks::HookSet> hooks, HookNotice notice) {
  loop.before_done = stop_hooks(hooks, HookEvent::kStop, notice);
  subagents.inherited.subagent_done = stop_hooks(hooks, HookEvent::kSubagentStop, notice);
}

CheckedPrompt check_prompt(hooks::HookSet& hooks, const std::string& prompt,
                           const std::string& session_start, std::stop_token stop,
                           const HookNotice& notice) {
  core::Content content;
  if (!session_start.empty() && hooks.has(HookEvent::kSessionStart)) {
    const hooks::HookOutcome started =
        hooks.run(HookEvent::kSessionStart, session_start, {{"source", session_start}}, stop);
    report(started, notice);
    if (!started.context.empty()) content.push_back(core::TextBlock{started.context});
  }
  const std::size_t prompt_block = content.size();
  content.push_back(core::TextBlock{prompt});
  if (hooks.has(HookEvent::kUserPromptSubmit)) {
    const hooks::HookOutcome checked =
        hooks.run(HookEvent::kUserPromptSubmit, "", {{"prompt", prompt}}, stop);
    report(checked, notice);
    if (checked.blocks() || checked.stop_run) {
      const std::string reason = checked.blocks() ? checked.reason : checked.stop_reason;
      return CheckedPrompt{std::nullopt, checked.source + ": " + reason, 0};
    }
    if (!checked.context.empty()) content.push_back(core::TextBlock{checked.context});
  }
  return CheckedPrompt{core::UserMessage{std::move(content)}, "", prompt_block};
}

void end_session_hooks(hooks::HookSet& hooks, const std::string& reason, const HookNotice& notice) {
  if (!hooks.has(HookEvent::kSessionEnd)) return;
  report(hooks.run(HookEvent::kSessionEnd, reason, {{"reason", reason}}, {}), notice);
}

void pre_compact_hooks(hooks::HookSet& hooks, const nlohmann::json& input, std::stop_token stop,
                       const HookNotice& notice) {
  if (!hooks.has(HookEvent::kPreCompact)) return;
  report(hooks.run(HookEvent::kPreCompact, input.value("trigger", ""), input, stop), notice);
}

}  // namespace nib::app
