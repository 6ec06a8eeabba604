#pragma once
// Assembles an OpenAI Chat Completions event stream (the `data:` payloads of its SSE events)
// into one AssistantMessage, passing deltas on as they arrive.
//
// Not thread-safe: one assembler belongs to one stream, fed from one thread.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/provider.hpp"
#include "provider/sse_exchange.hpp"
#include "provider/sse_parser.hpp"

namespace nib::provider {

class ChatStreamAssembler : public StreamAssembler {
 public:
  // `on_delta` (may be empty) receives TextDeltaEvent, ThinkingDeltaEvent and
  // ToolCallDeltaEvent as the stream is consumed.
  explicit ChatStreamAssembler(core::DeltaSink on_delta);

  // Consumes one event. Returns false when nothing more should be read: after `[DONE]`, or
  // when the stream reported an error or sent something that is not JSON (see error()).
  bool consume(const SseEvent& event) override;

  // True once the reply is known to be whole: a finish_reason or `[DONE]` arrived.
  bool complete() const override { return done_ || finish_reason_.has_value(); }
  // A description of a failure reported by or found in the stream; empty when none.
  const std::string& error() const override { return error_; }
  core::ErrorKind error_kind() const override { return error_kind_; }
  // True once any event was consumed.
  bool saw_events() const override { return saw_events_; }

  // The message assembled so far. When complete() and error() is empty, stop_reason follows
  // the finish_reason; otherwise the caller sets it. A tool call whose arguments stayed empty
  // gets "{}" (many servers omit the arguments of a call without parameters), and one without
  // an id gets "call_<position>" so that its result can refer to it.
  core::AssistantMessage take_message() override;

 private:
  void on_chunk(const nlohmann::json& chunk);
  void on_delta_fields(const nlohmann::json& delta);
  void add_text(const std::string& text);
  void add_thinking(const std::string& text);
  void add_tool_call_fragment(const nlohmann::json& fragment);
  std::size_t call_position(int index, const std::string& id);
  void emit(const core::Event& event);

  core::DeltaSink on_delta_;
  std::vector<core::AssistantBlock> blocks_;
  std::vector<std::size_t> call_blocks_;      // block position of each tool call, in call order
  std::map<int, std::size_t> call_by_index_;  // the service's `index` -> call position
  std::optional<std::string> finish_reason_;
  core::Usage usage_;
  std::string error_;
  core::ErrorKind error_kind_ = core::ErrorKind::kOther;
  bool done_ = false;
  bool saw_events_ = false;
};

}  // namespace nib::provider
