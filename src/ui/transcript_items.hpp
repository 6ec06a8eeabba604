#pragma once
// The things the interactive transcript shows, one struct per kind, and how each is drawn.
// Items keep only what they draw (a tool's first lines of output, not all of it), so a long
// session's transcript stays small. Pure data and functions; not thread-safe.

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/events.hpp"
#include "ui/styled_text.hpp"

namespace nib::ui {

using UiClock = std::chrono::steady_clock;

// Lines of a tool's output shown under its row; the rest is counted ("… +12 lines").
inline constexpr std::size_t kToolPreviewLines = 3;
// Lines of a tool's display (an edit's diff) shown under its row.
inline constexpr std::size_t kToolDisplayLines = 24;
// A streaming reply longer than this is cut at its last finished block: the finished part
// becomes an item of its own, so each update renders only the unfinished tail (keeps a long
// reply's updates cheap instead of growing with everything already shown).
inline constexpr std::size_t kStreamingSplitBytes = 2048;
// The spinner's frame time: smooth enough to look alive, slow enough to cost nothing.
inline constexpr std::chrono::milliseconds kSpinnerFrame{80};

// The spinner's glyph `elapsed` after it started.
const char* spinner_frame(std::chrono::milliseconds elapsed);

enum class NoticeKind { kInfo, kWarning, kError };

struct UserItem {
  std::string text;
};
struct AssistantItem {
  std::string markdown;
  bool streaming = true;
  bool continuation = false;  // a later piece of a long reply: no bullet of its own
};
struct ThinkingItem {
  std::string text;
  bool streaming = true;
};
struct NoticeItem {
  std::string text;
  NoticeKind kind = NoticeKind::kInfo;
};

// Lines kept from a longer text, and how many were left out.
struct Excerpt {
  std::vector<std::string> lines;
  std::size_t omitted = 0;
};
Excerpt excerpt(const std::string& text, std::size_t max_lines);

// The rows of a unified diff's excerpt as the transcript draws a tool's diff under its row: in
// a gutter, removed lines red, added green, hunk headers cyan, "… +K lines" for those left
// out. Also the approval question's preview of a change, so both look the same.
StyledLines diff_rows(const Excerpt& diff, std::size_t width);

enum class ToolState {
  kStreaming,  // the model is still writing the call's arguments
  kQueued,     // registered; waiting for checks, its turn or a slot
  kRunning,
  kDone,
};

struct ToolItem {
  std::string id;
  std::string name;
  std::string summary;    // "read src/app.cpp:120-180"
  std::string arguments;  // the call's argument text, once complete
  std::size_t argument_bytes = 0;
  ToolState state = ToolState::kStreaming;
  UiClock::time_point started{};
  std::chrono::milliseconds duration{0};
  bool is_error = false;
  std::optional<int> exit_code;
  Excerpt output;
  Excerpt display;     // UI-only content, e.g. a unified diff
  bool ended = false;  // its result is final (tool_end or the batch's results)
  // A call that runs a subagent (task): the subagent's latest call ("explore-1: grep TODO"),
  // how many of its calls have ended and how many requests it has made (its own subagents'
  // included).
  std::string activity;
  int subagent_calls_done = 0;
  int subagent_turns = 0;

  // Takes the result (and display) of a finished call; `result_line`, when the tool gives one
  // (ToolPresenter::result), stands in for the result's first lines.
  void finish(const core::ToolResult& result, const std::optional<std::string>& shown,
              std::chrono::milliseconds took, std::optional<std::string> result_line = {});
};

using TranscriptItem = std::variant<UserItem, AssistantItem, ThinkingItem, ToolItem, NoticeItem>;

// True when the item will not change any more (it may go to scrollback).
bool is_final(const TranscriptItem& item);

// The item's rows at `width` columns; `now` animates spinners and elapsed times.
StyledLines render_item(const TranscriptItem& item, std::size_t width, UiClock::time_point now);

}  // namespace nib::ui
