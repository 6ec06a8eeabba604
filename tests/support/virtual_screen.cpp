#include "support/virtual_screen.hpp"

#include <algorithm>
#include <stdexcept>

#include "util/display_width.hpp"

namespace nib::testing {
namespace {

constexpr unsigned char kEscape = 0x1B;
constexpr unsigned char kBell = 0x07;
constexpr unsigned char kCancel = 0x18;      // CAN: aborts a sequence
constexpr unsigned char kSubstitute = 0x1A;  // SUB: aborts a sequence
constexpr int kTabStop = 8;
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The length a UTF-8 lead byte announces, or 0 when the byte cannot start a character.
std::size_t announced_length(unsigned char lead) {
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}

bool is_continuation(unsigned char byte) {
  return (byte & 0xC0) == 0x80;
}

// The numeric parameters of a CSI sequence: -1 for an omitted one. False when the parameter
// text holds anything but digits and ';' (sub-parameters with ':' are not understood).
bool parse_params(std::string_view text, std::vector<int>& params) {
  if (text.empty()) return true;
  params.push_back(-1);
  for (const char c : text) {
    if (c == ';') {
      params.push_back(-1);
    } else if (c >= '0' && c <= '9') {
      int& value = params.back();
      value = std::min(std::max(value, 0) * 10 + (c - '0'), 1 << 20);
    } else {
      return false;
    }
  }
  return true;
}

// Parameter `index`, or `fallback` when it is omitted or zero (cursor moves treat 0 as 1).
int count_param(const std::vector<int>& params, std::size_t index, int fallback) {
  return index < params.size() && params[index] > 0 ? params[index] : fallback;
}

}  // namespace

VirtualScreen::VirtualScreen(int columns, int rows) : columns_(columns), rows_(rows) {
  if (columns < 1 || rows < 1) throw std::invalid_argument("a screen needs at least one cell");
  grid_.assign(static_cast<std::size_t>(rows_), blank_row());
}

void VirtualScreen::feed(std::string_view bytes) {
  bytes_fed_ += bytes.size();
  for (const char c : bytes) feed_byte(static_cast<unsigned char>(c));
}

void VirtualScreen::feed_byte(unsigned char byte) {
  switch (state_) {
    case State::kGround:
      feed_ground(byte);
      break;
    case State::kEscape:
    case State::kEscapeIntermediate:
      feed_escape(byte);
      break;
    case State::kCsi:
      feed_csi(byte);
      break;
    case State::kString:
    case State::kStringEscape:
      feed_string(byte);
      break;
  }
}

void VirtualScreen::feed_ground(unsigned char byte) {
  if (byte >= 0x80) {
    if (!utf8_.empty() && is_continuation(byte)) {
      utf8_.push_back(static_cast<char>(byte));
      if (utf8_.size() == announced_length(static_cast<unsigned char>(utf8_[0]))) flush_utf8();
      return;
    }
    flush_utf8();
    utf8_.push_back(static_cast<char>(byte));
    if (announced_length(byte) == 0) flush_utf8();
    return;
  }
  flush_utf8();
  if (byte == kEscape) {
    state_ = State::kEscape;
    sequence_.assign(1, static_cast<char>(byte));
  } else if (byte < 0x20 || byte == 0x7F) {
    execute_control(byte);
  } else {
    print(std::string(1, static_cast<char>(byte)), 1);
  }
}

// Whatever waits in utf8_ is printed: a complete character, or U+FFFD for each byte of a
// character that was cut short or malformed.
void VirtualScreen::flush_utf8() {
  if (utf8_.empty()) return;
  const std::string bytes = std::move(utf8_);
  utf8_.clear();
  decode_and_print(bytes);
}

void VirtualScreen::decode_and_print(std::string_view bytes) {
  for (std::size_t pos = 0; pos < bytes.size();) {
    std::size_t length = 0;
    const char32_t codepoint = util::decode_utf8(bytes, pos, length);
    const bool invalid = length == 1 && static_cast<unsigned char>(bytes[pos]) >= 0x80;
    const std::string_view glyph = invalid ? kReplacement : bytes.substr(pos, length);
    pos += length;
    if (codepoint >= 0x80 && codepoint < 0xA0) continue;  // C1 controls: nib never writes them
    const int width = util::codepoint_width(codepoint);
    if (width == 0) {
      attach_zero_width(glyph);
    } else {
      print(std::string(glyph), width);
    }
  }
}

void VirtualScreen::print(std::string glyph, int width) {
  if (width > columns_) return;
  if (wrap_pending_ || column_ + width > columns_) {
    // Auto-wrap; a wide character that does not fit in the last column wraps before it.
    column_ = 0;
    line_feed();
  }
  wrap_pending_ = false;
  Row& row = grid_[static_cast<std::size_t>(row_)];
  erase_cells(row_, column_, column_ + width);
  row[static_cast<std::size_t>(column_)] = Cell{std::move(glyph), width, style_};
  if (width == 2) row[static_cast<std::size_t>(column_ + 1)] = Cell{"", 0, style_};
  column_ += width;
  if (column_ >= columns_) {
    column_ = columns_ - 1;
    wrap_pending_ = true;
  }
}

// A combining mark or other zero-width character joins the cell before the cursor (the cursor
// cell itself in the pending-wrap state); at the left edge there is nothing to join.
void VirtualScreen::attach_zero_width(std::string_view bytes) {
  int target = wrap_pending_ ? column_ : column_ - 1;
  if (target < 0) return;
  Row& row = grid_[static_cast<std::size_t>(row_)];
  if (row[static_cast<std::size_t>(target)].width == 0 && target > 0) --target;
  Cell& cell = row[static_cast<std::size_t>(target)];
  if (cell.text.empty()) cell.text.push_back(' ');
  cell.text.append(bytes);
}

void VirtualScreen::execute_control(unsigned char byte) {
  switch (byte) {
    case '\r':
      move_cursor(row_, 0);
      break;
    case '\n':
    case '\v':
    case '\f':
      wrap_pending_ = false;
      line_feed();
      break;
    case '\b':
      move_cursor(row_, column_ - 1);
      break;
    case '\t':
      // In the pending-wrap state the cursor is at the last stop already and, as in xterm,
      // stays pending.
      if (!wrap_pending_) move_cursor(row_, (column_ / kTabStop + 1) * kTabStop);
      break;
    default:
      break;  // BEL and the other C0 controls change nothing on the screen
  }
}

bool VirtualScreen::interrupts_sequence(unsigned char byte) {
  if (byte == kCancel || byte == kSubstitute) {
    state_ = State::kGround;
    return true;
  }
  if (byte == kEscape) {
    record_unknown();
    sequence_.assign(1, static_cast<char>(byte));
    state_ = State::kEscape;
    return true;
  }
  if (byte < 0x20) {
    execute_control(byte);  // as xterm does: controls inside a sequence still act
    return true;
  }
  return false;
}

void VirtualScreen::feed_escape(unsigned char byte) {
  if (interrupts_sequence(byte)) return;
  sequence_.push_back(static_cast<char>(byte));
  if (byte >= 0x20 && byte <= 0x2F) {
    state_ = State::kEscapeIntermediate;
    return;
  }
  if (state_ == State::kEscape && byte == '[') {
    state_ = State::kCsi;
    return;
  }
  if (state_ == State::kEscape &&
      (byte == ']' || byte == 'P' || byte == 'X' || byte == '^' || byte == '_')) {
    string_is_osc_ = byte == ']';
    state_ = State::kString;
    return;
  }
  state_ = State::kGround;
  if (byte >= 0x7F) {
    sequence_.pop_back();
    record_unknown();
    feed_ground(byte);
    return;
  }
  dispatch_escape();
}

void VirtualScreen::dispatch_escape() {
  if (sequence_ ==
      "\x1b"
      "7") {
    save_cursor();
  } else if (sequence_ ==
             "\x1b"
             "8") {
    restore_cursor();
  } else if (sequence_ != "\x1b(B" && sequence_ != "\x1b\\") {
    // Selecting ASCII as G0 changes nothing in a UTF-8 terminal; a lone ST ends nothing.
    record_unknown();
  }
}

// Like xterm's DECSC: the position, the pending-wrap state and the SGR attributes.
void VirtualScreen::save_cursor() {
  saved_ = SavedCursor{row_, column_, wrap_pending_, style_};
}

// Without a saved cursor, xterm goes home with default attributes.
void VirtualScreen::restore_cursor() {
  const SavedCursor saved = saved_.value_or(SavedCursor{});
  move_cursor(saved.row, saved.column);
  wrap_pending_ = saved.wrap_pending && saved.column == column_;
  style_ = saved.style;
}

void VirtualScreen::feed_string(unsigned char byte) {
  if (state_ == State::kStringEscape) {
    end_string();
    if (byte == '\\') return;
    // Any other sequence also ends the string and then starts itself.
    state_ = State::kEscape;
    sequence_.assign(1, static_cast<char>(kEscape));
    feed_escape(byte);
    return;
  }
  if (byte == kBell) {
    end_string();
  } else if (byte == kEscape) {
    state_ = State::kStringEscape;
  } else if (byte == kCancel || byte == kSubstitute) {
    state_ = State::kGround;
  } else if (!string_is_osc_) {
    sequence_.push_back(static_cast<char>(byte));  // kept for unknown_sequences()
  }
}

// OSC strings (titles, hyperlinks) do not change the picture; DCS, SOS, PM and APC are reported.
void VirtualScreen::end_string() {
  state_ = State::kGround;
  if (!string_is_osc_) record_unknown();
}

void VirtualScreen::feed_csi(unsigned char byte) {
  if (interrupts_sequence(byte)) return;
  sequence_.push_back(static_cast<char>(byte));
  if (byte >= 0x40 && byte <= 0x7E) {
    state_ = State::kGround;
    dispatch_csi(byte);
  } else if (byte >= 0x7F) {
    state_ = State::kGround;
    record_unknown();
  }
}

void VirtualScreen::dispatch_csi(unsigned char final_byte) {
  // sequence_ is ESC [ <private marker?> <parameters> <intermediates> <final>.
  std::string_view body(sequence_);
  body = body.substr(2, body.size() - 3);
  char marker = 0;
  if (!body.empty() && std::string_view("<=>?").find(body.front()) != std::string_view::npos) {
    marker = body.front();
    body.remove_prefix(1);
  }
  const std::size_t intermediates = body.find_first_of(" !\"#$%&'()*+,-./");
  std::vector<int> params;
  if (intermediates != std::string_view::npos ||
      !parse_params(body.substr(0, intermediates), params)) {
    record_unknown();
    return;
  }
  if (marker == '?' && (final_byte == 'h' || final_byte == 'l')) {
    set_private_modes(params, final_byte == 'h');
    return;
  }
  if (marker != 0) {
    record_unknown();
    return;
  }
  const int n = count_param(params, 0, 1);
  switch (final_byte) {
    case 'A':
      move_cursor(row_ - n, column_);
      break;
    case 'B':
      move_cursor(row_ + n, column_);
      break;
    case 'C':
      move_cursor(row_, column_ + n);
      break;
    case 'D':
      move_cursor(row_, column_ - n);
      break;
    case 'E':
      move_cursor(row_ + n, 0);
      break;
    case 'F':
      move_cursor(row_ - n, 0);
      break;
    case 'G':
      move_cursor(row_, n - 1);
      break;
    case 'H':
    case 'f':
      move_cursor(n - 1, count_param(params, 1, 1) - 1);
      break;
    case 'K':
      erase_in_line(params.empty() ? 0 : std::max(params[0], 0));
      break;
    case 'J':
      erase_in_display(params.empty() ? 0 : std::max(params[0], 0));
      break;
    case 'm':
      select_graphic_rendition(params);
      break;
    case 's':
      if (!params.empty()) {
        record_unknown();  // with parameters this is DECSLRM (left/right margins)
        break;
      }
      save_cursor();  // same effect as ESC 7 in xterm
      break;
    case 'u':
      restore_cursor();
      break;
    default:
      record_unknown();
      break;
  }
}

void VirtualScreen::set_private_modes(const std::vector<int>& params, bool on) {
  for (const int mode : params) {
    if (mode == 25) cursor_visible_ = on;
    if (mode == 2004) bracketed_paste_ = on;
    // 2026 (synchronized output) and the other private modes do not change the picture.
  }
}

void VirtualScreen::select_graphic_rendition(const std::vector<int>& params) {
  if (params.empty()) {
    style_ = CellStyle{};
    return;
  }
  bool understood = true;
  for (std::size_t i = 0; i < params.size(); ++i) {
    const int code = std::max(params[i], 0);
    if (code == 0) {
      style_ = CellStyle{};
    } else if (code == 1) {
      style_.bold = true;
    } else if (code == 2) {
      style_.dim = true;
    } else if (code == 3) {
      style_.italic = true;
    } else if (code == 4) {
      style_.underline = true;
    } else if (code == 7) {
      style_.inverse = true;
    } else if (code == 22) {
      style_.bold = style_.dim = false;
    } else if (code == 23) {
      style_.italic = false;
    } else if (code == 24) {
      style_.underline = false;
    } else if (code == 27) {
      style_.inverse = false;
    } else if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97)) {
      style_.color = code;
    } else if (code == 39) {
      style_.color = 0;
    } else {
      understood = false;
      // Skip the arguments of an extended colour so they are not read as codes of their own.
      if ((code == 38 || code == 48 || code == 58) && i + 1 < params.size()) {
        i += params[i + 1] == 5 ? 2 : params[i + 1] == 2 ? 4 : 1;
      }
    }
  }
  if (!understood) {
    record_unknown();  // the rest was applied; the report shows what was not
  }
}

