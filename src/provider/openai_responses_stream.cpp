#include "provider/openai_responses_stream.hpp"

#include <algorithm>
#include <cstdint>
#include <initializer_list>

#include "provider/json_fields.hpp"
#include "provider/openai_responses_request.hpp"
#include "provider/service_error.hpp"
#include "util/utf8.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;

// Between two parts of a reasoning summary, which the service streams as separate parts.
constexpr const char* kReasoningPartSeparator = "\n\n";

// The texts of an item's parts (`content` of a message, `summary` of a reasoning item) of the
// given types, joined by `separator`.
std::string part_texts(const json& item, const char* list, std::initializer_list<const char*> types,
                       const char* separator) {
  std::string out;
  const auto parts = item.find(list);
  if (parts == item.end() || !parts->is_array()) return out;
  bool first = true;
  for (const json& part : *parts) {
    if (!part.is_object()) continue;
    const std::string type = string_field(part, "type");
    if (std::find(types.begin(), types.end(), type) == types.end()) continue;
    // A refusal part carries its text under `refusal`.
    std::string text = string_field(part, type == "refusal" ? "refusal" : "text");
    if (text.empty()) continue;
    if (!first) out += separator;
    first = false;
    out += text;
  }
  return out;
}

}  // namespace

ResponsesStreamAssembler::ResponsesStreamAssembler(core::DeltaSink on_delta)
    : on_delta_(std::move(on_delta)) {}

bool ResponsesStreamAssembler::consume(const SseEvent& event) {
  saw_events_ = true;
  // Not part of the protocol, but some compatible servers end every stream this way.
  if (event.data == "[DONE]") return false;
  const json payload = json::parse(event.data, nullptr, /*allow_exceptions=*/false);
  if (payload.is_discarded()) {
    error_ = "the service sent a stream event that is not JSON: " + event_excerpt(event.data);
    return false;
  }
  if (!payload.is_object()) {
    if (event.event == "error") {
      fail("the service reported an error in the stream", payload);
    } else {
      error_ =
          "the service sent a stream event that is not a JSON object: " + event_excerpt(event.data);
    }
    return false;
  }
  // The payload's own `type` names the event; the SSE event name is the same when present.
  std::string type = string_field(payload, "type");
  if (type.empty()) type = event.event;
  on_event(type, payload);
  return error_.empty() && !complete_;
}

void ResponsesStreamAssembler::on_event(const std::string& type, const json& payload) {
  if (type == "response.output_item.added") {
    on_item_added(payload);
  } else if (type == "response.output_item.done") {
    on_item_done(payload);
  } else if (type == "response.output_text.delta" || type == "response.refusal.delta") {
    add_text(item_for(payload, "message"), string_field(payload, "delta"));
  } else if (type == "response.reasoning_summary_text.delta") {
    add_reasoning(item_for(payload, "reasoning"),
                  "summary " + std::to_string(count_field(payload, "summary_index")),
                  string_field(payload, "delta"));
  } else if (type == "response.reasoning_text.delta") {
    // The full reasoning text, which open-weight models served by compatible servers send.
    add_reasoning(item_for(payload, "reasoning"),
                  "content " + std::to_string(count_field(payload, "content_index")),
                  string_field(payload, "delta"));
  } else if (type == "response.function_call_arguments.delta") {
    add_arguments(item_for(payload, "function_call"), string_field(payload, "delta"));
  } else if (type == "response.function_call_arguments.done") {
    settle_arguments(item_for(payload, "function_call"), string_field(payload, "arguments"));
  } else if (type == "response.completed" || type == "response.incomplete" ||
             type == "response.failed") {
    on_response_end(type, payload);
  } else if (type == "error") {
    // Sent as {code, message, param} or with those fields inside an `error` object.
    const auto nested = payload.find("error");
    fail("the service reported an error in the stream",
         nested != payload.end() && nested->is_object() ? *nested : payload);
  }
  // Everything else (response.created, response.in_progress, content_part and *.done events
  // whose content already arrived as deltas, keep-alives, hosted tools' progress) adds
  // nothing.
}

