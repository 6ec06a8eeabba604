#include "hooks/hook_verdict.hpp"

#include "hooks/limits.hpp"
#include "process/output_capture.hpp"
#include "util/blank_text.hpp"
#include "util/json_depth.hpp"
#include "util/text_cut.hpp"

namespace nib::hooks {
namespace {

using Json = nlohmann::json;
using Kind = HookVerdict::Kind;

std::string trimmed(std::string_view text) {
  return std::string(util::trim_blanks(text));
}

HookVerdict failed(std::string how) {
  HookVerdict verdict;
  verdict.kind = Kind::kFailed;
  verdict.reason = std::move(how);
  return verdict;
}

// The events whose hooks' plain stdout is context for the model (as in Claude Code).
bool plain_stdout_is_context(HookEvent event) {
  return event == HookEvent::kUserPromptSubmit || event == HookEvent::kSessionStart;
}

bool has_additional_context(HookEvent event) {
  return event == HookEvent::kPreToolUse || event == HookEvent::kPostToolUse ||
         event == HookEvent::kUserPromptSubmit || event == HookEvent::kSessionStart;
}

// A string field of `object`, or an error naming it; "" when absent or null.
std::optional<std::string> text_field(const Json& object, const char* name, std::string& error) {
  const auto it = object.find(name);
  if (it == object.end() || it->is_null()) return std::string();
  if (!it->is_string()) {
    error = std::string("\"") + name + "\" must be a string";
    return std::nullopt;
  }
  return it->get<std::string>();
}

// Reads a JSON output object into `verdict`; an error says which field was wrong.
std::string read_output(HookEvent event, const Json& output, HookVerdict& verdict) {
  std::string error;
  if (const auto it = output.find("continue"); it != output.end() && !it->is_null()) {
    if (!it->is_boolean()) return "\"continue\" must be true or false";
    verdict.stop_run = !it->get<bool>();
  }
  if (const auto it = output.find("suppressOutput"); it != output.end() && !it->is_null()) {
    if (!it->is_boolean()) return "\"suppressOutput\" must be true or false";
    verdict.suppress_output = it->get<bool>();
  }
  const auto stop_reason = text_field(output, "stopReason", error);
  const auto system_message = text_field(output, "systemMessage", error);
  const auto decision = text_field(output, "decision", error);
  const auto reason = text_field(output, "reason", error);
  if (!error.empty()) return error;
  verdict.stop_reason = *stop_reason;
  verdict.system_message = *system_message;

  const Json empty = Json::object();
  const Json* specific = &empty;
  if (const auto it = output.find("hookSpecificOutput"); it != output.end() && !it->is_null()) {
    if (!it->is_object()) return "\"hookSpecificOutput\" must be an object";
    specific = &*it;
  }
  if (has_additional_context(event)) {
    const auto context = text_field(*specific, "additionalContext", error);
    if (!context) return "hookSpecificOutput." + error;
    verdict.context = *context;
  }

  if (event == HookEvent::kPreToolUse) {
    const auto permission = text_field(*specific, "permissionDecision", error);
    const auto permission_reason = text_field(*specific, "permissionDecisionReason", error);
    if (!error.empty()) return "hookSpecificOutput." + error;
    std::string chosen = *permission;
    verdict.reason = *permission_reason;
    if (chosen.empty() && !decision->empty()) {  // the older form
      if (*decision == "approve")
        chosen = "allow";
      else if (*decision == "block")
        chosen = "deny";
      else
        return "\"decision\" must be \"approve\" or \"block\"";
      verdict.reason = *reason;
    }
    if (chosen == "allow")
      verdict.kind = Kind::kAllow;
    else if (chosen == "deny")
      verdict.kind = Kind::kBlock;
    else if (chosen == "ask")
      verdict.kind = Kind::kAsk;
    else if (!chosen.empty() && chosen != "defer") {
      return "hookSpecificOutput.permissionDecision must be \"allow\", \"deny\" or \"ask\"";
    }
    if (const auto it = specific->find("updatedInput"); it != specific->end() && !it->is_null()) {
      if (!it->is_object()) return "hookSpecificOutput.updatedInput must be an object";
      verdict.updated_input = *it;
    }
    return {};
  }
  if (!decision->empty()) {
    if (*decision != "block") return "\"decision\" must be \"block\" when present";
    if (can_block(event)) {
      verdict.kind = Kind::kBlock;
      verdict.reason = *reason;
    }
  }
  return {};
}

}  // namespace

HookVerdict interpret_hook_run(HookEvent event, const HookRun& run, const HookCommand& hook) {
  const std::string how = describe_end(run, hook);
  const std::string stderr_text = util::cut_text(trimmed(run.stderr_text), kMaxReasonBytes);
  if (run.end != HookRun::End::kExited) return failed(how);
  if (run.exit_code == 2) {
    HookVerdict verdict;
    verdict.kind = Kind::kBlock;
    verdict.reason = stderr_text;
    return verdict;
  }
  if (run.exit_code != 0) {
    return failed(how + (stderr_text.empty() ? "" : ": " + stderr_text));
  }
  if (!run.stdout_complete) {
    return failed("printed more output than nib reads (" +
                  std::to_string(process::kTailBufferBytes) + " bytes)");
  }
  const std::string out = trimmed(run.stdout_text);
  HookVerdict verdict;
  if (out.empty()) return verdict;
  if (out.front() != '{' && out.front() != '[') {
    if (plain_stdout_is_context(event)) verdict.context = out;
    return verdict;
  }
  const Json output = util::parse_untrusted_json(out);
  if (output.is_discarded() || !output.is_object()) {
    return failed("printed output that is not a JSON object: " +
                  util::cut_text(out, kMaxReasonBytes));
  }
  if (std::string error = read_output(event, output, verdict); !error.empty()) {
    return failed("printed invalid output: " + error);
  }
  return verdict;
}

const char* verdict_kind_name(HookVerdict::Kind kind) {
  switch (kind) {
    case Kind::kNone:
      return "none";
    case Kind::kAllow:
      return "allow";
    case Kind::kAsk:
      return "ask";
    case Kind::kBlock:
      return "block";
    case Kind::kFailed:
      break;
  }
  return "failed";
}

}  // namespace nib::hooks
