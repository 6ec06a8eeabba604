#include "provider/openai_chat_stream.hpp"

#include <algorithm>

#include "provider/json_fields.hpp"
#include "provider/service_error.hpp"
#include "util/utf8.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;

// The message of an `error` member, which services send as an object or a plain string.
std::string error_text(const json& error) {
  if (error.is_string()) return error.get<std::string>();
  if (error.is_object()) {
    std::string message = string_field(error, "message");
    if (!message.empty()) return message;
  }
  return error.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

ChatStreamAssembler::ChatStreamAssembler(core::DeltaSink on_delta)
    : on_delta_(std::move(on_delta)) {}

bool ChatStreamAssembler::consume(const SseEvent& event) {
  saw_events_ = true;
  if (event.data == "[DONE]") {
    done_ = true;
    return false;
  }
  json chunk = json::parse(event.data, nullptr, /*allow_exceptions=*/false);
  if (chunk.is_discarded()) {
    error_ = "the service sent a stream event that is not JSON: " + event_excerpt(event.data);
    return false;
  }
  if (event.event == "error" || (chunk.is_object() && chunk.contains("error"))) {
    const json& error = chunk.is_object() && chunk.contains("error") ? chunk["error"] : chunk;
    error_ = "the service reported an error in the stream: " + error_text(error);
    error_kind_ = stream_error_kind(error.dump(-1, ' ', false, json::error_handler_t::replace));
    return false;
  }
  if (!chunk.is_object()) {
    error_ =
        "the service sent a stream event that is not a JSON object: " + event_excerpt(event.data);
    return false;
  }
  on_chunk(chunk);
  return true;
}

void ChatStreamAssembler::on_chunk(const json& chunk) {
  if (const auto usage = chunk.find("usage"); usage != chunk.end() && usage->is_object()) {
    // OpenAI counts cached prompt tokens inside prompt_tokens; nib keeps them apart so that
    // input + cache_read is the whole prompt.
    std::int64_t cached = 0;
    if (const auto details = usage->find("prompt_tokens_details");
        details != usage->end() && details->is_object()) {
      cached = count_field(*details, "cached_tokens");
    }
    usage_.input_tokens = std::max<std::int64_t>(0, count_field(*usage, "prompt_tokens") - cached);
    usage_.output_tokens = count_field(*usage, "completion_tokens");
    usage_.cache_read_tokens = cached;
  }
  const auto choices = chunk.find("choices");
  if (choices == chunk.end() || !choices->is_array() || choices->empty()) return;
  const json& choice = choices->front();  // nib asks for one choice
  if (!choice.is_object()) return;
  if (const auto delta = choice.find("delta"); delta != choice.end() && delta->is_object()) {
    on_delta_fields(*delta);
  }
  if (const auto reason = choice.find("finish_reason");
      reason != choice.end() && reason->is_string()) {
    finish_reason_ = reason->get<std::string>();
  }
}

void ChatStreamAssembler::on_delta_fields(const json& delta) {
  // Compatible servers name the reasoning text `reasoning_content` (DeepSeek, llama.cpp,
  // vLLM) or `reasoning` (Ollama, OpenRouter); some send both with the same text.
  std::string thinking = string_field(delta, "reasoning_content");
  if (thinking.empty()) thinking = string_field(delta, "reasoning");
  if (!thinking.empty()) add_thinking(thinking);
  if (std::string text = string_field(delta, "content"); !text.empty()) add_text(text);
  // A refusal is the model's answer in prose; it reaches the user like any other text.
  if (std::string text = string_field(delta, "refusal"); !text.empty()) add_text(text);
  if (const auto calls = delta.find("tool_calls"); calls != delta.end() && calls->is_array()) {
    for (const json& fragment : *calls) {
      if (fragment.is_object()) add_tool_call_fragment(fragment);
    }
  }
}

void ChatStreamAssembler::add_text(const std::string& text) {
  if (blocks_.empty() || !std::holds_alternative<core::TextBlock>(blocks_.back())) {
    blocks_.emplace_back(core::TextBlock{});
  }
  std::get<core::TextBlock>(blocks_.back()).text += text;
  emit(core::TextDeltaEvent{text});
}

void ChatStreamAssembler::add_thinking(const std::string& text) {
  if (blocks_.empty() || !std::holds_alternative<core::ThinkingBlock>(blocks_.back())) {
    blocks_.emplace_back(core::ThinkingBlock{});
  }
  std::get<core::ThinkingBlock>(blocks_.back()).text += text;
  emit(core::ThinkingDeltaEvent{text});
}

void ChatStreamAssembler::add_tool_call_fragment(const json& fragment) {
  const auto index_field = fragment.find("index");
  const int index = index_field != fragment.end() && index_field->is_number_integer()
                        ? index_field->get<int>()
                        : -1;
  const std::string id = string_field(fragment, "id");
  std::string name;
  std::string arguments;
  if (const auto function = fragment.find("function");
      function != fragment.end() && function->is_object()) {
    name = string_field(*function, "name");
    arguments = string_field(*function, "arguments");
  }
  const std::size_t known_calls = call_blocks_.size();
  const std::size_t position = call_position(index, id);
  const bool first = position == known_calls;
  auto& call = std::get<core::ToolCall>(blocks_[call_blocks_[position]]);
  if (call.id.empty()) call.id = id;
  // Some servers repeat the name on every fragment; it arrives whole, so the first one counts.
  if (call.name.empty()) call.name = name;
  call.arguments += arguments;
  if (!first && arguments.empty()) return;
  emit(core::ToolCallDeltaEvent{static_cast<int>(position), first ? call.id : std::string(),
                                first ? call.name : std::string(), arguments});
}

// Fragments are matched to calls by the service's `index`. Tolerated deviations: a fragment
// without an index continues the latest call, and a different id at a known index starts a
// new call (servers that number every call 0).
std::size_t ChatStreamAssembler::call_position(int index, const std::string& id) {
  std::optional<std::size_t> known;
  if (index >= 0) {
    if (const auto found = call_by_index_.find(index); found != call_by_index_.end()) {
      known = found->second;
    }
  } else if (!call_blocks_.empty()) {
    known = call_blocks_.size() - 1;
  }
  if (known) {
    const auto& call = std::get<core::ToolCall>(blocks_[call_blocks_[*known]]);
    if (id.empty() || call.id.empty() || id == call.id) return *known;
  }
  const std::size_t position = call_blocks_.size();
  call_blocks_.push_back(blocks_.size());
  blocks_.emplace_back(core::ToolCall{});
  if (index >= 0) call_by_index_[index] = position;
  return position;
}

void ChatStreamAssembler::emit(const core::Event& event) {
  if (on_delta_) on_delta_(event);
}

core::AssistantMessage ChatStreamAssembler::take_message() {
  core::AssistantMessage message;
  complete_tool_calls(blocks_);
  const bool has_calls = !call_blocks_.empty();
  const std::string reason = finish_reason_.value_or("");
  if (reason == "length") {
    message.stop_reason = core::StopReason::kMaxTokens;
  } else if (reason == "content_filter") {
    message.stop_reason = core::StopReason::kError;
    message.error_message =
        "the service's content filter stopped the reply (finish_reason content_filter)";
  } else {
    // Some servers report "stop" even when the reply asks for tools; the calls decide.
    message.stop_reason = has_calls ? core::StopReason::kToolUse : core::StopReason::kEndTurn;
  }
  message.blocks = std::move(blocks_);
  message.usage = usage_;
  blocks_.clear();
  call_blocks_.clear();
  call_by_index_.clear();
  return message;
}

}  // namespace nib::provider
