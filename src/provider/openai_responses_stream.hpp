#pragma once
// Assembles an OpenAI Responses API event stream (semantic events such as
// response.output_item.added, response.output_text.delta, response.completed) into one
// AssistantMessage, passing deltas on as they arrive.
//
// Output items map onto blocks: a `message` item -> one TextBlock (refusals included: a refusal
// is the model's answer in prose), a `function_call` item -> one ToolCall (id = call_id), a
// `custom_tool_call` item (a custom tool's free text, ToolSpec::grammar) -> one ToolCall with
// freeform set and arguments {"input": text}, its response.custom_tool_call_input deltas passed
// on as the pieces of that JSON text (so that they still add up to the arguments); a
// `reasoning` item -> one ThinkingBlock whose text is the reasoning summary (parts separated
// by a blank line) and whose signature is encode_reasoning_signature() of the finished item.
// A `web_search_call` item (the hosted web search) -> one core::WebSearchBlock: its query from
// the finished item's action, its results from action.sources, its replay
// encode_web_search_replay() of the finished item; the web_search_call progress events add
// nothing. A finished message's url_citation annotations become its text block's citations.
// Other item kinds (hosted tools nib does not request) are ignored. A finished item
// (response.output_item.done) is authoritative: its text and arguments win over the deltas.
// Two message items (commentary, then the answer) stay two text blocks, set apart in the
// deltas and in core::assistant_text by core::kTextBlockSeparator. Items that only the final
// response.completed lists (a server that streams nothing else) count as finished items.
//
// Not thread-safe: one assembler belongs to one stream, fed from one thread.

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/provider.hpp"
#include "net/sse_parser.hpp"
#include "provider/reply_builder.hpp"
#include "provider/sse_exchange.hpp"

namespace nib::provider {

class ResponsesStreamAssembler : public StreamAssembler {
 public:
  // `on_delta` (may be empty) receives TextDeltaEvent, ThinkingDeltaEvent and
  // ToolCallDeltaEvent (index = position among the reply's tool calls) as the stream is
  // consumed; unless a finished item contradicted them, the text deltas add up to
  // core::assistant_text of the message and the other deltas to their blocks.
  using StreamAssembler::StreamAssembler;

  // True once response.completed or response.incomplete arrived. A reply left incomplete for
  // another reason than the output limit (e.g. content_filter) is a failure (error()).
  bool complete() const override { return complete_; }

  // The message assembled so far: kMaxTokens when the reply was cut at max_output_tokens,
  // otherwise kToolUse when it holds tool calls, else kEndTurn. Usage: input_tokens without
  // the cached ones (cache_read_tokens), output_tokens. A tool call whose arguments stayed
  // empty gets "{}", one without a call_id gets "call_<position>"; blocks that received
  // nothing (an empty message, a reasoning item cut before its end) are left out.
  core::AssistantMessage take_message() override;

 private:
  // One output item of the reply and the block its content goes to.
  struct Item {
    std::string type;            // "message", "function_call", "custom_tool_call", "reasoning" or
                                 // "web_search_call"
    std::size_t block = 0;       // position in reply_ (for a call, its call position)
    std::string reasoning_part;  // the reasoning part the latest delta belonged to
    bool settled = false;        // a custom_tool_call's final text arrived
  };

  // Nothing more is read after response.completed or response.incomplete, or once the stream
  // reported a failure (`error`, response.failed) or sent something that is not JSON.
  bool read_event(const net::SseEvent& event) override;
  void on_event(const std::string& type, const nlohmann::json& payload);
  Item* find_item(const nlohmann::json& payload);
  Item& item_for(const nlohmann::json& payload, const std::string& type);
  Item& add_item(const std::string& type, const nlohmann::json& payload);
  // A custom_tool_call's text grew by `delta` / is `final` (the final text winning).
  void add_input(const Item& item, const std::string& delta);
  void settle_input(Item& item, const std::string& final);
  void on_item_added(const nlohmann::json& payload);
  void on_item_done(const nlohmann::json& payload);
  void settle_web_search(const Item& item, const nlohmann::json& done);
  void add_citations(std::size_t block, const nlohmann::json& done);
  void add_reasoning(Item& item, const std::string& part, const std::string& text);
  void on_response_end(const std::string& type, const nlohmann::json& payload);
  void add_unstreamed_items(const nlohmann::json& response);
  void fail(const std::string& prefix, const nlohmann::json& error);

  std::vector<Item> items_;
  std::map<long long, std::size_t> item_by_index_;  // the service's output_index -> items_
  std::map<std::string, std::size_t> item_by_id_;   // the service's item id -> items_
  core::Usage usage_;
  bool cut_at_limit_ = false;
  bool complete_ = false;
};

}  // namespace nib::provider
