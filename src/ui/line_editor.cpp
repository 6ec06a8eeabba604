#include "ui/line_editor.hpp"

#include <algorithm>
#include <string_view>

#include "util/display_width.hpp"
#include "util/utf8.hpp"

namespace nib::ui {
namespace {

constexpr char kEsc = '\x1b';
constexpr std::size_t kWidestCharacter = 2;  // columns of a wide (East Asian, emoji) character

bool is_c1_control(char32_t codepoint) {
  return codepoint >= 0x80 && codepoint < 0xA0;
}

// The end of the escape sequence starting at text[pos] (an ESC): CSI up to its final byte,
// OSC/DCS/APC/PM/SOS strings up to their terminator, otherwise ESC and one character.
std::size_t skip_escape_sequence(std::string_view text, std::size_t pos) {
  if (pos + 1 >= text.size()) return text.size();
  const char kind = text[pos + 1];
  if (kind == '[') {
    std::size_t end = pos + 2;
    while (end < text.size() && text[end] >= 0x20 && text[end] <= 0x3F) ++end;
    if (end < text.size() && text[end] >= 0x40 && text[end] <= 0x7E) ++end;
    return end;
  }
  if (kind == ']' || kind == 'P' || kind == '_' || kind == '^' || kind == 'X') {
    // A string ends at BEL or ST (ESC \). Unterminated, only its introducer is dropped: the
    // rest may be what the user meant to paste.
    const std::size_t end = text.find_first_of("\a\x1b", pos + 2);
    if (end == std::string_view::npos) return pos + 2;
    if (text[end] == '\a') return end + 1;
    return end + 1 < text.size() && text[end + 1] == '\\' ? end + 2 : end;
  }
  const auto next = static_cast<unsigned char>(kind);
  return next >= 0x20 && next < 0x7F ? pos + 2 : pos + 1;
}

// Text made safe to hold: line breaks as '\n', tabs as spaces, no other control characters or
// escape sequences (they would act on the terminal when drawn), invalid UTF-8 as U+FFFD.
std::string clean(std::string_view raw) {
  const std::string text = util::sanitize_utf8(raw);
  std::string out;
  out.reserve(text.size());
  for (std::size_t pos = 0; pos < text.size();) {
    const auto byte = static_cast<unsigned char>(text[pos]);
    if (byte == '\r') {
      out += '\n';
      pos += pos + 1 < text.size() && text[pos + 1] == '\n' ? 2 : 1;
    } else if (byte == '\n') {
      out += '\n';
      ++pos;
    } else if (byte == '\t') {
      out.append(kEditorTabSpaces, ' ');
      ++pos;
    } else if (byte == kEsc) {
      pos = skip_escape_sequence(text, pos);
    } else if (byte < 0x20 || byte == 0x7F) {
      ++pos;
    } else {
      std::size_t length = 0;
      if (!is_c1_control(util::decode_utf8(text, pos, length))) out.append(text, pos, length);
      pos += length;
    }
  }
  return out;
}

// A combining mark (or other zero-width character) that belongs to the character before it.
bool is_mark(char32_t codepoint) {
  return codepoint >= 0x300 && util::codepoint_width(codepoint) == 0;
}

// The start of the character after the one at `pos` (< text.size()), its marks included.
std::size_t next_boundary(std::string_view text, std::size_t pos) {
  std::size_t length = 0;
  util::decode_utf8(text, pos, length);
  pos += length;
  while (pos < text.size() && is_mark(util::decode_utf8(text, pos, length))) pos += length;
  return pos;
}

// The start of the character before `pos` (> 0), its marks included.
std::size_t previous_boundary(std::string_view text, std::size_t pos) {
  while (pos > 0) {
    do {
      --pos;
    } while (pos > 0 && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80);
    std::size_t length = 0;
    if (!is_mark(util::decode_utf8(text, pos, length))) break;
  }
  return pos;
}

// Letters, digits and underscore: ASCII ones, and outside ASCII everything but the common
// punctuation and space blocks.
bool is_word_codepoint(char32_t c) {
  if (c < 0x80) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }
  const bool punctuation = c < 0xC0 || c == 0xD7 || c == 0xF7 || (c >= 0x2000 && c <= 0x206F) ||
                           (c >= 0x3000 && c <= 0x303F) || (c >= 0xFF01 && c <= 0xFF0F) ||
                           (c >= 0xFF1A && c <= 0xFF20) || (c >= 0xFF3B && c <= 0xFF40) ||
                           (c >= 0xFF5B && c <= 0xFF65);
  return !punctuation;
}

bool is_word_at(std::string_view text, std::size_t pos) {
  std::size_t length = 0;
  return is_word_codepoint(util::decode_utf8(text, pos, length));
}

// readline's backward-word: over separators, then over the word before them.
std::size_t word_left(std::string_view text, std::size_t pos) {
  while (pos > 0 && !is_word_at(text, previous_boundary(text, pos))) {
    pos = previous_boundary(text, pos);
  }
  while (pos > 0 && is_word_at(text, previous_boundary(text, pos))) {
    pos = previous_boundary(text, pos);
  }
  return pos;
}

// readline's forward-word: over separators, then to the end of the word after them.
std::size_t word_right(std::string_view text, std::size_t pos) {
  while (pos < text.size() && !is_word_at(text, pos)) pos = next_boundary(text, pos);
  while (pos < text.size() && is_word_at(text, pos)) pos = next_boundary(text, pos);
  return pos;
}

std::size_t line_start(std::string_view text, std::size_t pos) {
  const std::size_t newline = pos == 0 ? std::string_view::npos : text.rfind('\n', pos - 1);
  return newline == std::string_view::npos ? 0 : newline + 1;
}

std::size_t line_end(std::string_view text, std::size_t pos) {
  const std::size_t newline = text.find('\n', pos);
  return newline == std::string_view::npos ? text.size() : newline;
}

// The last position in the line [begin, end) whose display column is at most `column`.
std::size_t offset_at_column(std::string_view text, std::size_t begin, std::size_t end,
                             std::size_t column) {
  std::size_t pos = begin;
  std::size_t used = 0;
  while (pos < end) {
    const std::size_t next = next_boundary(text, pos);
    const std::size_t width = util::display_width(text.substr(pos, next - pos));
    if (used + width > column) break;
    used += width;
    pos = next;
  }
  return pos;
}

bool is_blank(std::string_view text) {
  return text.find_first_not_of(" \n") == std::string_view::npos;
}

}  // namespace