ResponsesStreamAssembler::Item* ResponsesStreamAssembler::find_item(const json& payload) {
  if (const auto index = payload.find("output_index");
      index != payload.end() && index->is_number_integer()) {
    if (const auto found = item_by_index_.find(index->get<long long>());
        found != item_by_index_.end()) {
      return &items_[found->second];
    }
  }
  std::string id = string_field(payload, "item_id");
  if (id.empty()) id = string_field(object_field(payload, "item"), "id");
  if (const auto found = item_by_id_.find(id); !id.empty() && found != item_by_id_.end()) {
    return &items_[found->second];
  }
  return nullptr;
}

// The item a delta belongs to; a delta for an item that was never announced starts one.
ResponsesStreamAssembler::Item& ResponsesStreamAssembler::item_for(const json& payload,
                                                                   const std::string& type) {
  Item* item = find_item(payload);
  return item != nullptr && item->type == type ? *item : add_item(type, payload);
}

ResponsesStreamAssembler::Item& ResponsesStreamAssembler::add_item(const std::string& type,
                                                                   const json& payload) {
  Item item{type, blocks_.size()};
  if (type == "message") {
    blocks_.emplace_back(core::TextBlock{});
  } else if (type == "reasoning") {
    blocks_.emplace_back(core::ThinkingBlock{});
  } else {
    item.call_position = static_cast<int>(call_blocks_.size());
    call_blocks_.push_back(blocks_.size());
    blocks_.emplace_back(core::ToolCall{});
  }
  const std::size_t position = items_.size();
  items_.push_back(std::move(item));
  if (const auto index = payload.find("output_index");
      index != payload.end() && index->is_number_integer()) {
    item_by_index_[index->get<long long>()] = position;
  }
  std::string id = string_field(payload, "item_id");
  if (id.empty()) id = string_field(object_field(payload, "item"), "id");
  if (!id.empty()) item_by_id_[id] = position;
  return items_.back();
}

void ResponsesStreamAssembler::on_item_added(const json& payload) {
  const json& item = object_field(payload, "item");
  const std::string type = string_field(item, "type");
  if (type != "message" && type != "function_call" && type != "reasoning") return;
  if (find_item(payload) != nullptr) return;  // already started by an early delta
  Item& added = add_item(type, payload);
  if (type != "function_call") return;
  auto& call = std::get<core::ToolCall>(blocks_[added.block]);
  call.id = string_field(item, "call_id");
  call.name = string_field(item, "name");
  call.arguments = string_field(item, "arguments");
  emit(core::ToolCallDeltaEvent{added.call_position, call.id, call.name, call.arguments});
}

// The finished item is authoritative: whatever its deltas missed is filled in (and passed on,
// so that the deltas still add up to the block).
void ResponsesStreamAssembler::on_item_done(const json& payload) {
  const json& done = object_field(payload, "item");
  const std::string type = string_field(done, "type");
  if (type != "message" && type != "function_call" && type != "reasoning") return;
  Item& item = item_for(payload, type);
  if (type == "message") {
    if (std::get<core::TextBlock>(blocks_[item.block]).text.empty()) {
      add_text(item, part_texts(done, "content", {"output_text", "refusal"}, ""));
    }
  } else if (type == "reasoning") {
    auto& thinking = std::get<core::ThinkingBlock>(blocks_[item.block]);
    if (thinking.text.empty()) {
      add_reasoning(item, "summary",
                    part_texts(done, "summary", {"summary_text"}, kReasoningPartSeparator));
    }
    thinking.signature = encode_reasoning_signature(done);
  } else {
    auto& call = std::get<core::ToolCall>(blocks_[item.block]);
    const bool announced = !call.id.empty() || !call.name.empty();
    if (call.id.empty()) call.id = string_field(done, "call_id");
    if (call.name.empty()) call.name = string_field(done, "name");
    if (!announced) {
      emit(core::ToolCallDeltaEvent{item.call_position, call.id, call.name, ""});
    }
    if (done.contains("arguments")) settle_arguments(item, string_field(done, "arguments"));
  }
}

void ResponsesStreamAssembler::add_text(Item& item, const std::string& text) {
  if (text.empty()) return;
  std::get<core::TextBlock>(blocks_[item.block]).text += text;
  emit(core::TextDeltaEvent{text});
}

