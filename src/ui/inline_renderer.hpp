#pragma once
// Draws the interactive screen inline, in the terminal's normal buffer, so scrollback keeps
// working: rows committed once go above the live region and scroll into the terminal's
// history, never to be touched again; the live region at the bottom (streaming reply, running
// tool rows, input editor, footer) is redrawn in place by rewriting only the rows that changed,
// inside one synchronized-output block per update, so nothing flickers.
//
// Rows are drawn at most width() = columns - 1 wide: a row that filled the last column would
// leave the terminal in its "pending wrap" state, where erasing and cursor moves differ
// between terminals. Not thread-safe: one owner (the UI thread).

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ui/styled_text.hpp"

namespace nib::ui {

struct CursorPosition {
  std::size_t row = 0;     // within the live rows
  std::size_t column = 0;  // display columns
};

struct LiveFrame {
  StyledLines rows;
  std::optional<CursorPosition> cursor;  // where the terminal cursor shows; hidden when empty
};

class InlineRenderer {
 public:
  using Writer = std::function<void(std::string_view)>;

  // Starts drawing at the cursor's current line, which should be at column 0.
  InlineRenderer(Writer write, std::size_t columns, std::size_t rows);

  // The widest row drawn.
  std::size_t width() const { return columns_ > 1 ? columns_ - 1 : 1; }
  std::size_t height() const { return rows_; }

  // Writes `committed` above the live region (for good), then draws `live`. A live frame
  // taller than the screen shows its last rows.
  void update(const StyledLines& committed, const LiveFrame& live);

  // The terminal changed size: clears the screen and its scrollback (the old rows were wrapped
  // for the old width) and forgets the live region; the caller commits everything again.
  void resize(std::size_t columns, std::size_t rows);

  // Something else wrote to the terminal (the shell, while nib was suspended): the live region
  // is drawn afresh from the cursor's line at the next update.
  void forget_live_region();

  // Leaves the last frame on screen and puts the cursor on the line below it, visible.
  void finish();

 private:
  // Moves the terminal cursor from live row cursor_row_ to `row` (an existing row).
  void move_to_row(std::string& out, std::size_t row);

  Writer write_;
  std::size_t columns_;
  std::size_t rows_;
  std::vector<std::string> drawn_;  // the live rows on screen, as written
  std::size_t cursor_row_ = 0;      // the live row the terminal cursor is on
};

}  // namespace nib::ui
