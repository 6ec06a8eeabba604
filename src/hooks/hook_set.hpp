#pragma once
// The hooks of one nib process and how an event runs them: every hook of every group whose
// matcher matches runs at once, each on a thread of its own (an identical command once), and
// their verdicts (hook_verdict.hpp) combine into one outcome: a block (or a failure, unless the
// hook allows on failure) wins over "ask", which wins over "allow". Contexts add up in
// configuration order; the first updatedInput is the one used. Thread-safe: events may run
// from several threads at once (parallel tool calls).

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hooks/hook_config.hpp"
#include "hooks/hook_input.hpp"
#include "hooks/hook_runner.hpp"
#include "hooks/hook_verdict.hpp"

namespace nib::hooks {

// One hook's run, for `nib hooks test` and the warnings of events that cannot block.
struct HookReport {
  HookCommand hook;
  HookRun run;
  HookVerdict verdict;
};

struct HookOutcome {
  std::vector<HookReport> reports;  // of the hooks that ran, in configuration order
  HookVerdict::Kind decision = HookVerdict::Kind::kNone;  // kFailed: a failure blocks
  std::string reason;  // the deciding hook's reason, or how it failed
  std::string source;  // "hook <command>"
  std::string context;
  std::optional<nlohmann::json> updated_input;
  bool stop_run = false;  // a hook said "continue": false
  std::string stop_reason;
  std::vector<std::string> system_messages;
  // Failures that did not decide anything (the event cannot block, or onFailure "allow"):
  // "hook <command> failed: <how>", for the user.
  std::vector<std::string> warnings;

  bool blocks() const {
    return decision == HookVerdict::Kind::kBlock || decision == HookVerdict::Kind::kFailed;
  }
};

class HookSet {
 public:
  HookSet(HookConfig config, HookSession session, HookRunSettings settings);

  // True when some hook is configured for `event` (so callers can skip building inputs).
  bool has(HookEvent event) const { return !config_.of(event).empty(); }
  // Runs the hooks of `event` whose matcher matches `subject` (the tool's nib name for tool
  // events, the source, trigger or reason for SessionStart, PreCompact and SessionEnd; ignored
  // for the others) on the input built from `fields`.
  HookOutcome run(HookEvent event, const std::string& subject, nlohmann::json fields,
                  std::stop_token stop) const;

  // Where the session's fields come from from now on: read at each event from their owners
  // (the session's file, which /clear and /resume change; the permission mode, which Shift+Tab
  // changes), never copied. Until one is set, the fields given at construction.
  using SessionSource = std::function<HookSession()>;
  void set_session_source(SessionSource source);
  HookSession session() const;
  const HookRunSettings& settings() const { return settings_; }

 private:
  std::vector<const HookCommand*> matching(HookEvent event, const std::string& subject) const;

  HookConfig config_;
  HookRunSettings settings_;
  mutable std::mutex mutex_;
  HookSession session_;   // guarded by mutex_
  SessionSource source_;  // guarded by mutex_
};

// The outcome of several hooks' verdicts for `event`, as HookSet::run combines them.
HookOutcome combine_verdicts(HookEvent event, std::vector<HookReport> reports);

}  // namespace nib::hooks
