#include "provider/anthropic_stream.hpp"

#include <cstdint>
#include <utility>

#include "provider/json_fields.hpp"
#include "provider/service_error.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;

// The member `name` of an object, or nullptr.
std::string dump(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

AnthropicStreamAssembler::AnthropicStreamAssembler(core::DeltaSink on_delta)
    : on_delta_(std::move(on_delta)) {}

bool AnthropicStreamAssembler::consume(const SseEvent& event) {
  saw_events_ = true;
  const json payload = json::parse(event.data, nullptr, /*allow_exceptions=*/false);
  if (!payload.is_object()) {
    error_ =
        "the service sent a stream event that is not a JSON object: " + clip_detail(event.data);
    return false;
  }
  // The type is named twice, in the `event:` line and in the data; the data's counts, since
  // some compatible servers leave out the event line.
  std::string type = string_field(payload, "type");
  if (type.empty()) type = event.event;
  if (type == "message_start") {
    on_message_start(payload);
  } else if (type == "content_block_start") {
    on_block_start(payload);
  } else if (type == "content_block_delta") {
    on_block_delta(payload);
  } else if (type == "message_delta") {
    on_message_delta(payload);
  } else if (type == "message_stop") {
    stopped_ = true;
    return false;
  } else if (type == "error") {
    on_error(payload);
    return false;
  }
  // content_block_stop needs no action (a block is whole when it stops receiving deltas);
  // ping keeps the connection alive; the service may add event types at any time.
  return true;
}

void AnthropicStreamAssembler::on_message_start(const json& payload) {
  if (const json* message = find_field(payload, "message")) {
    if (const json* usage = find_field(*message, "usage")) read_usage(*usage);
  }
}

void AnthropicStreamAssembler::on_block_start(const json& payload) {
  const json* index = find_field(payload, "index");
  const json* block = find_field(payload, "content_block");
  if (index == nullptr || !index->is_number_integer() || block == nullptr) return;
  const std::string type = string_field(*block, "type");
  OpenBlock open;
  open.position = blocks_.size();
  if (type == "text") {
    const std::string text = string_field(*block, "text");
    blocks_.emplace_back(core::TextBlock{text});
    if (!text.empty()) emit(core::TextDeltaEvent{text});
  } else if (type == "thinking") {
    const std::string text = string_field(*block, "thinking");
    blocks_.emplace_back(core::ThinkingBlock{text, string_field(*block, "signature")});
    if (!text.empty()) emit(core::ThinkingDeltaEvent{text});
  } else if (type == "redacted_thinking") {
    // The reasoning is encrypted: nothing to show, but `data` must go back with the history.
    blocks_.emplace_back(core::ThinkingBlock{"", string_field(*block, "data"), true});
  } else if (type == "tool_use") {
    core::ToolCall call{string_field(*block, "id"), string_field(*block, "name"), ""};
    // The service starts with "input": {} and streams the input; a server that does not
    // stream it sends it whole here.
    if (const json* input = find_field(*block, "input");
        input != nullptr && input->is_object() && !input->empty()) {
      call.arguments = dump(*input);
      open.input_from_start = true;
    }
    open.call = calls_++;
    emit(core::ToolCallDeltaEvent{open.call, call.id, call.name, call.arguments});
    blocks_.emplace_back(std::move(call));
  } else {
    return;  // server tool blocks and types nib does not know
  }
  by_index_[index->get<long long>()] = open;
}

void AnthropicStreamAssembler::on_block_delta(const json& payload) {
  const json* index = find_field(payload, "index");
  const json* delta = find_field(payload, "delta");
  if (index == nullptr || !index->is_number_integer() || delta == nullptr) return;
  const auto found = by_index_.find(index->get<long long>());
  if (found == by_index_.end()) return;
  OpenBlock& open = found->second;
  core::AssistantBlock& block = blocks_[open.position];
  const std::string type = string_field(*delta, "type");
  if (type == "text_delta") {
    auto* text = std::get_if<core::TextBlock>(&block);
    const std::string part = string_field(*delta, "text");
    if (text == nullptr || part.empty()) return;
    text->text += part;
    emit(core::TextDeltaEvent{part});
  } else if (type == "thinking_delta") {
    auto* thinking = std::get_if<core::ThinkingBlock>(&block);
    const std::string part = string_field(*delta, "thinking");
    if (thinking == nullptr || part.empty()) return;
    thinking->text += part;
    emit(core::ThinkingDeltaEvent{part});
  } else if (type == "signature_delta") {
    if (auto* thinking = std::get_if<core::ThinkingBlock>(&block)) {
      thinking->signature += string_field(*delta, "signature");
    }
  } else if (type == "input_json_delta") {
    auto* call = std::get_if<core::ToolCall>(&block);
    const std::string fragment = string_field(*delta, "partial_json");
    if (call == nullptr || fragment.empty()) return;
    if (open.input_from_start) {
      // Streamed fragments carry the whole input; what the start block held was a preview.
      call->arguments.clear();
      open.input_from_start = false;
    }
    call->arguments += fragment;
    emit(core::ToolCallDeltaEvent{open.call, "", "", fragment});
  }
}

void AnthropicStreamAssembler::on_message_delta(const json& payload) {
  if (const json* delta = find_field(payload, "delta")) {
    if (const json* reason = find_field(*delta, "stop_reason");
        reason != nullptr && reason->is_string()) {
      stop_reason_ = reason->get<std::string>();
    }
  }
  if (const json* usage = find_field(payload, "usage")) read_usage(*usage);
}

void AnthropicStreamAssembler::on_error(const json& payload) {
  std::string type;
  std::string message;
  if (const json* error = find_field(payload, "error")) {
    if (error->is_string()) {
      message = error->get<std::string>();
    } else {
      type = string_field(*error, "type");
      message = string_field(*error, "message");
    }
  }
  std::string text = message.empty() ? type : message;
  if (!message.empty() && !type.empty()) text += " (" + type + ")";
  if (text.empty()) text = clip_detail(dump(payload));
  error_ = "the service reported an error in the stream: " + text;
  error_kind_ = stream_error_kind(type + ": " + message);
}

// message_start carries the prompt's counts, message_delta the cumulative output count (and,
// from newer servers, the prompt's counts again): every count present replaces the last.
// Anthropic counts input_tokens without cache reads and writes, as nib's Usage does.
void AnthropicStreamAssembler::read_usage(const json& usage) {
  const auto read = [&usage](const char* name, std::int64_t& into) {
    const json* value = find_field(usage, name);
    if (value != nullptr && value->is_number_integer()) into = value->get<std::int64_t>();
  };
  read("input_tokens", usage_.input_tokens);
  read("output_tokens", usage_.output_tokens);
  read("cache_read_input_tokens", usage_.cache_read_tokens);
  read("cache_creation_input_tokens", usage_.cache_write_tokens);
}

void AnthropicStreamAssembler::emit(const core::Event& event) {
  if (on_delta_) on_delta_(event);
}

core::AssistantMessage AnthropicStreamAssembler::take_message() {
  core::AssistantMessage message;
  // Blocks that started but received nothing carry nothing worth keeping.
  std::erase_if(blocks_, [](const core::AssistantBlock& block) {
    if (const auto* text = std::get_if<core::TextBlock>(&block)) return text->text.empty();
    if (const auto* thinking = std::get_if<core::ThinkingBlock>(&block)) {
      return thinking->text.empty() && thinking->signature.empty();
    }
    return false;
  });
  complete_tool_calls(blocks_);
  const std::string reason = stop_reason_.value_or("");
  if (reason == "max_tokens" || reason == "model_context_window_exceeded") {
    // Both cut the reply short at a token limit; its last tool call may be incomplete.
    message.stop_reason = core::StopReason::kMaxTokens;
  } else if (reason == "refusal") {
    // The service's safety classifier stopped the reply midway, possibly inside a tool call,
    // so it is not treated as a finished answer whose calls could run. The text so far stays.
    message.stop_reason = core::StopReason::kError;
    message.error_kind = core::ErrorKind::kOther;
    message.error_message =
        "the model declined to continue this reply (stop_reason refusal); rephrase the request "
        "or start a new conversation";
  } else {
    // end_turn, stop_sequence and tool_use; the calls decide, as for pause_turn (a server-tool
    // turn that nib, which uses no server tools, ends where it stands).
    message.stop_reason = calls_ > 0 ? core::StopReason::kToolUse : core::StopReason::kEndTurn;
  }
  message.blocks = std::move(blocks_);
  message.usage = usage_;
  blocks_.clear();
  by_index_.clear();
  calls_ = 0;
  return message;
}

}  // namespace nib::provider
