#pragma once
// A few sample messages for the session tests, which use every field.

#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/messages.hpp"

namespace nib::testing {

inline core::Message user_message(std::string text) {
  return core::UserMessage{core::text_content(std::move(text))};
}

// An assistant message asking for the given calls (id, name) with tool_use as stop reason.
inline core::Message assistant_calling(std::vector<std::pair<std::string, std::string>> calls) {
  core::AssistantMessage message;
  message.blocks.emplace_back(core::TextBlock{"Let me look."});
  for (auto& [id, name] : calls) {
    message.blocks.emplace_back(core::ToolCall{id, name, R"({"path":"a.txt"})"});
  }
  message.stop_reason = core::StopReason::kToolUse;
  message.model = "test-model";
  message.api = "openai-chat";
  return message;
}

inline core::ToolResult ok_result(std::string id, std::string name, std::string text) {
  return core::ToolResult{std::move(id), std::move(name), core::text_content(std::move(text)),
                          false, 0};
}

inline core::Message results_message(std::vector<core::ToolResult> results) {
  return core::ToolResultMessage{std::move(results)};
}

inline core::Message assistant_text_message(std::string text) {
  core::AssistantMessage message;
  message.blocks.emplace_back(core::TextBlock{std::move(text)});
  message.model = "test-model";
  return message;
}

}  // namespace nib::testing
