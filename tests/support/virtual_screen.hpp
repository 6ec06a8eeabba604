#pragma once
// VirtualScreen: a model of an xterm screen (normal buffer, no alternate screen) that interprets
// the bytes nib's terminal renderer writes, so tests can check the exact picture, the cursor and
// what scrolled into the scrollback. It understands the subset an inline renderer uses (listed
// on feed()); anything else is consumed and recorded in unknown_sequences() so a test can insist
// that the renderer wrote nothing the model does not understand.
// Not thread-safe: one owner feeds and inspects it.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nib::testing {

// The SGR attributes of one cell.
struct CellStyle {
  bool bold = false, dim = false, italic = false, underline = false, inverse = false;
  int color = 0;  // 0 default, else the SGR foreground code as written: 30..37 or 90..97
  bool operator==(const CellStyle&) const = default;
};

class VirtualScreen {
 public:
  // A blank screen of `columns` x `rows` cells (both >= 1), cursor at the top left, visible.
  VirtualScreen(int columns, int rows);

  // Interprets `bytes`; a UTF-8 character or an escape sequence may be split across calls.
  // Understood: printable UTF-8 (wide characters take two cells, zero-width ones join the
  // previous cell), xterm auto-wrap with the pending-wrap state, CR, LF/VT/FF, BS, TAB, BEL;
  // CSI A B C D E F G H f (moves, clamped), K and J (0, 1, 2; J 3 clears the scrollback),
  // m (0 1 2 3 4 7 22 23 24 27 30-37 39 90-97), s u, ESC 7 8, ?25 h/l, ?2004 h/l; other
  // CSI ? h/l, ESC ( B and OSC strings are consumed silently.
  void feed(std::string_view bytes);

  // The visible rows, trailing spaces trimmed, each wide character once.
  std::vector<std::string> rows() const;
  // Rows that scrolled off the top (or were pushed off by resize), oldest first, trimmed.
  std::vector<std::string> scrollback() const;
  // scrollback() then rows(), without the empty visible rows at the bottom.
  std::vector<std::string> all_rows() const;
  // all_rows() joined with '\n'.
  std::string text() const;

  // The cursor, 0-based. In the pending-wrap state the column is the last one.
  int cursor_row() const { return row_; }
  int cursor_column() const { return column_; }
  // Whether a character was written to the last column and the next one will wrap first.
  // Terminals disagree on what some controls do in this state (tmux keeps the last
  // character on EL, xterm erases it; this model follows xterm), so a renderer should leave it
  // with CR or an absolute move.
  bool wrap_pending() const { return wrap_pending_; }
  // False between CSI ?25 l and CSI ?25 h.
  bool cursor_visible() const { return cursor_visible_; }
  // Whether bracketed paste (CSI ?2004 h) is on.
  bool bracketed_paste() const { return bracketed_paste_; }

  // The style of the visible cell at (row, column), 0-based; throws std::out_of_range outside.
  CellStyle style_at(int row, int column) const;

  // Changes the size like xterm without reflow: rows are cut or padded on the right; when the
  // height shrinks, top rows go to the scrollback as far as needed to keep the cursor's row
  // visible and the rest is cut from the bottom; a taller screen gets blank rows at the bottom.
  // The cursor is clamped into the new size and a pending wrap ends.
  void resize(int columns, int rows);

  // Bytes fed since construction or the last clear_counters() (tests measure redraw cost).
  std::size_t bytes_fed() const { return bytes_fed_; }
  // ESC[2J and ESC[3J seen since construction or the last clear_counters().
  int full_clears() const { return full_clears_; }
  // Resets bytes_fed() and full_clears() to zero.
  void clear_counters();

  // Every sequence that was consumed but not understood, in order, as the raw bytes written.
  const std::vector<std::string>& unknown_sequences() const { return unknown_; }

 private:
  struct Cell {
    std::string text;  // empty for a blank cell
    int width = 1;     // 2 for a wide character, 0 for the cell covered by its right half
    CellStyle style;
  };
  using Row = std::vector<Cell>;
  enum class State { kGround, kEscape, kEscapeIntermediate, kCsi, kString, kStringEscape };
  struct SavedCursor {
    int row = 0, column = 0;
    bool wrap_pending = false;
    CellStyle style;
  };

  void feed_byte(unsigned char byte);
  void feed_ground(unsigned char byte);
  // CAN/SUB abort a sequence, ESC starts a new one, other C0 controls act inside one; true when
  // `byte` was one of those.
  bool interrupts_sequence(unsigned char byte);
  void feed_escape(unsigned char byte);
  void feed_csi(unsigned char byte);
  void feed_string(unsigned char byte);
  void flush_utf8();
  void decode_and_print(std::string_view bytes);
  void print(std::string glyph, int width);
  void attach_zero_width(std::string_view bytes);
  void execute_control(unsigned char byte);
  void dispatch_escape();
  void save_cursor();
  void restore_cursor();
  void end_string();
  void dispatch_csi(unsigned char final_byte);
  void set_private_modes(const std::vector<int>& params, bool on);
  void select_graphic_rendition(const std::vector<int>& params);
  void erase_in_line(int mode);
  void erase_in_display(int mode);
  void erase_cells(int row, int from, int to);
  void line_feed();
  void scroll_up();
  void move_cursor(int row, int column);
  void record_unknown();
  Row blank_row() const { return Row(static_cast<std::size_t>(columns_)); }
  static std::string render(const Row& row);

  int columns_, rows_;
  std::vector<Row> grid_;
  std::vector<std::string> scrollback_;
  int row_ = 0, column_ = 0;
  bool wrap_pending_ = false;
  CellStyle style_;
  std::optional<SavedCursor> saved_;
  bool cursor_visible_ = true;
  bool bracketed_paste_ = false;

  State state_ = State::kGround;
  std::string sequence_;       // the escape sequence being read, raw, for unknown_sequences()
  std::string utf8_;           // an incomplete UTF-8 character waiting for its next byte
  bool string_is_osc_ = true;  // the string being skipped is an OSC (else DCS/SOS/PM/APC)

  std::size_t bytes_fed_ = 0;
  int full_clears_ = 0;
  std::vector<std::string> unknown_;
};

}  // namespace nib::testing
