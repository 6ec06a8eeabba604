#pragma once
// Builders of OpenAI Responses API event streams for MockModelServer, written as the service
// writes them: every event is "event: <type>\ndata: <json>\n\n", its data carrying `type` and
// a `sequence_number` counting from 0; a stream opens with response.created and
// response.in_progress, each output item goes output_item.added -> (content or summary part
// added) -> deltas -> *.done events -> output_item.done, and a terminal event
// (response.completed / response.incomplete / response.failed) or an `error` event ends it.
// There is no "data: [DONE]" (MockReply::send_done is false).
//
// Plain values; not thread-safe (build the reply, then enqueue it).

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/mock_model_server.hpp"

namespace nib::testing {

// A reasoning output item: its summary parts (each streamed in deltas) and its encrypted
// content (only in output_item.done, as the service sends it).
struct MockReasoning {
  std::string id = "rs_mock";
  std::vector<std::string> summary;
  std::string encrypted_content = "gAAAAB-mock-encrypted";
};

// Writes one Responses stream event by event; the finishing calls return the reply.
class MockResponsesStream {
 public:
  // Starts the stream with response.created and response.in_progress.
  MockResponsesStream();

  // A `message` item whose text arrives in `split_into` output_text deltas of about equal
  // size (cut on UTF-8 boundaries; fewer when the text is shorter). Each of `annotations`
  // (url_citation objects) is announced by response.output_text.annotation.added after the
  // deltas and listed in the finished part, as the service does for a web search's citations.
  MockResponsesStream& text(const std::string& text, std::size_t split_into = 1,
                            const nlohmann::json& annotations = nlohmann::json::array());
  // A `web_search_call` item as the hosted web search tool streams it (API reference,
  // "Streaming events"): output_item.added (status in_progress), the
  // response.web_search_call.in_progress / .searching / .completed events, then
  // output_item.done with action {type: search, query, sources: [{type: url, url}]} (the
  // sources as include: ["web_search_call.action.sources"] returns them).
  MockResponsesStream& web_search(const std::string& id, const std::string& query,
                                  const std::vector<std::string>& source_urls);
  // A `function_call` item (call_id = call.id) whose arguments arrive in deltas of
  // `fragment_size` bytes (moved to the next UTF-8 boundary), then arguments.done.
  MockResponsesStream& function_call(const MockToolCall& call, std::size_t fragment_size = 7);
  // A `custom_tool_call` item (a freeform tool's call, call_id = `call_id`) as the service
  // streams it: output_item.added (status in_progress, input ""), its raw `input` in
  // response.custom_tool_call_input.delta events of `fragment_size` bytes (moved to the next
  // UTF-8 boundary), response.custom_tool_call_input.done with the whole input, then
  // output_item.done (status completed).
  MockResponsesStream& custom_tool_call(const std::string& call_id, const std::string& name,
                                        const std::string& input, std::size_t fragment_size = 7);
  // A `reasoning` item: each summary part in `split_into` deltas; encrypted_content in the
  // finished item.
  MockResponsesStream& reasoning(const MockReasoning& reasoning, std::size_t split_into = 1);
  // Any event: `fields` plus `type` and the next sequence_number.
  MockResponsesStream& event(const std::string& type, nlohmann::json fields = {});
  // A raw chunk as is (a comment line, a malformed event ...); takes no sequence number.
  MockResponsesStream& raw(std::string chunk);

  // How many chunks were written so far (for hold_after_chunks / disconnect_after).
  std::size_t chunk_count() const { return reply_.chunks.size(); }

  // Ends with response.completed carrying the finished items and `usage` (prompt_tokens as
  // input_tokens with cached_tokens among them, completion_tokens as output_tokens).
  MockReply completed(const MockUsage& usage = {});
  // Ends with response.incomplete, incomplete_details.reason = `reason`.
  MockReply incomplete(const std::string& reason = "max_output_tokens",
                       const MockUsage& usage = {});
  // Ends with response.failed, response.error = {code, message}.
  MockReply failed(const std::string& code, const std::string& message);
  // Ends with an `error` event {code, message, param: null}.
  MockReply error(const std::string& code, const std::string& message);
  // Ends without a terminal event (the server just closes the stream).
  MockReply unfinished();

 private:
  nlohmann::json response(const std::string& status) const;

  MockReply reply_;
  int sequence_ = 0;
  nlohmann::json output_ = nlohmann::json::array();  // the finished items, in output order
};

// Convenience builders for the common replies.
// A text answer in `split_into` deltas, completed.
MockReply responses_text(const std::string& text, std::size_t split_into = 1,
                         const MockUsage& usage = {});
// One function_call item per call, in order, arguments in `fragment_size`-byte deltas,
// completed.
MockReply responses_function_calls(const std::vector<MockToolCall>& calls,
                                   std::size_t fragment_size = 7, const MockUsage& usage = {});
// A reasoning item followed by a text answer, completed.
MockReply responses_reasoning_then_text(const MockReasoning& reasoning, const std::string& text,
                                        const MockUsage& usage = {});
// `partial_text`, then response.incomplete with `reason`.
MockReply responses_incomplete(const std::string& partial_text,
                               const std::string& reason = "max_output_tokens");
// response.failed with {code, message} right after the stream opened.
MockReply responses_failed(const std::string& code, const std::string& message);
// An `error` event right after the stream opened.
MockReply responses_error(const std::string& code, const std::string& message);

}  // namespace nib::testing
