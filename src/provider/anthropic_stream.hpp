#pragma once
// Assembles an Anthropic Messages event stream (message_start, content_block_start / _delta /
// _stop, message_delta, message_stop, ping, error) into one AssistantMessage, passing deltas
// on as they arrive.
//
// Content blocks that message_start carries in message.content count as the first blocks
// (index 0, 1, ...), as the service's SDKs read them. A second message_start in one stream
// (a gateway that spliced a retried attempt in after a failed one) starts the message afresh:
// the abandoned attempt's blocks, cut-off tool arguments and usage are dropped, and sinks that
// were shown its deltas receive a core::ReplyRestartEvent (see ReplyBuilder::restart) before
// the new attempt's deltas; the final message holds the new attempt only.
//
// The hosted web search (the web_search server tool, when the request offered it) becomes a
// core::WebSearchBlock: a server_tool_use block (its input streamed as input_json_delta, like a
// tool call's) opens it, the web_search_tool_result block with its tool_use_id completes it
// (its `content` a list of web_search_result items, or an error object), and its `replay`
// holds both blocks as the service sent them. Text blocks keep their citations (from
// citations_delta, or whole in content_block_start), and a text block that directly follows
// another continues it (core::TextBlock::glued): the service splits a cited sentence into
// blocks.
//
// Not thread-safe: one assembler belongs to one stream, fed from one thread.

#include <cstddef>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/provider.hpp"
#include "net/sse_parser.hpp"
#include "provider/reply_builder.hpp"
#include "provider/sse_exchange.hpp"

namespace nib::provider {

// The most input text one hosted web search may stream (its query): far above any real query,
// and a bound for a stream that never ends one.
inline constexpr std::size_t kMaxSearchInputBytes = 64 * 1024;

class AnthropicStreamAssembler : public StreamAssembler {
 public:
  // `on_delta` (may be empty) receives TextDeltaEvent, ThinkingDeltaEvent, ToolCallDeltaEvent
  // and ReplyRestartEvent as the stream is consumed.
  using StreamAssembler::StreamAssembler;

  // True once the reply is known to be whole: message_stop, or a message_delta with its
  // stop_reason (every block has ended by then).
  bool complete() const override { return stopped_ || stop_reason_.has_value(); }

  // The message assembled so far. When complete() and error() is empty, stop_reason follows
  // the service's stop_reason (a refusal is kError, see the .cpp); otherwise the caller sets
  // it. A tool call whose input stayed empty gets "{}".
  core::AssistantMessage take_message() override;

 private:
  // Where a content block of the reply went; by_index_ maps the service's `index` to it.
  enum class Kind { kText, kThinking, kCall, kSearch };
  struct OpenBlock {
    std::size_t position = 0;  // in reply_ (for a tool_use block, its call position)
    Kind kind = Kind::kText;
    std::string search_id;  // a kSearch block's server_tool_use id
    // The call's input came whole with content_block_start (servers that do not stream it);
    // streamed fragments, if any follow, replace it.
    bool input_from_start = false;
  };
  // A hosted web search while its blocks arrive: the server_tool_use block as the service sent
  // it (its `input` set once the streamed input is whole) and the input text streamed so far.
  struct Search {
    std::size_t position = 0;  // in reply_
    nlohmann::json use;
    std::string input;
    nlohmann::json result;  // the web_search_tool_result block, once it arrived
  };

  // Nothing more is read after message_stop, or once the stream reported an error or sent
  // something that is not a JSON object. Pings and unknown event, block and delta types are
  // ignored. After message_delta's stop_reason, an event that is not JSON ends the reply
  // without an error (it is complete).
  bool read_event(const net::SseEvent& event) override;
  void on_message_start(const nlohmann::json& payload);
  void start_block(long long index, const nlohmann::json& block);
  void start_search(OpenBlock& open, const nlohmann::json& block);
  void finish_search_input(long long index);
  void on_search_result(const nlohmann::json& block);
  void settle_search(const Search& search);
  void add_citation(std::size_t position, const nlohmann::json& citation);
  void on_block_delta(const nlohmann::json& payload);
  void on_message_delta(const nlohmann::json& payload);
  void on_error(const nlohmann::json& payload);
  void read_usage(const nlohmann::json& usage);

  std::map<long long, OpenBlock> by_index_;
  std::map<std::string, Search> searches_;  // by the server_tool_use id
  std::optional<std::string> stop_reason_;
  core::Usage usage_;
  bool started_ = false;  // a message_start arrived
  bool stopped_ = false;
};

}  // namespace nib::provider
