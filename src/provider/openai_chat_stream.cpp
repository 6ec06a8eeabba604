#include "provider/openai_chat_stream.hpp"

#include <algorithm>

#include "provider/json_fields.hpp"
#include "provider/service_error.hpp"
#include "util/json_text.hpp"

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
  return util::json_text(error);
}

// The choice nib assembles: the one with index 0 (a choice without an index counts as 0).
const json* first_choice(const json& chunk) {
  const json* choices = find_field(chunk, "choices");
  if (choices == nullptr || !choices->is_array()) return nullptr;
  for (const json& choice : *choices) {
    if (!choice.is_object()) continue;
    const json* index = find_field(choice, "index");
    if (index == nullptr || !index->is_number_integer() || index->get<std::int64_t>() == 0) {
      return &choice;
    }
  }
  return nullptr;
}

}  // namespace

bool ChatStreamAssembler::read_event(const net::SseEvent& event) {
  if (event.data == "[DONE]") {
    done_ = true;
    return false;
  }
  const auto parsed = parse_event_data(event.data);
  if (!parsed.ok()) {
    // After the finish, the reply is whole: trailing garbage only ends it.
    if (!finish_reason_) error_ = parsed.error();
    return false;
  }
  const json& chunk = parsed.value();
  if (event.event == "error" || (chunk.is_object() && chunk.contains("error"))) {
    const json& error = chunk.is_object() && chunk.contains("error") ? chunk["error"] : chunk;
    error_ = "the service reported an error in the stream: " + error_text(error);
    error_kind_ = stream_error_kind(util::json_text(error));
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
  const json* choice = first_choice(chunk);
  if (choice == nullptr) return;  // e.g. the usage chunk, or another choice's
  if (const json* delta = find_field(*choice, "delta"); delta != nullptr && delta->is_object()) {
    on_delta_fields(*delta);
  }
  if (const json* reason = find_field(*choice, "finish_reason");
      reason != nullptr && reason->is_string()) {
    finish_reason_ = reason->get<std::string>();
  }
}

void ChatStreamAssembler::on_delta_fields(const json& delta) {
  // Compatible servers name the reasoning text `reasoning_content` (DeepSeek, llama.cpp,
  // vLLM) or `reasoning` (Ollama, OpenRouter); some send both with the same text.
  std::string thinking = string_field(delta, "reasoning_content");
  if (thinking.empty()) thinking = string_field(delta, "reasoning");
  if (!thinking.empty()) add_thinking(thinking);
  if (const json* content = find_field(delta, "content")) add_content(*content);
  // A refusal is the model's answer in prose; it reaches the user like any other text.
  if (std::string text = string_field(delta, "refusal"); !text.empty()) add_text(text);
  if (const auto calls = delta.find("tool_calls"); calls != delta.end() && calls->is_array()) {
    for (const json& fragment : *calls) {
      if (fragment.is_object()) add_tool_call_fragment(fragment);
    }
  }
}

// A string, or Mistral's list of parts: {"type":"text","text":...} and
// {"type":"thinking","thinking":[{"type":"text","text":...}]}.
void ChatStreamAssembler::add_content(const json& content) {
  if (content.is_string()) {
    add_text(content.get<std::string>());
    return;
  }
  if (!content.is_array()) return;
  for (const json& part : content) {
    const std::string type = string_field(part, "type");
    if (type == "text") {
      add_text(string_field(part, "text"));
    } else if (type == "thinking") {
      const json* thinking = find_field(part, "thinking");
      if (thinking != nullptr && thinking->is_string()) add_thinking(thinking->get<std::string>());
      if (thinking == nullptr || !thinking->is_array()) continue;
      for (const json& inner : *thinking) {
        if (string_field(inner, "type") == "text") add_thinking(string_field(inner, "text"));
      }
    }
    // "reference" parts (citations) and types nib does not know carry no text to show.
  }
}

void ChatStreamAssembler::add_text(const std::string& text) {
  if (text.empty()) return;
  const bool continues =
      reply_.size() > 0 && std::holds_alternative<core::TextBlock>(reply_.block(reply_.size() - 1));
  reply_.append_text(continues ? reply_.size() - 1 : reply_.start_text(), text);
}

void ChatStreamAssembler::add_thinking(const std::string& text) {
  if (text.empty()) return;
  const bool continues = reply_.size() > 0 && std::holds_alternative<core::ThinkingBlock>(
                                                  reply_.block(reply_.size() - 1));
  reply_.append_thinking(continues ? reply_.size() - 1 : reply_.start_thinking(), text);
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
  if (const auto known = known_call(index, id)) {
    // Some servers repeat the name on every fragment; it arrives whole, so the first counts.
    reply_.name_call(*known, id, name);
    reply_.append_arguments(*known, arguments);
    return;
  }
  const std::size_t position = reply_.start_call(id, name, arguments);
  if (index >= 0) call_by_index_[index] = position;
}

// Fragments are matched to calls by the service's `index`. Tolerated deviations: a fragment
// without an index continues the latest call, and a different id at a known index starts a
// new call (servers that number every call 0).
std::optional<std::size_t> ChatStreamAssembler::known_call(int index, const std::string& id) const {
  std::optional<std::size_t> known;
  if (index >= 0) {
    if (const auto found = call_by_index_.find(index); found != call_by_index_.end()) {
      known = found->second;
    }
  } else if (reply_.call_count() > 0) {
    known = reply_.call_count() - 1;
  }
  if (!known) return std::nullopt;
  const std::string& known_id = reply_.call(*known).id;
  if (id.empty() || known_id.empty() || id == known_id) return known;
  return std::nullopt;
}

core::AssistantMessage ChatStreamAssembler::take_message() {
  core::AssistantMessage message;
  const bool has_calls = reply_.call_count() > 0;
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
  message.blocks = reply_.take_blocks();
  message.usage = usage_;
  call_by_index_.clear();
  return message;
}

}  // namespace nib::provider
