#include "hooks/tool_hooks.hpp"

namespace nib::hooks {
namespace {

using Kind = HookVerdict::Kind;

core::GateDecision blocked(std::string reason, std::string source) {
  core::GateDecision decision;
  decision.block = true;
  decision.reason = std::move(reason);
  decision.source = std::move(source);
  return decision;
}

}  // namespace

core::Gate with_pre_tool_use_hooks(std::shared_ptr<const HookSet> hooks, core::Gate inner) {
  return [hooks = std::move(hooks), inner = std::move(inner)](const core::GateRequest& request,
                                                              std::stop_token stop) {
    const auto ask_inner = [&](const core::GateRequest& asked) {
      return inner ? inner(asked, stop) : core::GateDecision{};
    };
    if (!hooks->has(HookEvent::kPreToolUse)) return ask_inner(request);
    const HookOutcome outcome = hooks->run(
        HookEvent::kPreToolUse, request.name,
        tool_fields(request.name, request.tool_call_id, *request.args, hooks->settings().cwd),
        stop);
    if (outcome.blocks()) return blocked(outcome.reason, outcome.source);
    if (outcome.stop_run) {
      return blocked(outcome.stop_reason.empty() ? "a hook stopped the work" : outcome.stop_reason,
                     outcome.source.empty() ? "a hook" : outcome.source);
    }
    std::optional<nlohmann::json> updated;
    if (outcome.updated_input) updated = nib_tool_input(*outcome.updated_input, *request.args);

    core::GateDecision decision;
    {
      core::GateRequest asked = request;
      if (updated) asked.args = &*updated;
      // An allow spares the question; the inner gate's deny rules still hold.
      asked.hook_allows = outcome.decision == Kind::kAllow;
      if (outcome.decision == Kind::kAsk) {
        asked.hook_asks = outcome.reason;
        if (!inner) {
          return blocked("Not run: the hook asks for the user's approval of this call (" +
                             outcome.reason +
                             "), and nobody can be asked here. Do without it, or tell the user "
                             "what you would have run.",
                         outcome.source);
        }
      }
      decision = ask_inner(asked);
      if (decision.block) return decision;
    }
    if (!decision.updated_args) decision.updated_args = std::move(updated);
    if (!outcome.context.empty()) {
      decision.additional_context +=
          (decision.additional_context.empty() ? "" : "\n") + outcome.context;
    }
    return decision;
  };
}

core::AfterTool post_tool_use_hooks(std::shared_ptr<const HookSet> hooks) {
  return [hooks = std::move(hooks)](const core::GateRequest& request, core::ToolResult& result,
                                    std::stop_token stop) {
    if (!hooks->has(HookEvent::kPostToolUse)) return;
    nlohmann::json fields =
        tool_fields(request.name, request.tool_call_id, *request.args, hooks->settings().cwd);
    fields["tool_response"] = tool_response(result);
    const HookOutcome outcome =
        hooks->run(HookEvent::kPostToolUse, request.name, std::move(fields), stop);
    if (outcome.blocks()) {
      core::append_text(result.content,
                        "(The call ran, but " + outcome.source +
                            (outcome.decision == Kind::kFailed ? " failed: " : " objects: ") +
                            outcome.reason + ")");
    }
    core::append_text(result.content, outcome.context);
  };
}

}  // namespace nib::hooks