// As in xterm, erasing to the right (EL 0, ED 0) and the whole screen (ED 2) end a pending
// wrap, so EL after a full row erases its last character; the other erases keep it.
void VirtualScreen::erase_in_line(int mode) {
  if (mode == 0) {
    wrap_pending_ = false;
    erase_cells(row_, column_, columns_);
  } else if (mode == 1) {
    erase_cells(row_, 0, column_ + 1);
  } else if (mode == 2) {
    erase_cells(row_, 0, columns_);
  } else {
    record_unknown();
  }
}

void VirtualScreen::erase_in_display(int mode) {
  if (mode == 0) {
    wrap_pending_ = false;
    erase_cells(row_, column_, columns_);
    for (int row = row_ + 1; row < rows_; ++row) erase_cells(row, 0, columns_);
  } else if (mode == 1) {
    for (int row = 0; row < row_; ++row) erase_cells(row, 0, columns_);
    erase_cells(row_, 0, column_ + 1);
  } else if (mode == 2) {
    ++full_clears_;
    wrap_pending_ = false;
    for (int row = 0; row < rows_; ++row) erase_cells(row, 0, columns_);
  } else if (mode == 3) {
    ++full_clears_;
    scrollback_.clear();
  } else {
    record_unknown();
  }
}

// Blanks cells [from, to) of `row`, and the other half of a wide character cut by either edge.
void VirtualScreen::erase_cells(int row, int from, int to) {
  Row& cells = grid_[static_cast<std::size_t>(row)];
  from = std::clamp(from, 0, columns_);
  to = std::clamp(to, from, columns_);
  if (from < to && from > 0 && cells[static_cast<std::size_t>(from)].width == 0) --from;
  if (from < to && to < columns_ && cells[static_cast<std::size_t>(to)].width == 0) ++to;
  std::fill(cells.begin() + from, cells.begin() + to, Cell{});
}