void ResponsesStreamAssembler::add_reasoning(Item& item, const std::string& part,
                                             const std::string& text) {
  if (text.empty()) return;
  auto& thinking = std::get<core::ThinkingBlock>(blocks_[item.block]);
  std::string delta = text;
  if (!thinking.text.empty() && part != item.reasoning_part) delta = kReasoningPartSeparator + text;
  item.reasoning_part = part;
  thinking.text += delta;
  emit(core::ThinkingDeltaEvent{delta});
}

void ResponsesStreamAssembler::add_arguments(Item& item, const std::string& fragment) {
  if (fragment.empty()) return;
  auto& call = std::get<core::ToolCall>(blocks_[item.block]);
  call.arguments += fragment;
  emit(core::ToolCallDeltaEvent{item.call_position, "", "", fragment});
}

// The complete argument text, from a *.done event. The deltas normally spelled it out already;
// a missing tail is passed on, and a disagreement is settled in favour of the final text.
void ResponsesStreamAssembler::settle_arguments(Item& item, const std::string& arguments) {
  auto& call = std::get<core::ToolCall>(blocks_[item.block]);
  if (arguments.empty() || arguments == call.arguments) return;
  if (arguments.starts_with(call.arguments)) {
    add_arguments(item, arguments.substr(call.arguments.size()));
  } else {
    call.arguments = arguments;
  }
}

void ResponsesStreamAssembler::on_response_end(const std::string& type, const json& payload) {
  const json& response = object_field(payload, "response");
  if (const json& usage = object_field(response, "usage"); !usage.empty()) {
    // The service counts cached prompt tokens inside input_tokens; nib keeps them apart so
    // that input + cache_read is the whole prompt.
    const std::int64_t cached =
        count_field(object_field(usage, "input_tokens_details"), "cached_tokens");
    usage_.input_tokens = std::max<std::int64_t>(0, count_field(usage, "input_tokens") - cached);
    usage_.cache_read_tokens = cached;
    usage_.output_tokens = count_field(usage, "output_tokens");
  }
  if (type == "response.failed") {
    fail("the service reported that the reply failed", object_field(response, "error"));
    return;
  }
  complete_ = true;
  if (type == "response.incomplete") {
    const std::string reason = string_field(object_field(response, "incomplete_details"), "reason");
    if (reason == "max_output_tokens") {
      cut_at_limit_ = true;
    } else {
      error_ = "the service stopped the reply before its end (incomplete: " +
               (reason.empty() ? std::string("no reason given") : reason) + ")";
      error_kind_ = core::ErrorKind::kOther;
    }
  }
}

void ResponsesStreamAssembler::fail(const std::string& prefix, const json& error) {
  std::string message;
  std::string code;
  if (error.is_object()) {
    message = string_field(error, "message");
    code = string_field(error, "code");
    if (code.empty()) code = string_field(error, "type");
  } else if (error.is_string()) {
    message = error.get<std::string>();
  }
  if (message.empty() && code.empty()) {
    message = error.is_null() || error.empty()
                  ? std::string("no details given")
                  : error.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  error_ = prefix + ": " + clip_detail(message.empty() ? code : message);
  if (!code.empty() && !message.empty()) error_ += " (" + code + ")";
  error_kind_ = stream_error_kind(code + ": " + message);
}

void ResponsesStreamAssembler::emit(const core::Event& event) {
  if (on_delta_) on_delta_(event);
}

core::AssistantMessage ResponsesStreamAssembler::take_message() {
  core::AssistantMessage message;
  complete_tool_calls(blocks_);
  for (auto& block : blocks_) {
    if (const auto* text = std::get_if<core::TextBlock>(&block); text && text->text.empty()) {
      continue;
    }
    if (const auto* thinking = std::get_if<core::ThinkingBlock>(&block);
        thinking && thinking->text.empty() && thinking->signature.empty()) {
      continue;
    }
    message.blocks.push_back(std::move(block));
  }
  if (cut_at_limit_) {
    message.stop_reason = core::StopReason::kMaxTokens;
  } else {
    message.stop_reason =
        call_blocks_.empty() ? core::StopReason::kEndTurn : core::StopReason::kToolUse;
  }
  message.usage = usage_;
  blocks_.clear();
  items_.clear();
  item_by_index_.clear();
  item_by_id_.clear();
  call_blocks_.clear();
  return message;
}

}  // namespace nib::provider
