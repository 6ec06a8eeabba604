#include "acp/permission_request.hpp"

#include <nlohmann/json.hpp>

#include "acp/session_updates.hpp"
#include "permissions/rule_list.hpp"
#include "ui/tool_summary.hpp"
#include "util/json_text.hpp"

namespace nib::acp {

using nlohmann::json;

json permission_request(const std::string& session_id,
                        const permissions::ApprovalQuestion& question,
                        const core::ToolRegistry& tools) {
  json content = json::array();
  std::string text = question.reason;
  if (question.preview) {
    const core::ChangePreview& preview = *question.preview;
    if (!preview.failure.empty()) {
      text += "\n\nThe call would fail: " + preview.failure;
    } else {
      if (!preview.summary.empty()) text += "\n\n" + preview.summary;
      if (!preview.diff.empty()) {
        text += "\n\n```diff\n" + preview.diff + "```";
        if (preview.omitted_lines > 0) {
          text += "\n(" + std::to_string(preview.omitted_lines) + " more lines)";
        }
      }
    }
  }
  if (!text.empty()) {
    content.push_back({{"type", "content"}, {"content", {{"type", "text"}, {"text", text}}}});
  }
  const std::string always = question.rules.empty()
                                 ? "Always allow"
                                 : "Always allow " + permissions::joined_rules(question.rules);
  const std::string never = question.rules.empty()
                                ? "Always reject"
                                : "Always reject " + permissions::joined_rules(question.rules);
  return {
      {"sessionId", session_id},
      {"toolCall",
       {{"toolCallId", question.tool_call_id},
        {"title",
         ui::ToolPresenter(&tools).call(question.tool_name, util::json_text(question.arguments))},
        {"kind", tool_kind(tools, question.tool_name)},
        {"status", "pending"},
        {"rawInput", question.arguments},
        {"content", std::move(content)}}},
      {"options",
       json::array({{{"optionId", "allow_once"}, {"name", "Allow"}, {"kind", "allow_once"}},
                    {{"optionId", "allow_always"}, {"name", always}, {"kind", "allow_always"}},
                    {{"optionId", "reject_once"}, {"name", "Reject"}, {"kind", "reject_once"}},
                    {{"optionId", "reject_always"}, {"name", never}, {"kind", "reject_always"}}})}};
}

PermissionAnswer permission_answer(const json& result) {
  const json outcome = result.is_object() ? result.value("outcome", json()) : json();
  if (!outcome.is_object() || outcome.value("outcome", "") != "selected") return {};
  const std::string option = outcome.value("optionId", "");
  if (option == "allow_once") return {permissions::ApprovalAnswer::kYes, false};
  if (option == "allow_always") return {permissions::ApprovalAnswer::kAlways, true};
  if (option == "reject_always") return {permissions::ApprovalAnswer::kNo, true};
  return {};
}

}  // namespace nib::acp
