#include "ui/inline_renderer.hpp"

#include <algorithm>

namespace nib::ui {
namespace {

constexpr std::string_view kBeginSynchronized = "\x1b[?2026h";
constexpr std::string_view kEndSynchronized = "\x1b[?2026l";
constexpr std::string_view kHideCursor = "\x1b[?25l";
constexpr std::string_view kShowCursor = "\x1b[?25h";
constexpr std::string_view kEraseToEndOfLine = "\x1b[K";
constexpr std::string_view kEraseBelow = "\x1b[J";

std::string csi(std::size_t count, char command) {
  return "\x1b[" + std::to_string(count) + command;
}

}  // namespace

InlineRenderer::InlineRenderer(Writer write, std::size_t columns, std::size_t rows)
    : write_(std::move(write)),
      columns_(std::max<std::size_t>(columns, 2)),
      rows_(std::max<std::size_t>(rows, 1)) {}

void InlineRenderer::move_to_row(std::string& out, std::size_t row) {
  if (row < cursor_row_) out += csi(cursor_row_ - row, 'A');
  // Down by line feeds: the rows exist, so this never scrolls, and CR keeps the column sane.
  for (std::size_t i = cursor_row_; i < row; ++i) out += "\r\n";
  cursor_row_ = row;
}

void InlineRenderer::update(const StyledLines& committed, const LiveFrame& live) {
  // The frame as the terminal will show it: cut to the width, at most a screen high.
  const std::size_t skipped = live.rows.size() > rows_ ? live.rows.size() - rows_ : 0;
  std::vector<std::string> frame;
  frame.reserve(live.rows.size() - skipped);
  for (std::size_t i = skipped; i < live.rows.size(); ++i) {
    frame.push_back(to_ansi(truncate(live.rows[i], width())));
  }

  std::string out(kBeginSynchronized);
  out += kHideCursor;
  std::size_t first_changed = 0;
  if (!committed.empty()) {
    move_to_row(out, 0);
    out += '\r';
    out += kEraseBelow;
    for (const StyledLine& line : committed) {
      out += to_ansi(truncate(line, width()));
      out += "\r\n";
    }
    drawn_.clear();
  } else {
    while (first_changed < frame.size() && first_changed < drawn_.size() &&
           frame[first_changed] == drawn_[first_changed]) {
      ++first_changed;
    }
  }

  if (first_changed < frame.size() || frame.size() != drawn_.size()) {
    if (frame.empty()) {
      move_to_row(out, 0);
      out += '\r';
      out += kEraseBelow;
    } else {
      // Only rows went away: rewrite the last remaining row, then erase what is below it.
      first_changed = std::min(first_changed, frame.size() - 1);
      move_to_row(out, std::min(first_changed, drawn_.empty() ? 0 : drawn_.size() - 1));
      // Rows not yet on screen are reached by writing line feeds from the last drawn row.
      for (std::size_t row = cursor_row_; row < first_changed; ++row) out += "\r\n";
      for (std::size_t row = first_changed; row < frame.size(); ++row) {
        if (row > first_changed) out += "\r\n";
        // A row below the first change that is the same on screen is passed over, not rewritten
        // (a spinner tick changes one row among the editor and footer); the last row is always
        // written, so that erasing below starts after it.
        if (row < drawn_.size() && frame[row] == drawn_[row] && row + 1 < frame.size()) continue;
        out += '\r';
        out += frame[row];
        out += kEraseToEndOfLine;
      }
      cursor_row_ = frame.size() - 1;
      if (frame.size() < drawn_.size()) out += kEraseBelow;
    }
    drawn_ = std::move(frame);
  }

  if (live.cursor && live.cursor->row >= skipped && !drawn_.empty()) {
    move_to_row(out, std::min(live.cursor->row - skipped, drawn_.size() - 1));
    out += csi(std::min(live.cursor->column, width()) + 1, 'G');
    out += kShowCursor;
  }
  out += kEndSynchronized;
  write_(out);
}

void InlineRenderer::resize(std::size_t columns, std::size_t rows) {
  columns_ = std::max<std::size_t>(columns, 2);
  rows_ = std::max<std::size_t>(rows, 1);
  drawn_.clear();
  cursor_row_ = 0;
  write_("\x1b[H\x1b[2J\x1b[3J");
}

void InlineRenderer::forget_live_region() {
  drawn_.clear();
  cursor_row_ = 0;
}

void InlineRenderer::finish() {
  std::string out;
  if (!drawn_.empty()) {
    move_to_row(out, drawn_.size() - 1);
    out += "\r\n";
  }
  out += kShowCursor;
  drawn_.clear();
  cursor_row_ = 0;
  write_(out);
}

}  // namespace nib::ui
