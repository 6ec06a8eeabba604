#include "provider/openai_responses_stream.hpp"

#include <algorithm>
#include <cstdint>
#include <initializer_list>

#include "provider/json_fields.hpp"
#include "provider/openai_responses_request.hpp"
#include "provider/service_error.hpp"
#include "util/json_text.hpp"
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

// The output item types the assembler turns into blocks.
bool known_item_type(const std::string& type) {
  return type == "message" || type == "function_call" || type == "custom_tool_call" ||
         type == "reasoning" || type == "web_search_call";
}

// A custom call's arguments as nib holds them (core::ToolCall::freeform): {"input": text}. The
// deltas passed on are this text's pieces: the opening, then each piece of the text as JSON
// writes it inside a string, and the closing with the finished item.
constexpr const char* kFreeformOpening = R"({"input":")";

std::string freeform_arguments(const std::string& input) {
  return util::json_text(json{{"input", input}});
}

// `piece` as JSON writes it inside a string: its text between the quotes.
std::string string_piece(const std::string& piece) {
  const std::string quoted = util::json_text(json(piece));
  return quoted.substr(1, quoted.size() - 2);
}

}  // namespace

bool ResponsesStreamAssembler::read_event(const net::SseEvent& event) {
  // Not part of the protocol, but some compatible servers end every stream this way.
  if (event.data == "[DONE]") return false;
  const auto parsed = parse_event_data(event.data);
  if (!parsed.ok()) {
    error_ = parsed.error();
    return false;
  }
  const json& payload = parsed.value();
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
  return !complete_;
}

