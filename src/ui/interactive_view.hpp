#pragma once
// Composes the interactive screen's live region from the UI's state: the transcript's live
// part, a working indicator, queued steering messages, the model's plan, then the input area (the
// editor with its completion menu, or an approval question, or a picker), and the footer. Decides
// how many rows the transcript may keep live so the whole region fits the screen, and takes the
// rest from the transcript for scrollback; an approval's diff gets the rows the rest leaves.
// Reads only the state it is given; not thread-safe.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/plan.hpp"
#include "core/tool.hpp"
#include "ui/footer.hpp"
#include "ui/inline_renderer.hpp"
#include "ui/line_editor.hpp"
#include "ui/slash_commands.hpp"
#include "ui/transcript.hpp"

namespace nib::ui {

// The most rows the input editor takes before it scrolls inside itself.
inline constexpr std::size_t kEditorMaxRows = 12;
// The most completion choices or picker entries shown at once.
inline constexpr std::size_t kMenuRows = 8;

// An approval question's preview of a change gets the rows left on the screen once everything
// else is drawn, but at least this many, so that even a small terminal shows how the change
// starts (the frame is then taller than the screen and its top scrolls away).
inline constexpr std::size_t kMinPreviewRows = 6;

// A question that replaces the editor until answered: "Allow bash rm -rf build?".
struct ApprovalView {
  std::string question;            // "Allow bash: npm install?"
  std::string reason;              // why it asks; "" for none
  std::vector<std::string> rules;  // what "always" saves
  bool editing_rules = false;      // the editor holds the rules being edited
  std::vector<std::string> parts;  // a compound command's simple commands (shown when > 1)
  // What the call would change (an edit's or a write's diff), or why it would fail.
  std::optional<core::ChangePreview> preview;
};

// A list to choose one entry from (the /resume picker, /model without an id, whether to start
// a project's MCP server).
struct PickerView {
  std::string title;
  std::vector<std::string> entries;
  std::size_t selected = 0;
  std::vector<std::string> details;  // lines between the title and the entries
};

struct ViewState {
  const LineEditor* editor = nullptr;
  bool working = false;                 // a run or a compaction is in progress
  UiClock::time_point working_since{};  // for the elapsed time beside the spinner
  std::string working_label = "Working";
  // Running bash calls that Ctrl+B would move into the background, once one has run long
  // enough for the offer to be worth a hint (0: no hint).
  std::size_t movable_commands = 0;
  std::vector<std::string> queued;  // steering messages not yet delivered
  core::Plan plan;                  // the model's plan (todo_write); shown unless finished and idle
  std::optional<ApprovalView> approval;
  std::optional<PickerView> picker;
  std::vector<Completion> completions;
  std::size_t completion_selected = 0;
  FooterInfo footer;
  std::string hint;  // one-off line under the footer ("Press Ctrl-C again to quit")
};

// One redraw: what goes to scrollback now, and the live frame below it.
struct ScreenUpdate {
  StyledLines committed;
  LiveFrame live;
};

class InteractiveView {
 public:
  // Takes from `transcript` what is final (and, while the frame would not fit `height` rows,
  // the top of a long streaming reply), then composes the live frame: the transcript's live
  // rows, then the rows below them.
  ScreenUpdate update(Transcript& transcript, const ViewState& state, std::size_t width,
                      std::size_t height, UiClock::time_point now) const;

 private:
  // The rows below the transcript, and where the editor's cursor is among them; an approval's
  // diff takes at most `max_diff_rows` rows.
  StyledLines bottom_rows(const ViewState& state, std::size_t width, UiClock::time_point now,
                          std::size_t max_diff_rows, std::optional<CursorPosition>& cursor) const;
};

}  // namespace nib::ui
