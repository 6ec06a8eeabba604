#include "ui/stream_json.hpp"

namespace nib::ui {

// This file spells out core's values: their names read better unqualified.
using namespace core;  // NOLINT(google-build-using-namespace)

namespace {

using nlohmann::json;

json assistant_block_json(const AssistantBlock& block) {
  if (const auto* text = std::get_if<TextBlock>(&block)) {
    json out = {{"type", "text"}, {"text", text->text}};
    if (!text->citations.empty()) {
      json citations = json::array();
      for (const Citation& citation : text->citations) {
        citations.push_back({{"url", citation.url}, {"title", citation.title}});
      }
      out["citations"] = std::move(citations);
    }
    return out;
  }
  if (const auto* search = std::get_if<WebSearchBlock>(&block)) return to_json(*search);
  if (const auto* thinking = std::get_if<ThinkingBlock>(&block)) {
    return {{"type", "thinking"}, {"text", thinking->text}, {"signature", thinking->signature}};
  }
  const auto& call = std::get<ToolCall>(block);
  return {
      {"type", "tool_call"}, {"id", call.id}, {"name", call.name}, {"arguments", call.arguments}};
}

json outcome_json(const char* type, const ToolOutcome& outcome) {
  json out = to_json(outcome.result);
  out["type"] = type;
  out["duration_ms"] = outcome.duration.count();
  if (outcome.display) out["display"] = *outcome.display;
  return out;
}

}  // namespace

json to_json(const ContentBlock& block) {
  if (const auto* text = std::get_if<TextBlock>(&block))
    return {{"type", "text"}, {"text", text->text}};
  const auto& image = std::get<ImageBlock>(block);
  return {{"type", "image"}, {"mime_type", image.mime_type}, {"data", image.data_base64}};
}

json to_json(const Content& content) {
  json out = json::array();
  for (const auto& block : content) out.push_back(to_json(block));
  return out;
}

json to_json(const WebSearchBlock& search) {
  json results = json::array();
  for (const WebSearchResult& result : search.results) {
    results.push_back({{"title", result.title}, {"url", result.url}});
  }
  json out = {{"type", "web_search"},
              {"id", search.id},
              {"query", search.query},
              {"results", std::move(results)}};
  if (!search.error.empty()) out["error"] = search.error;
  return out;
}

json to_json(const Usage& usage) {
  return {{"input_tokens", usage.input_tokens},
          {"output_tokens", usage.output_tokens},
          {"cache_read_tokens", usage.cache_read_tokens},
          {"cache_write_tokens", usage.cache_write_tokens}};
}

json to_json(const ToolResult& result) {
  json out = {{"tool_call_id", result.tool_call_id},
              {"tool_name", result.tool_name},
              {"content", to_json(result.content)},
              {"is_error", result.is_error}};
  if (result.exit_code) out["exit_code"] = *result.exit_code;
  return out;
}

json to_json(const Plan& plan) {
  json items = json::array();
  for (const PlanItem& item : plan) {
    items.push_back({{"content", item.content}, {"status", plan_status_name(item.status)}});
  }
  return items;
}

json to_json(const Message& message) {
  if (const auto* user = std::get_if<UserMessage>(&message)) {
    return {{"role", "user"}, {"content", to_json(user->content)}};
  }
  if (const auto* assistant = std::get_if<AssistantMessage>(&message)) {
    json blocks = json::array();
    for (const auto& block : assistant->blocks) blocks.push_back(assistant_block_json(block));
    json out = {{"role", "assistant"},
                {"content", blocks},
                {"stop_reason", stop_reason_name(assistant->stop_reason)},
                {"usage", to_json(assistant->usage)},
                {"model", assistant->model}};
    if (!assistant->error_message.empty()) {
      out["error"] = assistant->error_message;
      out["error_kind"] = error_kind_name(assistant->error_kind);
    }
    return out;
  }
  json results = json::array();
  for (const auto& result : std::get<ToolResultMessage>(message).results) {
    results.push_back(to_json(result));
  }
  return {{"role", "tool_result"}, {"results", results}};
}

json to_json(const Event& event) {
  return std::visit(
      [](const auto& e) -> json {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, RunStartEvent>) {
          return {{"type", "run_start"}};
        } else if constexpr (std::is_same_v<T, TurnStartEvent>) {
          return {{"type", "turn_start"}, {"turn", e.turn}};
        } else if constexpr (std::is_same_v<T, TextDeltaEvent>) {
          return {{"type", "text_delta"}, {"text", e.text}};
        } else if constexpr (std::is_same_v<T, ThinkingDeltaEvent>) {
          return {{"type", "thinking_delta"}, {"text", e.text}};
        } else if constexpr (std::is_same_v<T, ToolCallDeltaEvent>) {
          return {{"type", "tool_call_delta"},
                  {"index", e.index},
                  {"id", e.id},
                  {"name", e.name},
                  {"fragment", e.fragment}};
        } else if constexpr (std::is_same_v<T, RetryEvent>) {
          return {{"type", "retry"},
                  {"attempt", e.attempt},
                  {"delay_ms", e.delay.count()},
                  {"reason", e.reason}};
        } else if constexpr (std::is_same_v<T, ReplyRestartEvent>) {
          return {{"type", "reply_restart"}};
        } else if constexpr (std::is_same_v<T, MessageEndEvent>) {
          return {{"type", "message_end"}, {"message", to_json(Message{e.message})}};
        } else if constexpr (std::is_same_v<T, ToolStartEvent>) {
          return {
              {"type", "tool_start"}, {"id", e.id}, {"name", e.name}, {"arguments", e.arguments}};
        } else if constexpr (std::is_same_v<T, ToolRunningEvent>) {
          nlohmann::json running = {{"type", "tool_running"}, {"id", e.id}, {"name", e.name}};
          if (e.arguments) running["arguments"] = *e.arguments;
          return running;
        } else if constexpr (std::is_same_v<T, ToolOutputEvent>) {
          return {{"type", "tool_output"}, {"id", e.id}, {"text", e.text}};
        } else if constexpr (std::is_same_v<T, ToolSettledEvent>) {
          return outcome_json("tool_settled", e.outcome);
        } else if constexpr (std::is_same_v<T, ToolEndEvent>) {
          return outcome_json("tool_end", e.outcome);
        } else if constexpr (std::is_same_v<T, ToolResultsEvent>) {
          return {{"type", "tool_results"}, {"message", to_json(Message{e.message})}};
        } else if constexpr (std::is_same_v<T, TurnEndEvent>) {
          return {{"type", "turn_end"}, {"turn", e.turn}};
        } else if constexpr (std::is_same_v<T, UserMessageEvent>) {
          return {{"type", "user_message"}, {"message", to_json(Message{e.message})}};
        } else if constexpr (std::is_same_v<T, HistoryCompactedEvent>) {
          return {{"type", "compaction"}, {"summary", e.summary}, {"kept_messages", e.kept}};
        } else if constexpr (std::is_same_v<T, PlanEvent>) {
          return {{"type", "plan"}, {"items", to_json(e.items)}};
        } else if constexpr (std::is_same_v<T, SubagentEvent>) {
          // Flat: the subagent's event as it would be its own run's, tagged with where it
          // comes from; a deeper subagent's names its own parent call, which is a call of the
          // subagent above it, so the tree can be rebuilt.
          const NestedView view = innermost(e);
          json out = to_json(*view.event);
          out["parent_tool_call_id"] = view.from->tool_call_id;
          out["agent_id"] = view.from->agent_id;
          out["agent_name"] = view.from->agent_name;
          out["depth"] = view.depth;
          return out;
        } else {
          static_assert(std::is_same_v<T, RunEndEvent>);
          json out = {{"type", "result"},
                      {"stop_reason", run_stop_reason_name(e.reason)},
                      {"is_error", e.reason != RunStopReason::kDone},
                      {"turns", e.turns},
                      {"usage", to_json(e.usage)}};
          if (!e.error_message.empty()) out["error"] = e.error_message;
          return out;
        }
      },
      event);
}

}  // namespace nib::ui