EditResult LineEditor::handle(const Key& key) {
  if (key.code != KeyCode::kUp && key.code != KeyCode::kDown) goal_column_.reset();
  switch (key.code) {
    case KeyCode::kText:
    case KeyCode::kPaste:
      insert(clean(key.text));
      break;
    case KeyCode::kNewline:
      insert("\n");
      break;
    case KeyCode::kEnter:
      if (cursor_ == 0 || text_[cursor_ - 1] != '\\') return EditResult::kSubmit;
      text_[cursor_ - 1] = '\n';  // backslash + Enter: the shell's line continuation
      break;
    case KeyCode::kBackspace:
      if (cursor_ > 0) erase(previous_boundary(text_, cursor_), cursor_);
      break;
    case KeyCode::kDelete:
      if (cursor_ < text_.size()) erase(cursor_, next_boundary(text_, cursor_));
      break;
    case KeyCode::kLeft:
      if (cursor_ > 0) cursor_ = previous_boundary(text_, cursor_);
      break;
    case KeyCode::kRight:
      if (cursor_ < text_.size()) cursor_ = next_boundary(text_, cursor_);
      break;
    case KeyCode::kHome:
      cursor_ = line_start(text_, cursor_);
      break;
    case KeyCode::kEnd:
      cursor_ = line_end(text_, cursor_);
      break;
    case KeyCode::kWordLeft:
      cursor_ = word_left(text_, cursor_);
      break;
    case KeyCode::kWordRight:
      cursor_ = word_right(text_, cursor_);
      break;
    case KeyCode::kDeleteWordBack:
      erase(word_left(text_, cursor_), cursor_);
      break;
    case KeyCode::kDeleteWordForward:
      erase(cursor_, word_right(text_, cursor_));
      break;
    case KeyCode::kUp:
      move_vertically(false);
      break;
    case KeyCode::kDown:
      move_vertically(true);
      break;
    case KeyCode::kCtrl:
      return handle_control(key.ctrl);
    case KeyCode::kPageUp:
    case KeyCode::kPageDown:
    case KeyCode::kTab:
    case KeyCode::kShiftTab:
    case KeyCode::kEscape:
      return EditResult::kIgnored;
  }
  return EditResult::kHandled;
}

EditResult LineEditor::handle_control(char letter) {
  switch (letter) {
    case 'a':
      cursor_ = line_start(text_, cursor_);
      return EditResult::kHandled;
    case 'e':
      cursor_ = line_end(text_, cursor_);
      return EditResult::kHandled;
    case 'd':  // on an empty editor the caller's (end of input)
      if (text_.empty()) return EditResult::kIgnored;
      return handle(Key{KeyCode::kDelete});
    case 'k': {
      const std::size_t end = line_end(text_, cursor_);
      // At the end of a line, kill the line break: the next line joins this one.
      erase(cursor_, end == cursor_ && end < text_.size() ? end + 1 : end);
      return EditResult::kHandled;
    }
    case 'u':
      erase(line_start(text_, cursor_), cursor_);
      return EditResult::kHandled;
    default:
      return EditResult::kIgnored;
  }
}

