#pragma once
// The content of one reply while a protocol's assembler builds it. Shared by every assembler so
// that all protocols show the user the same thing: it holds the blocks, passes each addition on
// to the delta sink as it is made, puts core::kTextBlockSeparator into the text deltas between
// two text blocks (so that the text deltas add up to core::assistant_text of the message), and
// holds no more than kMaxReplyBytes.
//
// Not thread-safe: one builder belongs to one assembler, fed from one thread.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/provider.hpp"

namespace nib::provider {

// The most text, thinking, signatures and tool-call arguments one reply may hold, counted as
// they will be written out (JSON-escaped) and with each block's own cost. The longest replies
// models write (128k output tokens: about half a MiB of text, a few MiB with thinking) stay far
// below it; a stream that goes past it is broken or hostile (an endless run of text or
// argument deltas, or of new blocks), and holding more would only exhaust memory.
inline constexpr std::size_t kMaxReplyBytes = 32 * 1024 * 1024;
// What one block costs beyond its content (the block, its place in the reply).
inline constexpr std::size_t kBlockCostBytes = 256;
// What a reply that went past the limit keeps of each text and thinking block when it is
// taken: enough to show the user what arrived; the rest is freed before anything copies the
// reply (the session, the front ends, the next request).
inline constexpr std::size_t kKeptPastLimitBytes = 64 * 1024;

class ReplyBuilder {
 public:
  explicit ReplyBuilder(core::DeltaSink on_delta, std::size_t max_bytes = kMaxReplyBytes);

  // New blocks at the end of the reply; each returns the new block's position. A glued text
  // block continues the text before it: no separator goes into its deltas.
  std::size_t start_text(bool glued = false);
  std::size_t start_thinking(std::string_view signature = {}, bool redacted = false);
  // A tool call. Its first delta (the call's position, id, name and `arguments`) is passed on
  // at once. Returns the call's position among the reply's calls. A freeform call (a Responses
  // custom tool call) holds its raw input as the JSON text `{"input": …}` and is marked so
  // that it is replayed and answered as the custom call it was.
  std::size_t start_call(std::string_view id, std::string_view name, std::string_view arguments,
                         bool freeform = false);

  // Additions, each passed on as a delta; empty ones are ignored. A text block's first text is
  // preceded in its delta by kTextBlockSeparator when an earlier text block has text.
  void append_text(std::size_t block, std::string_view text);
  void append_thinking(std::size_t block, std::string_view text);
  void append_arguments(std::size_t call, std::string_view fragment);
  // A thinking block's signature is held but never shown.
  void append_signature(std::size_t block, std::string_view signature);
  void set_signature(std::size_t block, std::string_view signature);
  // Gives a call the id and name it lacks (each only when empty), passing on a delta with the
  // call's id and name (and no fragment) when it filled either in: a call announced without
  // them (a Responses argument delta before its item) is named that way.
  void name_call(std::size_t call, std::string_view id, std::string_view name);
  // A hosted web search (nothing is passed on: sinks see it with the finished message), and
  // its later, fuller state replacing what it held.
  std::size_t start_web_search(core::WebSearchBlock search);
  void set_web_search(std::size_t block, core::WebSearchBlock search);
  // A source the service cited for a text block's text; nothing is passed on.
  void add_citation(std::size_t block, core::Citation citation);
  // Replaces a call's arguments; nothing is passed on.
  void replace_arguments(std::size_t call, std::string_view arguments);

  // Settle a block with the service's final text for it (a Responses *.done event). A final
  // text that continues what arrived passes the missing tail on; one that differs replaces the
  // block's text (the deltas cannot take back what was shown: the final message is the truth);
  // an empty or equal one changes nothing.
  void settle_text(std::size_t block, std::string_view final_text);
  void settle_arguments(std::size_t call, std::string_view final_arguments);

  std::size_t size() const { return blocks_.size(); }
  const core::AssistantBlock& block(std::size_t position) const { return blocks_[position]; }
  std::size_t call_count() const { return call_blocks_.size(); }
  const core::ToolCall& call(std::size_t position) const;

  // True once an addition would have taken the reply past the limit; that addition and every
  // later one were dropped, so the assembler should stop with limit_error().
  bool over_limit() const { return over_limit_; }
  std::string limit_error() const;

  // Drops everything: the service started its reply over. Passes a core::ReplyRestartEvent on
  // when a delta had been passed on already, so that sinks discard what they showed.
  void restart();

  // The blocks (web searches always kept), without those that received nothing (a text block
  // without text, a thinking block with neither text nor signature); past the limit each text
  // and thinking block cut to kKeptPastLimitBytes, signatures and tool-call arguments dropped
  // (such calls never run); tool calls made usable: empty arguments become "{}" (services
  // stream none for a tool without parameters), a missing id "call_<position among the
  // calls>" so that its result can refer to it. The builder is empty afterwards.
  std::vector<core::AssistantBlock> take_blocks();

 private:
  // Counts `added` more bytes held and `released` fewer; false (and over the limit from then
  // on) when that would pass the limit.
  bool hold(std::size_t added, std::size_t released = 0);
  core::ToolCall& call_at(std::size_t position);
  void emit(const core::Event& event);

  core::DeltaSink on_delta_;
  std::size_t max_bytes_;
  std::vector<core::AssistantBlock> blocks_;
  std::vector<std::size_t> call_blocks_;  // block position of each tool call, in call order
  std::size_t held_bytes_ = 0;
  bool over_limit_ = false;
  bool text_shown_ = false;  // some text block has text (the next one starts with a separator)
  bool passed_on_ = false;   // some delta was passed on
};

}  // namespace nib::provider
