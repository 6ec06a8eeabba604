#include "support/mock_anthropic_replies.hpp"

#include <algorithm>
#include <utility>

namespace nib::testing {
namespace {

using nlohmann::json;

constexpr const char* kMessageId = "msg_mock";
constexpr const char* kAnthropicReplyModel = "mock-model";

// `text` cut into pieces of about `size` bytes, each end moved forward to a UTF-8 boundary.
std::vector<std::string> pieces(const std::string& text, std::size_t size) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = std::min(text.size(), pos + std::max<std::size_t>(size, 1));
    while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
    out.push_back(text.substr(pos, end - pos));
    pos = end;
  }
  return out;
}

// About `parts` pieces of equal size.
std::vector<std::string> even_pieces(const std::string& text, std::size_t parts) {
  const std::size_t count = std::max<std::size_t>(parts, 1);
  return pieces(text, (text.size() + count - 1) / count);
}

}  // namespace

MockAnthropicStream::MockAnthropicStream(const MockAnthropicUsage& usage) : usage_(usage) {
  reply_.send_done = false;
  event("message_start", {{"message",
                           {{"id", kMessageId},
                            {"type", "message"},
                            {"role", "assistant"},
                            {"content", json::array()},
                            {"model", kAnthropicReplyModel},
                            {"stop_reason", nullptr},
                            {"stop_sequence", nullptr},
                            {"usage",
                             {{"input_tokens", usage.input_tokens},
                              {"cache_creation_input_tokens", usage.cache_creation_input_tokens},
                              {"cache_read_input_tokens", usage.cache_read_input_tokens},
                              {"output_tokens", 1}}}}}});
}

MockAnthropicStream& MockAnthropicStream::event(const std::string& type, json fields) {
  json payload = {{"type", type}};
  if (fields.is_object()) payload.update(fields);
  reply_.chunks.push_back("event: " + type + "\ndata: " + payload.dump() + "\n\n");
  return *this;
}

MockAnthropicStream& MockAnthropicStream::raw(std::string chunk) {
  reply_.chunks.push_back(std::move(chunk));
  return *this;
}

MockAnthropicStream& MockAnthropicStream::ping() {
  return event("ping");
}

void MockAnthropicStream::start_block(const json& block) {
  event("content_block_start", {{"index", next_index_}, {"content_block", block}});
  if (!pinged_) ping();
  pinged_ = true;
}

void MockAnthropicStream::delta(const json& delta) {
  event("content_block_delta", {{"index", next_index_}, {"delta", delta}});
}

void MockAnthropicStream::stop_block() {
  event("content_block_stop", {{"index", next_index_}});
  ++next_index_;
}

MockAnthropicStream& MockAnthropicStream::text(const std::string& text, std::size_t split_into) {
  start_block({{"type", "text"}, {"text", ""}});
  for (const auto& piece : even_pieces(text, split_into)) {
    delta({{"type", "text_delta"}, {"text", piece}});
  }
  stop_block();
  return *this;
}

MockAnthropicStream& MockAnthropicStream::tool_use(const MockToolCall& call,
                                                   std::size_t fragment_size) {
  start_block(
      {{"type", "tool_use"}, {"id", call.id}, {"name", call.name}, {"input", json::object()}});
  delta({{"type", "input_json_delta"}, {"partial_json", ""}});
  for (const auto& piece : pieces(call.arguments, fragment_size)) {
    delta({{"type", "input_json_delta"}, {"partial_json", piece}});
  }
  stop_block();
  return *this;
}

MockAnthropicStream& MockAnthropicStream::thinking(const std::string& thinking,
                                                   const std::string& signature,
                                                   std::size_t split_into) {
  start_block({{"type", "thinking"}, {"thinking", ""}, {"signature", ""}});
  for (const auto& piece : even_pieces(thinking, split_into)) {
    delta({{"type", "thinking_delta"}, {"thinking", piece}});
  }
  delta({{"type", "signature_delta"}, {"signature", signature}});
  stop_block();
  return *this;
}

MockAnthropicStream& MockAnthropicStream::web_search(const std::string& id,
                                                     const std::string& query,
                                                     const std::vector<MockSearchResult>& results) {
  start_block(
      {{"type", "server_tool_use"}, {"id", id}, {"name", "web_search"}, {"input", json::object()}});
  delta({{"type", "input_json_delta"}, {"partial_json", ""}});
  for (const auto& piece : pieces(json{{"query", query}}.dump(), 7)) {
    delta({{"type", "input_json_delta"}, {"partial_json", piece}});
  }
  stop_block();
  json content = json::array();
  for (const MockSearchResult& result : results) {
    content.push_back({{"type", "web_search_result"},
                       {"title", result.title},
                       {"url", result.url},
                       {"encrypted_content", result.encrypted_content},
                       {"page_age", nullptr}});
  }
  start_block({{"type", "web_search_tool_result"}, {"tool_use_id", id}, {"content", content}});
  stop_block();
  return *this;
}

MockAnthropicStream& MockAnthropicStream::cited_text(const std::string& text,
                                                     const MockSearchResult& source) {
  start_block({{"type", "text"}, {"text", ""}});
  delta({{"type", "citations_delta"},
         {"citation",
          {{"type", "web_search_result_location"},
           {"cited_text", text},
           {"url", source.url},
           {"title", source.title},
           {"encrypted_index", "Eo8BCioIAhgBIiQ-mock-index"}}}});
  delta({{"type", "text_delta"}, {"text", text}});
  stop_block();
  return *this;
}

MockAnthropicStream& MockAnthropicStream::redacted_thinking(const std::string& data) {
  start_block({{"type", "redacted_thinking"}, {"data", data}});
  stop_block();
  return *this;
}

MockReply MockAnthropicStream::finished(const std::string& stop_reason) {
  event("message_delta", {{"delta", {{"stop_reason", stop_reason}, {"stop_sequence", nullptr}}},
                          {"usage", {{"output_tokens", usage_.output_tokens}}}});
  event("message_stop");
  return reply_;
}

MockReply MockAnthropicStream::error(const std::string& type, const std::string& message) {
  event("error", {{"error", {{"type", type}, {"message", message}}}});
  return reply_;
}

MockReply MockAnthropicStream::unfinished() {
  return reply_;
}

MockReply anthropic_text(const std::string& text, std::size_t split_into,
                         const std::string& stop_reason, const MockAnthropicUsage& usage) {
  return MockAnthropicStream(usage).text(text, split_into).finished(stop_reason);
}

MockReply anthropic_tool_use(const std::vector<MockToolCall>& calls, std::size_t fragment_size,
                             const std::string& text_before, const MockAnthropicUsage& usage) {
  MockAnthropicStream stream(usage);
  if (!text_before.empty()) stream.text(text_before);
  for (const auto& call : calls) stream.tool_use(call, fragment_size);
  return stream.finished("tool_use");
}

MockReply anthropic_thinking_then_text(const std::string& thinking, const std::string& signature,
                                       const std::string& text, const MockAnthropicUsage& usage) {
  return MockAnthropicStream(usage).thinking(thinking, signature, 2).text(text).finished();
}

MockReply anthropic_error(const std::string& type, const std::string& message,
                          const std::string& partial_text) {
  MockAnthropicStream stream;
  if (!partial_text.empty()) stream.text(partial_text);
  return stream.error(type, message);
}

}  // namespace nib::testing
