#pragma once
// Field-by-field equality of core messages for the session tests (core's types have no
// operator==), plus a few sample messages that use every field.

#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "core/messages.hpp"

namespace nib::testing {

inline auto fields(const core::TextBlock& b) {
  std::vector<std::tuple<std::string, std::string, std::string>> citations;
  for (const core::Citation& c : b.citations) citations.emplace_back(c.url, c.title, c.replay);
  return std::make_tuple(b.text, citations, b.glued);
}
inline auto fields(const core::WebSearchBlock& b) {
  std::vector<std::pair<std::string, std::string>> results;
  for (const core::WebSearchResult& r : b.results) results.emplace_back(r.title, r.url);
  return std::make_tuple(b.id, b.query, results, b.error, b.replay);
}
inline auto fields(const core::ImageBlock& b) {
  return std::tie(b.data_base64, b.mime_type);
}
inline auto fields(const core::ThinkingBlock& b) {
  return std::tie(b.text, b.signature, b.redacted);
}
inline auto fields(const core::ToolCall& b) {
  return std::tie(b.id, b.name, b.arguments);
}

template <typename... T>
bool same_variant(const std::variant<T...>& a, const std::variant<T...>& b) {
  if (a.index() != b.index()) return false;
  return std::visit(
      [&](const auto& left) {
        using Block = std::decay_t<decltype(left)>;
        return fields(left) == fields(std::get<Block>(b));
      },
      a);
}

template <typename Block>
bool same_blocks(const std::vector<Block>& a, const std::vector<Block>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!same_variant(a[i], b[i])) return false;
  }
  return true;
}

inline bool same_result(const core::ToolResult& a, const core::ToolResult& b) {
  return std::tie(a.tool_call_id, a.tool_name, a.is_error, a.exit_code) ==
             std::tie(b.tool_call_id, b.tool_name, b.is_error, b.exit_code) &&
         same_blocks(a.content, b.content);
}

// True when `a` and `b` agree in every field.
inline bool same_message(const core::Message& a, const core::Message& b) {
  if (a.index() != b.index()) return false;
  if (const auto* user = std::get_if<core::UserMessage>(&a)) {
    return same_blocks(user->content, std::get<core::UserMessage>(b).content);
  }
  if (const auto* left = std::get_if<core::AssistantMessage>(&a)) {
    const auto& right = std::get<core::AssistantMessage>(b);
    const auto usage = [](const core::Usage& u) {
      return std::tie(u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_write_tokens);
    };
    return same_blocks(left->blocks, right.blocks) && left->stop_reason == right.stop_reason &&
           usage(left->usage) == usage(right.usage) &&
           std::tie(left->error_message, left->error_kind, left->retry_after, left->model,
                    left->api) == std::tie(right.error_message, right.error_kind, right.retry_after,
                                           right.model, right.api);
  }
  const auto& left = std::get<core::ToolResultMessage>(a).results;
  const auto& right = std::get<core::ToolResultMessage>(b).results;
  if (left.size() != right.size()) return false;
  for (std::size_t i = 0; i < left.size(); ++i) {
    if (!same_result(left[i], right[i])) return false;
  }
  return true;
}

inline bool same_messages(const std::vector<core::Message>& a,
                          const std::vector<core::Message>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!same_message(a[i], b[i])) return false;
  }
  return true;
}

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