void VirtualScreen::line_feed() {
  if (row_ == rows_ - 1) {
    scroll_up();
  } else {
    ++row_;
  }
}

void VirtualScreen::scroll_up() {
  scrollback_.push_back(render(grid_.front()));
  grid_.erase(grid_.begin());
  grid_.push_back(blank_row());
}

void VirtualScreen::move_cursor(int row, int column) {
  row_ = std::clamp(row, 0, rows_ - 1);
  column_ = std::clamp(column, 0, columns_ - 1);
  wrap_pending_ = false;
}

void VirtualScreen::record_unknown() {
  unknown_.push_back(sequence_);
}

std::string VirtualScreen::render(const Row& row) {
  std::string line;
  for (const Cell& cell : row) {
    if (cell.width == 0) continue;
    line += cell.text.empty() ? " " : cell.text;
  }
  line.erase(line.find_last_not_of(' ') + 1);
  return line;
}

std::vector<std::string> VirtualScreen::rows() const {
  std::vector<std::string> out;
  out.reserve(grid_.size());
  for (const Row& row : grid_) out.push_back(render(row));
  return out;
}

std::vector<std::string> VirtualScreen::scrollback() const {
  return scrollback_;
}

std::vector<std::string> VirtualScreen::all_rows() const {
  std::vector<std::string> out = scrollback_;
  std::vector<std::string> visible = rows();
  while (!visible.empty() && visible.back().empty()) visible.pop_back();
  out.insert(out.end(), visible.begin(), visible.end());
  return out;
}

