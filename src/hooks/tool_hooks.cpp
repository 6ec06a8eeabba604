#include "hooks/tool_hooks.hpp"

#include "hooks/hook_input.hpp"

namespace nib::hooks {
namespace {

using Kind = HookVerdict::Kind;
using Verdict = core::PreToolVerdict;

nlohmann::json call_fields(const core::GateRequest& request) {
  static const core::CallAccess kNothing;
  return tool_fields(request.name, request.tool_call_id, *request.args,
                     request.access != nullptr ? *request.access : kNothing);
}

}  // namespace

core::PreToolCheck pre_tool_use_check(std::shared_ptr<const HookSet> hooks) {
  return [hooks = std::move(hooks)](const core::GateRequest& request, std::stop_token stop) {
    if (!hooks->has(HookEvent::kPreToolUse)) return Verdict{};
    const HookOutcome outcome =
        hooks->run(HookEvent::kPreToolUse, request.name, call_fields(request), stop);
    if (outcome.blocks()) return Verdict{Verdict::Kind::kBlock, outcome.reason, outcome.source};
    if (outcome.stop_run) {
      return Verdict{Verdict::Kind::kBlock,
                     outcome.stop_reason.empty() ? "a hook stopped the work" : outcome.stop_reason,
                     outcome.source.empty() ? "a hook" : outcome.source};
    }
    Verdict verdict;
    verdict.source = outcome.source;
    if (outcome.decision == Kind::kAllow) verdict.kind = Verdict::Kind::kAllow;
    if (outcome.decision == Kind::kAsk) {
      verdict.kind = Verdict::Kind::kAsk;
      verdict.reason = outcome.reason;
    }
    if (outcome.updated_input) {
      verdict.updated_args = nib_tool_input(request.name, *outcome.updated_input, *request.args);
    }
    verdict.additional_context = outcome.context;
    return verdict;
  };
}

core::AfterTool post_tool_use_hooks(std::shared_ptr<const HookSet> hooks) {
  return [hooks = std::move(hooks)](const core::GateRequest& request, core::ToolResult& result,
                                    std::stop_token stop) {
    if (!hooks->has(HookEvent::kPostToolUse)) return;
    nlohmann::json fields = call_fields(request);
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
