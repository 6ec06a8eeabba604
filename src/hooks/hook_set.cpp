#include "hooks/hook_set.hpp"

#include <algorithm>
#include <system_error>
#include <thread>

#include "util/json_text.hpp"

namespace nib::hooks {
namespace {

using Kind = HookVerdict::Kind;

bool is_tool_event(HookEvent event) {
  return event == HookEvent::kPreToolUse || event == HookEvent::kPostToolUse;
}

bool uses_matcher(HookEvent event) {
  return is_tool_event(event) || event == HookEvent::kSessionStart ||
         event == HookEvent::kSessionEnd || event == HookEvent::kPreCompact;
}

// How strongly a verdict decides: a failure that blocks and a block first, then ask, allow.
int strength(Kind kind) {
  switch (kind) {
    case Kind::kFailed:
    case Kind::kBlock:
      return 3;
    case Kind::kAsk:
      return 2;
    case Kind::kAllow:
      return 1;
    case Kind::kNone:
      break;
  }
  return 0;
}

std::string default_reason(HookEvent event, Kind kind) {
  if (kind == Kind::kAsk) return "a hook asks for the user's approval";
  if (event == HookEvent::kStop || event == HookEvent::kSubagentStop) {
    return "a Stop hook asks you to go on";
  }
  return "blocked by a hook (it gave no reason)";
}

}  // namespace

HookOutcome combine_verdicts(HookEvent event, std::vector<HookReport> reports) {
  HookOutcome outcome;
  for (HookReport& report : reports) {
    HookVerdict& verdict = report.verdict;
    const std::string source = "hook " + report.hook.command;
    if (verdict.kind == Kind::kFailed && (!can_block(event) || report.hook.allow_on_failure)) {
      outcome.warnings.push_back(source + " failed: " + verdict.reason);
      verdict.kind = Kind::kNone;
    }
    if (strength(verdict.kind) > strength(outcome.decision)) {
      outcome.decision = verdict.kind;
      outcome.source = source;
      outcome.reason = verdict.kind == Kind::kFailed
                           ? "the hook failed (" + verdict.reason +
                                 "), so nib blocks what it guards; fix the hook, or give it "
                                 "\"onFailure\": \"allow\" in " +
                                 report.hook.origin
                           : verdict.reason;
      if (outcome.reason.empty()) outcome.reason = default_reason(event, verdict.kind);
    }
    if (!verdict.context.empty()) {
      outcome.context += (outcome.context.empty() ? "" : "\n") + verdict.context;
    }
    if (verdict.updated_input && !outcome.updated_input) {
      outcome.updated_input = verdict.updated_input;
    }
    if (verdict.stop_run && !outcome.stop_run) {
      outcome.stop_run = true;
      outcome.stop_reason = verdict.stop_reason;
    }
    if (!verdict.system_message.empty()) outcome.system_messages.push_back(verdict.system_message);
  }
  outcome.reports = std::move(reports);
  return outcome;
}

HookSet::HookSet(HookConfig config, HookSession session, HookRunSettings settings)
    : config_(std::move(config)), settings_(std::move(settings)), session_(std::move(session)) {}

void HookSet::set_session_source(SessionSource source) {
  std::lock_guard lock(mutex_);
  source_ = std::move(source);
}

HookSession HookSet::session() const {
  SessionSource source;
  {
    std::lock_guard lock(mutex_);
    if (!source_) return session_;
    source = source_;
  }
  return source();
}

std::vector<const HookCommand*> HookSet::matching(HookEvent event,
                                                  const std::string& subject) const {
  std::vector<const HookCommand*> hooks;
  for (const HookGroup& group : config_.of(event)) {
    const bool matches =
        !uses_matcher(event) || (is_tool_event(event) ? group.matcher.matches_tool(subject)
                                                      : group.matcher.matches(subject));
    if (!matches) continue;
    for (const HookCommand& hook : group.hooks) {
      // Claude Code runs an identical command once per event.
      const bool seen = std::any_of(hooks.begin(), hooks.end(), [&](const HookCommand* other) {
        return other->command == hook.command;
      });
      if (!seen) hooks.push_back(&hook);
    }
  }
  return hooks;
}

HookOutcome HookSet::run(HookEvent event, const std::string& subject, nlohmann::json fields,
                         std::stop_token stop) const {
  const std::vector<const HookCommand*> hooks = matching(event, subject);
  if (hooks.empty()) return {};
  const std::string input = util::json_text(hook_input(session(), event, std::move(fields)));
  std::vector<HookReport> reports(hooks.size());
  {
    // Each hook's command dies with the thread that started it (tools/subprocess.hpp), so
    // every thread lives until its hook has ended.
    std::vector<std::jthread> threads;
    threads.reserve(hooks.size());
    for (std::size_t i = 0; i < hooks.size(); ++i) {
      HookReport& report = reports[i];
      report.hook = *hooks[i];
      try {
        threads.emplace_back([&, i] {
          reports[i].run = run_hook(reports[i].hook, input, settings_, stop);
          reports[i].verdict = interpret_hook_run(event, reports[i].run, reports[i].hook);
        });
      } catch (const std::system_error& error) {
        report.run.error = std::string("no thread to run it: ") + error.what();
        report.verdict = interpret_hook_run(event, report.run, report.hook);
      }
    }
  }
  return combine_verdicts(event, std::move(reports));
}

}  // namespace nib::hooks