void ResponsesStreamAssembler::on_event(const std::string& type, const json& payload) {
  if (type == "response.output_item.added") {
    on_item_added(payload);
  } else if (type == "response.output_item.done") {
    on_item_done(payload);
  } else if (type == "response.output_text.delta" || type == "response.refusal.delta") {
    reply_.append_text(item_for(payload, "message").block, string_field(payload, "delta"));
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
    reply_.append_arguments(item_for(payload, "function_call").block,
                            string_field(payload, "delta"));
  } else if (type == "response.custom_tool_call_input.delta") {
    add_input(item_for(payload, "custom_tool_call"), string_field(payload, "delta"));
  } else if (type == "response.custom_tool_call_input.done") {
    settle_input(item_for(payload, "custom_tool_call"), string_field(payload, "input"));
  } else if (type == "response.function_call_arguments.done") {
    // The complete argument text: a missing tail is passed on, a disagreement is settled in
    // favour of the final text.
    reply_.settle_arguments(item_for(payload, "function_call").block,
                            string_field(payload, "arguments"));
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
  Item item{type, 0, ""};
  if (type == "message") {
    item.block = reply_.start_text();
  } else if (type == "reasoning") {
    item.block = reply_.start_thinking();
  } else if (type == "web_search_call") {
    item.block = reply_.start_web_search(
        core::WebSearchBlock{.id = string_field(object_field(payload, "item"), "id")});
  } else if (type == "custom_tool_call") {
    const json& announced = object_field(payload, "item");
    item.block = reply_.start_call(string_field(announced, "call_id"),
                                   string_field(announced, "name"), kFreeformOpening,
                                   /*freeform=*/true);
    add_input(item, string_field(announced, "input"));
  } else {
    const json& announced = object_field(payload, "item");
    item.block =
        reply_.start_call(string_field(announced, "call_id"), string_field(announced, "name"),
                          string_field(announced, "arguments"));
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
  const std::string type = string_field(object_field(payload, "item"), "type");
  if (!known_item_type(type)) return;
  if (find_item(payload) != nullptr) return;  // already started by an early delta
  add_item(type, payload);
}

// The finished item is authoritative: what its deltas missed is filled in (and passed on, so
// that the deltas still add up), and where they differ, the item wins.
void ResponsesStreamAssembler::on_item_done(const json& payload) {
  const json& done = object_field(payload, "item");
  const std::string type = string_field(done, "type");
  if (!known_item_type(type)) return;
  Item& item = item_for(payload, type);
  if (type == "message") {
    reply_.settle_text(item.block, part_texts(done, "content", {"output_text", "refusal"}, ""));
    add_citations(item.block, done);
  } else if (type == "web_search_call") {
    settle_web_search(item, done);
  } else if (type == "reasoning") {
    const auto& thinking = std::get<core::ThinkingBlock>(reply_.block(item.block));
    if (thinking.text.empty()) {
      add_reasoning(item, "summary",
                    part_texts(done, "summary", {"summary_text"}, kReasoningPartSeparator));
    }
    reply_.set_signature(item.block, encode_reasoning_signature(done));
  } else if (type == "custom_tool_call") {
    reply_.name_call(item.block, string_field(done, "call_id"), string_field(done, "name"));
    if (done.contains("input")) settle_input(item, string_field(done, "input"));
  } else {
    reply_.name_call(item.block, string_field(done, "call_id"), string_field(done, "name"));
    if (done.contains("arguments")) {
      reply_.settle_arguments(item.block, string_field(done, "arguments"));
    }
  }
}

void ResponsesStreamAssembler::add_input(const Item& item, const std::string& delta) {
  if (!delta.empty() && !item.settled) reply_.append_arguments(item.block, string_piece(delta));
}

void ResponsesStreamAssembler::settle_input(Item& item, const std::string& final) {
  item.settled = true;
  reply_.settle_arguments(item.block, freeform_arguments(final));
}

void ResponsesStreamAssembler::settle_web_search(const Item& item, const json& done) {
  core::WebSearchBlock search;
  search.id = string_field(done, "id");
  const json& action = object_field(done, "action");
  search.query = string_field(action, "query");
  if (const json* sources = find_field(action, "sources"); sources && sources->is_array()) {
    for (const json& source : *sources) {
      const std::string url = string_field(source, "url");
      if (!url.empty()) search.results.push_back({string_field(source, "title"), url});
    }
  }
  if (string_field(done, "status") == "failed") search.error = "failed";
  search.replay = encode_web_search_replay(done);
  reply_.set_web_search(item.block, std::move(search));
}

// The url_citation annotations of a finished message's output_text parts. The service needs
// none back (the text goes back plain), so they keep no replay.
void ResponsesStreamAssembler::add_citations(std::size_t block, const json& done) {
  const json* parts = find_field(done, "content");
  if (parts == nullptr || !parts->is_array()) return;
  for (const json& part : *parts) {
    const json* annotations = find_field(part, "annotations");
    if (annotations == nullptr || !annotations->is_array()) continue;
    for (const json& annotation : *annotations) {
      const std::string url = string_field(annotation, "url");
      if (string_field(annotation, "type") != "url_citation" || url.empty()) continue;
      reply_.add_citation(block, {url, string_field(annotation, "title"), ""});
    }
  }
}

void ResponsesStreamAssembler::add_reasoning(Item& item, const std::string& part,
                                             const std::string& text) {
  if (text.empty()) return;
  const auto& thinking = std::get<core::ThinkingBlock>(reply_.block(item.block));
  const bool new_part = !thinking.text.empty() && part != item.reasoning_part;
  item.reasoning_part = part;
  reply_.append_thinking(item.block, new_part ? kReasoningPartSeparator + text : text);
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
  add_unstreamed_items(response);
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

// A server that streams no items lists them only in the final response; once any item was
// streamed, the list only repeats what arrived.
void ResponsesStreamAssembler::add_unstreamed_items(const json& response) {
  const json* output = find_field(response, "output");
  if (!items_.empty() || output == nullptr || !output->is_array()) return;
  for (std::size_t index = 0; index < output->size(); ++index) {
    on_item_done(json{{"output_index", index}, {"item", (*output)[index]}});
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
    message =
        error.is_null() || error.empty() ? std::string("no details given") : util::json_text(error);
  }
  error_ = prefix + ": " + clip_detail(message.empty() ? code : message);
  if (!code.empty() && !message.empty()) error_ += " (" + code + ")";
  error_kind_ = stream_error_kind(code + ": " + message);
}

core::AssistantMessage ResponsesStreamAssembler::take_message() {
  core::AssistantMessage message;
  if (cut_at_limit_) {
    message.stop_reason = core::StopReason::kMaxTokens;
  } else {
    message.stop_reason =
        reply_.call_count() == 0 ? core::StopReason::kEndTurn : core::StopReason::kToolUse;
  }
  // A custom call whose item never finished is closed on the text that arrived.
  for (const Item& item : items_) {
    if (item.type == "custom_tool_call" && !item.settled)
      reply_.append_arguments(item.block, "\"}");
  }
  message.blocks = reply_.take_blocks();
  message.usage = usage_;
  items_.clear();
  item_by_index_.clear();
  item_by_id_.clear();
  return message;
}

}  // namespace nib::provider
