#include "provider/anthropic_stream.hpp"

#include <cstdint>
#include <utility>

#include "provider/anthropic_request.hpp"
#include "provider/json_fields.hpp"
#include "provider/service_error.hpp"
#include "util/json_depth.hpp"
#include "util/json_text.hpp"

namespace nib::provider {

using nlohmann::json;

bool AnthropicStreamAssembler::read_event(const net::SseEvent& event) {
  const auto parsed = parse_event_data(event.data);
  if (!parsed.ok()) {
    // After the stop reason every block has ended: trailing garbage only ends the reply.
    if (!stop_reason_) error_ = parsed.error();
    return false;
  }
  const json& payload = parsed.value();
  if (!payload.is_object()) {
    error_ =
        "the service sent a stream event that is not a JSON object: " + event_excerpt(event.data);
    return false;
  }
  // The type is named twice, in the `event:` line and in the data; the data's counts, since
  // some compatible servers leave out the event line.
  std::string type = string_field(payload, "type");
  if (type.empty()) type = event.event;
  if (type == "message_start") {
    on_message_start(payload);
  } else if (type == "content_block_start") {
    const json* index = find_field(payload, "index");
    const json* block = find_field(payload, "content_block");
    if (index != nullptr && index->is_number_integer() && block != nullptr) {
      start_block(index->get<long long>(), *block);
    }
  } else if (type == "content_block_delta") {
    on_block_delta(payload);
  } else if (type == "content_block_stop") {
    if (const json* index = find_field(payload, "index");
        index != nullptr && index->is_number_integer()) {
      finish_search_input(index->get<long long>());
    }
  } else if (type == "message_delta") {
    on_message_delta(payload);
  } else if (type == "message_stop") {
    stopped_ = true;
    return false;
  } else if (type == "error") {
    on_error(payload);
    return false;
  }
  // Other blocks are whole when they stop receiving deltas; ping keeps the connection alive; the
  // service may add event types at any time.
  return true;
}

void AnthropicStreamAssembler::on_message_start(const json& payload) {
  if (started_) {
    // The attempt so far was abandoned; this message replaces it.
    reply_.restart();
    by_index_.clear();
    searches_.clear();
    stop_reason_.reset();
    usage_ = {};
  }
  started_ = true;
  const json& message = object_field(payload, "message");
  if (const json* usage = find_field(message, "usage")) read_usage(*usage);
  // Normally empty; a gateway may put whole blocks here, which later indexes continue.
  if (const json* content = find_field(message, "content"); content && content->is_array()) {
    for (std::size_t index = 0; index < content->size(); ++index) {
      start_block(static_cast<long long>(index), (*content)[index]);
    }
  }
}

void AnthropicStreamAssembler::start_block(long long index, const json& block) {
  const std::string type = string_field(block, "type");
  OpenBlock open;
  if (type == "text") {
    const bool glued = reply_.size() > 0 &&
                       std::holds_alternative<core::TextBlock>(reply_.block(reply_.size() - 1));
    open.position = reply_.start_text(glued);
    reply_.append_text(open.position, string_field(block, "text"));
    if (const json* citations = find_field(block, "citations");
        citations != nullptr && citations->is_array()) {
      for (const json& citation : *citations) add_citation(open.position, citation);
    }
  } else if (type == "thinking") {
    open.kind = Kind::kThinking;
    open.position = reply_.start_thinking(string_field(block, "signature"));
    reply_.append_thinking(open.position, string_field(block, "thinking"));
  } else if (type == "redacted_thinking") {
    // The reasoning is encrypted: nothing to show, but `data` must go back with the history.
    open.kind = Kind::kThinking;
    open.position = reply_.start_thinking(string_field(block, "data"), true);
  } else if (type == "tool_use") {
    // The service starts with "input": {} and streams the input; a server that does not
    // stream it sends it whole here.
    std::string arguments;
    if (const json* input = find_field(block, "input");
        input != nullptr && input->is_object() && !input->empty()) {
      arguments = util::json_text(*input);
      open.input_from_start = true;
    }
    open.kind = Kind::kCall;
    open.position =
        reply_.start_call(string_field(block, "id"), string_field(block, "name"), arguments);
  } else if (type == "server_tool_use" &&
             string_field(block, "name") == kAnthropicWebSearchToolName) {
    start_search(open, block);
  } else {
    if (type == "web_search_tool_result") on_search_result(block);
    return;  // a whole block, other server tools' blocks and types nib does not know
  }
  by_index_[index] = open;
}

void AnthropicStreamAssembler::start_search(OpenBlock& open, const json& block) {
  Search search;
  const std::string id = string_field(block, "id");
  // Kept as the service sent it; only its input, streamed like a tool call's (a server that
  // does not stream it sends it whole here), is filled in when it is whole.
  search.use = block;
  if (const json* input = find_field(block, "input"); input == nullptr || !input->is_object()) {
    search.use["input"] = json::object();
  }
  search.position = reply_.start_web_search(core::WebSearchBlock{.id = id});
  open.kind = Kind::kSearch;
  open.search_id = id;
  settle_search(searches_[id] = std::move(search));
}

void AnthropicStreamAssembler::finish_search_input(long long index) {
  const auto open = by_index_.find(index);
  if (open == by_index_.end() || open->second.kind != Kind::kSearch) return;
  Search& search = searches_[open->second.search_id];
  if (search.input.empty()) return;
  json input = util::parse_untrusted_json(search.input);
  if (input.is_object()) search.use["input"] = std::move(input);
  search.input.clear();
  settle_search(search);
}

void AnthropicStreamAssembler::on_search_result(const json& block) {
  const std::string id = string_field(block, "tool_use_id");
  auto found = searches_.find(id);
  if (found == searches_.end()) {
    // A result whose search was not announced (a gateway that dropped it): shown, never sent
    // back, since the service requires the pair.
    Search lone;
    lone.position = reply_.start_web_search(core::WebSearchBlock{.id = id});
    found = searches_.emplace(id, std::move(lone)).first;
  }
  found->second.result = block;
  settle_search(found->second);
}

// The search's block from what arrived so far: the query from the input, the results (or the
// error code) from the result block, and the blocks to send back once both are there.
void AnthropicStreamAssembler::settle_search(const Search& search) {
  core::WebSearchBlock block;
  block.id = string_field(search.use, "id");
  if (block.id.empty()) block.id = string_field(search.result, "tool_use_id");
  block.query = string_field(object_field(search.use, "input"), "query");
  if (const json* content = find_field(search.result, "content")) {
    if (content->is_array()) {
      for (const json& item : *content) {
        if (string_field(item, "type") != "web_search_result") continue;
        block.results.push_back({string_field(item, "title"), string_field(item, "url")});
      }
    } else {
      block.error = string_field(*content, "error_code");
      if (block.error.empty()) block.error = "unknown_error";
    }
  }
  if (!search.use.is_null() && !search.result.is_null()) {
    block.replay = util::json_text(json::array({search.use, search.result}));
  }
  reply_.set_web_search(search.position, std::move(block));
}

void AnthropicStreamAssembler::add_citation(std::size_t position, const json& citation) {
  const std::string url = string_field(citation, "url");
  if (url.empty()) return;  // a citation of a document nib never sends
  reply_.add_citation(position, {url, string_field(citation, "title"), util::json_text(citation)});
}

void AnthropicStreamAssembler::on_block_delta(const json& payload) {
  const json* index = find_field(payload, "index");
  const json* delta = find_field(payload, "delta");
  if (index == nullptr || !index->is_number_integer() || delta == nullptr) return;
  const auto found = by_index_.find(index->get<long long>());
  if (found == by_index_.end()) return;
  OpenBlock& open = found->second;
  const std::string type = string_field(*delta, "type");
  if (open.kind == Kind::kSearch) {
    Search& search = searches_[open.search_id];
    const std::string fragment = string_field(*delta, "partial_json");
    if (type != "input_json_delta" || fragment.empty()) return;
    if (search.input.size() + fragment.size() > kMaxSearchInputBytes) {
      error_ = "the service streamed a web search query longer than " +
               std::to_string(kMaxSearchInputBytes) + " bytes, so nib stopped reading the reply";
      return;
    }
    search.input += fragment;
    return;
  }
  if (open.kind == Kind::kCall) {
    const std::string fragment = string_field(*delta, "partial_json");
    if (type != "input_json_delta" || fragment.empty()) return;
    if (open.input_from_start) {
      // Streamed fragments carry the whole input; what the start block held was a preview.
      reply_.replace_arguments(open.position, "");
      open.input_from_start = false;
    }
    reply_.append_arguments(open.position, fragment);
    return;
  }
  const core::AssistantBlock& block = reply_.block(open.position);
  if (type == "text_delta" && std::holds_alternative<core::TextBlock>(block)) {
    reply_.append_text(open.position, string_field(*delta, "text"));
  } else if (type == "thinking_delta" && std::holds_alternative<core::ThinkingBlock>(block)) {
    reply_.append_thinking(open.position, string_field(*delta, "thinking"));
  } else if (type == "signature_delta" && std::holds_alternative<core::ThinkingBlock>(block)) {
    reply_.append_signature(open.position, string_field(*delta, "signature"));
  } else if (type == "citations_delta" && std::holds_alternative<core::TextBlock>(block)) {
    add_citation(open.position, object_field(*delta, "citation"));
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
  if (text.empty()) text = clip_detail(util::json_text(payload));
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

core::AssistantMessage AnthropicStreamAssembler::take_message() {
  core::AssistantMessage message;
  const bool has_calls = reply_.call_count() > 0;
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
    // end_turn, stop_sequence and tool_use; the calls decide, as for pause_turn (a long
    // server-tool turn the service paused; nib ends it where it stands, with what it holds).
    message.stop_reason = has_calls ? core::StopReason::kToolUse : core::StopReason::kEndTurn;
  }
  message.blocks = reply_.take_blocks();
  message.usage = usage_;
  by_index_.clear();
  searches_.clear();
  return message;
}

}  // namespace nib::provider