void LineEditor::set_text(const std::string& text) {
  text_ = clean(text);
  cursor_ = text_.size();
  goal_column_.reset();
  history_index_ = history_.size();
  draft_.clear();
}

std::string LineEditor::take_submission() {
  std::string submitted = std::move(text_);
  text_.clear();
  cursor_ = 0;
  goal_column_.reset();
  if (!is_blank(submitted) && (history_.empty() || history_.back() != submitted)) {
    history_.push_back(submitted);
  }
  history_index_ = history_.size();
  draft_.clear();
  return submitted;
}

void LineEditor::set_history(std::vector<std::string> entries) {
  history_ = std::move(entries);
  history_index_ = history_.size();
  draft_.clear();
}

void LineEditor::insert(const std::string& text) {
  text_.insert(cursor_, text);
  cursor_ += text.size();
}

void LineEditor::erase(std::size_t begin, std::size_t end) {
  text_.erase(begin, end - begin);
  cursor_ = begin;
}

void LineEditor::move_vertically(bool down) {
  const std::size_t start = line_start(text_, cursor_);
  const std::size_t end = line_end(text_, cursor_);
  if (!down && start == 0) {
    if (history_index_ > 0) recall(history_index_ - 1);
    return;
  }
  if (down && end == text_.size()) {
    if (history_index_ < history_.size()) recall(history_index_ + 1);
    return;
  }
  if (!goal_column_) {
    goal_column_ = util::display_width(std::string_view(text_).substr(start, cursor_ - start));
  }
  const std::size_t target = down ? end + 1 : line_start(text_, start - 1);
  cursor_ = offset_at_column(text_, target, line_end(text_, target), *goal_column_);
}

void LineEditor::recall(std::size_t index) {
  if (history_index_ == history_.size()) draft_ = text_;
  history_index_ = index;
  text_ = index == history_.size() ? std::move(draft_) : clean(history_[index]);
  if (index == history_.size()) draft_.clear();
  cursor_ = text_.size();
  goal_column_.reset();
}

EditorView LineEditor::render(std::size_t width, std::size_t max_rows,
                              const StyledLine& first_prefix,
                              const StyledLine& continuation_prefix) const {
  width = std::max<std::size_t>(width, 1);
  // A prefix must leave room for the widest character, or rows would overflow the terminal.
  const auto fitting = [width](const StyledLine& prefix) {
    return prefix.width() + kWidestCharacter <= width ? prefix : StyledLine{};
  };
  const StyledLine first = fitting(first_prefix);
  const StyledLine rest = fitting(continuation_prefix);

  EditorView view;
  StyledLines& rows = view.rows;
  rows.push_back(first);
  std::size_t prefix_width = first.width();
  std::size_t used = 0;  // text columns in the current row
  std::string row_text;
  const auto open_row = [&] {
    rows.back().add(row_text);
    row_text.clear();
    rows.push_back(rest);
    prefix_width = rest.width();
    used = 0;
  };
  const auto place_cursor = [&] {
    view.cursor_row = rows.size() - 1;
    view.cursor_column = prefix_width + used;
  };

  for (std::size_t pos = 0;;) {
    if (pos == text_.size() || text_[pos] == '\n') {
      if (pos == cursor_) {
        if (prefix_width + used >= width) open_row();
        place_cursor();
      }
      if (pos == text_.size()) break;
      open_row();
      ++pos;
      continue;
    }
    std::size_t length = 0;
    const auto columns =
        static_cast<std::size_t>(util::codepoint_width(util::decode_utf8(text_, pos, length)));
    // A character that does not fit starts the next row (a row holds at least one, so a
    // character wider than the whole row still makes progress).
    if (used > 0 && prefix_width + used + columns > width) open_row();
    if (pos == cursor_) place_cursor();
    row_text.append(text_, pos, length);
    used += columns;
    pos += length;
  }
  rows.back().add(row_text);

  max_rows = std::max<std::size_t>(max_rows, 1);
  if (rows.size() > max_rows) {
    const std::size_t top = view.cursor_row + 1 > max_rows ? view.cursor_row + 1 - max_rows : 0;
    view.hidden_above = top;
    view.hidden_below = rows.size() - top - max_rows;
    rows = StyledLines(rows.begin() + static_cast<std::ptrdiff_t>(top),
                       rows.begin() + static_cast<std::ptrdiff_t>(top + max_rows));
    view.cursor_row -= top;
  }
  return view;
}

}  // namespace nib::ui
