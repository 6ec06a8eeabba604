#pragma once
// The interactive prompt's multi-line input editor: text with a cursor, readline-style editing
// keys, history browsing, and a rendering into screen rows that says exactly where the terminal
// cursor goes. Pure: no terminal access. Not thread-safe: owned by the UI thread.
//
// Invariants: the text is valid UTF-8 holding printable characters and '\n' only (everything
// inserted is cleaned first); the cursor is a byte offset on a character boundary.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ui/key_decoder.hpp"
#include "ui/styled_text.hpp"

namespace nib::ui {

// A tab in inserted text becomes this many spaces: a tab's width would depend on the column.
inline constexpr std::size_t kEditorTabSpaces = 4;

enum class EditResult {
  kHandled,  // the key edited the text or moved the cursor (or had nothing to act on)
  kSubmit,   // Enter: the text is ready for take_submission()
  kIgnored,  // not an editing key; the caller decides what it means
};

struct EditorView {
  StyledLines rows;               // at most max_rows rows
  std::size_t cursor_row = 0;     // within `rows`
  std::size_t cursor_column = 0;  // display columns, prefix included
  std::size_t hidden_above = 0;   // rows cut off above the window
  std::size_t hidden_below = 0;   // rows cut off below the window
};

class LineEditor {
 public:
  // Applies one key. kIgnored for Escape, Tab, Shift-Tab, Page Up/Down, Ctrl-D on an empty
  // editor and control keys that are not editing keys (Ctrl-C, Ctrl-L, ...).
  EditResult handle(const Key& key);

  const std::string& text() const { return text_; }
  std::size_t cursor() const { return cursor_; }  // byte offset into text()
  bool empty() const { return text_.empty(); }

  // Replaces the text (cleaned like a paste) and puts the cursor at its end.
  void set_text(const std::string& text);

  // Returns the text and clears the editor. The text joins the history unless it is blank or
  // equal to the newest entry.
  std::string take_submission();

  // The history to browse with Up and Down, oldest first. Ends any browsing in progress.
  void set_history(std::vector<std::string> entries);
  const std::vector<std::string>& history() const { return history_; }

  // The rows to draw for a terminal `width` columns wide: the first line starts with
  // `first_prefix`, later lines and the continuation rows of a wrapped line with
  // `continuation_prefix` (a prefix that leaves no room for a wide character is left out). Lines
  // wrap by characters (a wide character is never split). A cursor after the last character of a
  // full row goes to the start of an added row, where the next character would appear. With more
  // than `max_rows` rows, returns the window of `max_rows` rows that holds the cursor,
  // scrolled as little as possible from the top.
  EditorView render(std::size_t width, std::size_t max_rows, const StyledLine& first_prefix,
                    const StyledLine& continuation_prefix) const;

 private:
  EditResult handle_control(char letter);
  void insert(const std::string& text);
  void erase(std::size_t begin, std::size_t end);  // keeps the cursor where it belongs
  void move_vertically(bool down);
  void recall(std::size_t index);  // loads history_[index], or the draft at history_.size()

  std::string text_;
  std::size_t cursor_ = 0;
  std::vector<std::string> history_;
  std::size_t history_index_ = 0;  // history_.size() when not browsing
  std::string draft_;              // the text being typed before browsing started
  // The display column Up/Down aim for, kept across a run of vertical moves so that passing
  // a short line does not lose it.
  std::optional<std::size_t> goal_column_;
};

}  // namespace nib::ui
