#pragma once
// Assembles an OpenAI Chat Completions event stream (the `data:` payloads of its SSE events)
// into one AssistantMessage, passing deltas on as they arrive.
//
// Only choice 0 is assembled: a server that streams several choices (n > 1, whatever nib
// asked) interleaves chunks of each, and the others are ignored. `delta.content` is a string,
// or a list of parts (Mistral's reasoning models): "text" parts are the answer, "thinking"
// parts (their text parts inside `thinking`) the thinking; other part types are skipped.
//
// Not thread-safe: one assembler belongs to one stream, fed from one thread.

#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/provider.hpp"
#include "net/sse_parser.hpp"
#include "provider/reply_builder.hpp"
#include "provider/sse_exchange.hpp"

namespace nib::provider {

class ChatStreamAssembler : public StreamAssembler {
 public:
  // `on_delta` (may be empty) receives TextDeltaEvent, ThinkingDeltaEvent and
  // ToolCallDeltaEvent as the stream is consumed.
  using StreamAssembler::StreamAssembler;

  // True once the reply is known to be whole: a finish_reason or `[DONE]` arrived.
  bool complete() const override { return done_ || finish_reason_.has_value(); }

  // The message assembled so far. When complete() and error() is empty, stop_reason follows
  // the finish_reason; otherwise the caller sets it. A tool call whose arguments stayed empty
  // gets "{}" (many servers omit the arguments of a call without parameters), and one without
  // an id gets "call_<position>" so that its result can refer to it.
  core::AssistantMessage take_message() override;

 private:
  // Nothing more is read after `[DONE]`, or once the stream reported an error or sent
  // something that is not JSON. After the finish_reason, an event that is not JSON ends the
  // reply without an error (it is complete; only the usage may be missing).
  bool read_event(const net::SseEvent& event) override;
  void on_chunk(const nlohmann::json& chunk);
  void on_delta_fields(const nlohmann::json& delta);
  void add_content(const nlohmann::json& content);
  void add_text(const std::string& text);
  void add_thinking(const std::string& text);
  void add_tool_call_fragment(const nlohmann::json& fragment);
  std::optional<std::size_t> known_call(int index, const std::string& id) const;

  std::map<int, std::size_t> call_by_index_;  // the service's `index` -> call position
  std::optional<std::string> finish_reason_;
  core::Usage usage_;
  bool done_ = false;
};

}  // namespace nib::provider
