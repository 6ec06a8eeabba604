#pragma once
// The conversation as the interactive screen shows it: prompts, replies, thinking, one row per
// tool call, notices. Fed by the run's events (in their order) and by the UI itself. Finished
// items at the front are handed out once, to be committed to the terminal's scrollback; the
// rest is the live part, drawn again on each update. Not thread-safe: the UI thread owns it.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/events.hpp"
#include "ui/tool_summary.hpp"
#include "ui/transcript_items.hpp"

namespace nib::ui {

class Transcript {
 public:
  // Tool calls are presented as `presenter` says (by the run's tools, or by default).
  explicit Transcript(ToolPresenter presenter = ToolPresenter()) : presenter_(presenter) {}

  void add_user(std::string text);
  void add_notice(std::string text, NoticeKind kind);
  void on_event(const core::Event& event, UiClock::time_point now);
  // Shows a stored conversation (a resumed session), every item finished.
  void add_history(const std::vector<core::Message>& messages);

  // Rows not yet committed that will not change any more: the finished items at the front,
  // and, while the live part is taller than `live_budget` rows, the top of a long reply that
  // is still streaming (so the live region never outgrows the screen).
  StyledLines take_committable(std::size_t width, std::size_t live_budget, UiClock::time_point now);
  // The rows of everything not yet committed.
  StyledLines live_rows(std::size_t width, UiClock::time_point now) const;
  // Forgets what was committed, so that take_committable hands out everything again (after
  // the screen was cleared for a new width).
  void recommit_all();
  // True while something on the live part moves by itself (a spinner, an elapsed time).
  bool animating() const;
  void clear();

 private:
  // A notice per hosted web search and cited source of the reply (ui/web_search_summary).
  void add_web_searches(const core::AssistantMessage& message);
  ToolPresenter presenter_;
  // The rows of item `index`, with the blank row that separates it from the one before.
  StyledLines rows_of(std::size_t index, std::size_t width, UiClock::time_point now) const;
  // The row of call `id` of the reply being received (since message_start_), or nullptr.
  ToolItem* tool(const std::string& id);
  template <typename Item>
  Item* streaming_last();
  void finish_streaming();
  void on_message_end(const core::AssistantMessage& message);
  // The service started the reply over (core::ReplyRestartEvent).
  void on_reply_restart();
  void on_run_end(const core::RunEndEvent& end);
  void on_subagent_event(const core::SubagentEvent& event);
  // Cuts the streaming reply (the last item) at its last finished block (kStreamingSplitBytes).
  void split_streaming_reply(UiClock::time_point now);

  // The last reply rendered: which item, at what length of its text, at what width.
  struct RenderedReply {
    std::size_t index = SIZE_MAX;
    std::size_t bytes = 0;
    std::size_t width = 0;
    StyledLines rows;
  };

  std::vector<TranscriptItem> items_;
  mutable RenderedReply reply_cache_;
  std::size_t committed_items_ = 0;
  std::size_t committed_rows_ = 0;            // rows of items_[committed_items_] already committed
  std::size_t commit_width_ = 80;             // the width those rows were laid out for
  std::size_t message_start_ = 0;             // the first item of the reply being received
  std::vector<std::size_t> streaming_calls_;  // item index per tool-call index of this reply
};

}  // namespace nib::ui
