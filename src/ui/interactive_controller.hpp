#pragma once
// What the keys of the interactive mode do, as a state machine the app drives: it owns the input
// editor, the completion menu, the approval question (with its rule editor), the picker and the
// Ctrl-C hint, and turns each decoded key into at most one action (send a line, answer the
// question, choose an entry, change the permission mode, interrupt, quit ...) that the app
// carries out. No terminal, no thread, no clock, no run: the facts of the session it needs come
// with each key (KeyContext), so every key policy is tested without a terminal. Not
// thread-safe: the UI thread's.

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "permissions/approval_policy.hpp"
#include "permissions/permission_mode.hpp"
#include "ui/choice_keys.hpp"
#include "ui/interactive_view.hpp"
#include "ui/key_decoder.hpp"
#include "ui/line_editor.hpp"
#include "ui/slash_commands.hpp"
#include "ui/transcript_items.hpp"

namespace nib::ui {

// Two Ctrl-C within this time quit, two Esc open the rewind: long enough to press twice on
// purpose, short enough that a press long after the first (to clear the editor, to interrupt)
// does not surprise.
inline constexpr std::chrono::milliseconds kDoublePressWindow{2000};

// What the app knows and the controller needs when a key comes.
struct KeyContext {
  UiClock::time_point now{};
  bool working = false;           // a run or a compaction is in progress
  bool commands_running = false;  // a bash call runs in the foreground (Ctrl+B moves it)
  permissions::PermissionMode mode = permissions::PermissionMode::kAuto;  // the mode now
};

// The actions a key asks of the app.
struct SubmitText {  // Enter on a line that is not blank: a prompt or a /command
  std::string text;
};
struct AnswerApproval {
  permissions::ApprovalReply reply;
};
struct ChoosePickerEntry {
  std::size_t index = 0;
};
struct CancelPicker {};  // Esc or Ctrl-C on a picker
struct SetPermissionMode {
  permissions::PermissionMode mode;
};
struct InterruptRun {};
struct MoveCommandsToBackground {};  // Ctrl+B while a bash call runs
struct Quit {};
struct Redraw {};          // Ctrl+L: reflow the screen
struct SuspendToShell {};  // Ctrl+Z
struct OpenRewind {};      // Esc twice on an empty editor while nothing runs: /rewind
using UiAction =
    std::variant<SubmitText, AnswerApproval, ChoosePickerEntry, CancelPicker, SetPermissionMode,
                 InterruptRun, MoveCommandsToBackground, Quit, Redraw, SuspendToShell, OpenRewind>;

// The completions for the editor's text when it starts with '/' (slash_commands.hpp's
// complete()): the app's, since it knows the commands and their arguments; an empty one
// offers none.
using CommandCompleter = std::function<std::vector<Completion>(const std::string& text)>;

class InteractiveController {
 public:
  // Shift+Tab reaches yolo only when the session `started_in_yolo`.
  InteractiveController(bool started_in_yolo, CommandCompleter completer);

  // Applies one key: an open question or picker takes every key; else Ctrl-C, Ctrl+B, the
  // completion menu, the mode and control keys, then the editor.
  std::optional<UiAction> handle_key(const Key& key, const KeyContext& context);

  // Forgets a first Ctrl-C, and its hint, once the time for the second has passed.
  void advance(UiClock::time_point now);
  // A first Ctrl-C waits for its second: the caller calls advance() before long.
  bool quit_confirmation_pending() const { return last_control_c_.has_value(); }

  // Puts a question that takes the keys until answered (a newer one replaces it).
  void ask(ApprovalView question);
  // The run ended without an answer: the question goes.
  void withdraw_question() { approval_.reset(); }
  // Puts a list to choose from that takes the keys until chosen or cancelled.
  void open_picker(PickerView picker) { picker_ = std::move(picker); }

  // The prompts to browse with Up and Down, oldest first.
  void set_history(std::vector<std::string> entries) { editor_.set_history(std::move(entries)); }
  // Replaces the editor's text (messages a run did not deliver, given back), with completions.
  void set_editor_text(const std::string& text);
  const LineEditor& editor() const { return editor_; }

  // Fills the parts of the screen the controller owns: the editor, the completion menu, the
  // question or picker, and the hint under the footer.
  void show_in(ViewState& state) const;

 private:
  std::optional<UiAction> approval_key(const Key& key);
  // While the editor holds the rules "always" saves: Enter answers, Esc goes back.
  std::optional<UiAction> rule_edit_key(const Key& key);
  std::optional<UiAction> picker_key(const Key& key);
  std::optional<UiAction> control_c(const KeyContext& context);
  std::optional<UiAction> menu_key(const MenuKey& menu);
  // The editor's text as a line to send; nothing for a blank one.
  std::optional<UiAction> take_submission();
  // Offers the completions of the editor's text, unless Esc closed them for this very text.
  void after_edit();

  const bool started_in_yolo_;
  const CommandCompleter completer_;
  LineEditor editor_;
  CompletionMenu completions_;
  std::optional<std::string> dismissed_completion_;  // the text whose menu Esc closed
  std::optional<ApprovalView> approval_;
  std::string draft_before_rules_;  // the editor's text while it holds rules being edited
  std::optional<PickerView> picker_;
  std::optional<UiClock::time_point> last_control_c_;
  std::optional<UiClock::time_point> last_escape_;  // an idle Esc on an empty editor
  std::string hint_;
};

}  // namespace nib::ui
