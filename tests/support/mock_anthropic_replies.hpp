#pragma once
// Builders of Anthropic Messages event streams for MockModelServer, written as the service
// writes them: every event is "event: <type>\ndata: <json>\n\n" with the same `type` in its
// data; a stream opens with message_start (the prompt's usage), each content block goes
// content_block_start -> content_block_delta... -> content_block_stop (a ping follows the first
// block's start), and message_delta (stop_reason, cumulative output usage) plus message_stop
// end it, or an `error` event does. There is no "data: [DONE]" (MockReply::send_done is false).
//
// Plain values; not thread-safe (build the reply, then enqueue it).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/mock_model_server.hpp"

namespace nib::testing {

// Token counts as Anthropic reports them: input_tokens excludes cache reads and writes.
struct MockAnthropicUsage {
  std::int64_t input_tokens = 12;
  std::int64_t output_tokens = 7;
  std::int64_t cache_read_input_tokens = 0;
  std::int64_t cache_creation_input_tokens = 0;
};

// A page of a mock web search, as a web_search_result item carries it.
struct MockSearchResult {
  std::string title;
  std::string url;
  std::string encrypted_content = "EqgfCioIARgBIiQ3-mock";
};

// Writes one Messages stream event by event; the finishing calls return the reply.
class MockAnthropicStream {
 public:
  // Starts the stream with message_start carrying `usage`'s prompt counts (output_tokens 1,
  // as the service reports at the start).
  explicit MockAnthropicStream(const MockAnthropicUsage& usage = {});

  // A text block whose text arrives in `split_into` text_delta events of about equal size
  // (cut on UTF-8 boundaries).
  MockAnthropicStream& text(const std::string& text, std::size_t split_into = 1);
  // A tool_use block (input {} at the start, as the service sends it) whose input arrives in
  // input_json_delta events: an empty one first, then fragments of `fragment_size` bytes (moved
  // to the next UTF-8 boundary).
  MockAnthropicStream& tool_use(const MockToolCall& call, std::size_t fragment_size = 7);
  // A thinking block: the text in `split_into` thinking_delta events, then one signature_delta.
  MockAnthropicStream& thinking(const std::string& thinking, const std::string& signature,
                                std::size_t split_into = 1);
  // A hosted web search as the web search tool documentation streams it: a server_tool_use
  // block {id, name: web_search, input: {}} whose input ({"query": ...}) arrives in
  // input_json_delta events, then a web_search_tool_result block {tool_use_id, content: [
  // {type: web_search_result, title, url, encrypted_content, page_age}]} whole in its
  // content_block_start.
  MockAnthropicStream& web_search(const std::string& id, const std::string& query,
                                  const std::vector<MockSearchResult>& results);
  // A text block citing `source`: a citations_delta with a web_search_result_location {url,
  // title, encrypted_index, cited_text}, then the text in one text_delta (the order the
  // streaming documentation shows).
  MockAnthropicStream& cited_text(const std::string& text, const MockSearchResult& source);
  // A redacted_thinking block carrying `data`.
  MockAnthropicStream& redacted_thinking(const std::string& data);
  MockAnthropicStream& ping();
  // Any event: `fields` plus `type`.
  MockAnthropicStream& event(const std::string& type,
                             nlohmann::json fields = nlohmann::json::object());
  // A raw chunk as is (a comment line, a malformed event ...).
  MockAnthropicStream& raw(std::string chunk);

  // How many chunks were written so far (for hold_after_chunks / disconnect_after).
  std::size_t chunk_count() const { return reply_.chunks.size(); }

  // Ends with message_delta {stop_reason, usage.output_tokens} and message_stop.
  MockReply finished(const std::string& stop_reason = "end_turn");
  // Ends with an error event {"type":"error","error":{"type":..., "message":...}}.
  MockReply error(const std::string& type, const std::string& message);
  // Ends without message_delta or message_stop (the server just closes the stream).
  MockReply unfinished();

 private:
  void start_block(const nlohmann::json& block);
  void delta(const nlohmann::json& delta);
  void stop_block();

  MockReply reply_;
  MockAnthropicUsage usage_;
  int next_index_ = 0;  // the index of the next content block
  bool pinged_ = false;
};

// Convenience builders for the common replies.
// A text answer in `split_into` deltas, ended with `stop_reason`.
MockReply anthropic_text(const std::string& text, std::size_t split_into = 1,
                         const std::string& stop_reason = "end_turn",
                         const MockAnthropicUsage& usage = {});
// `text_before` (when not empty), then one tool_use block per call with its input in
// `fragment_size`-byte fragments, ended with stop_reason tool_use.
MockReply anthropic_tool_use(const std::vector<MockToolCall>& calls, std::size_t fragment_size = 7,
                             const std::string& text_before = "",
                             const MockAnthropicUsage& usage = {});
// A thinking block with its signature, then a text answer, ended with end_turn.
MockReply anthropic_thinking_then_text(const std::string& thinking, const std::string& signature,
                                       const std::string& text,
                                       const MockAnthropicUsage& usage = {});
// `partial_text` (when not empty), then an error event {type, message}.
MockReply anthropic_error(const std::string& type, const std::string& message,
                          const std::string& partial_text = "");

}  // namespace nib::testing