std::string VirtualScreen::text() const {
  std::string out;
  for (const std::string& row : all_rows()) {
    if (!out.empty()) out += '\n';
    out += row;
  }
  return out;
}

CellStyle VirtualScreen::style_at(int row, int column) const {
  if (row < 0 || row >= rows_ || column < 0 || column >= columns_) {
    throw std::out_of_range("style_at outside the visible screen");
  }
  return grid_[static_cast<std::size_t>(row)][static_cast<std::size_t>(column)].style;
}

void VirtualScreen::resize(int columns, int rows) {
  if (columns < 1 || rows < 1) throw std::invalid_argument("a screen needs at least one cell");
  for (Row& row : grid_) {
    if (columns < columns_ && row[static_cast<std::size_t>(columns)].width == 0) {
      row[static_cast<std::size_t>(columns - 1)] = Cell{};  // a wide character cut in half
    }
    row.resize(static_cast<std::size_t>(columns));
  }
  columns_ = columns;
  const int pushed = std::max(0, row_ + 1 - rows);
  for (int i = 0; i < pushed; ++i)
    scrollback_.push_back(render(grid_[static_cast<std::size_t>(i)]));
  grid_.erase(grid_.begin(), grid_.begin() + pushed);
  grid_.resize(static_cast<std::size_t>(rows), blank_row());
  rows_ = rows;
  move_cursor(row_ - pushed, column_);
}

void VirtualScreen::clear_counters() {
  bytes_fed_ = 0;
  full_clears_ = 0;
}

}  // namespace nib::testing
