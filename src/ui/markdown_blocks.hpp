#pragma once
// The parts of the Markdown renderer (ui/markdown.hpp) that do not depend on the parser: text
// made safe for the terminal, HTML entities, and the layout of code blocks, HTML blocks and
// tables into rows of a given width. Internal to ui/markdown; pure functions; thread-safe.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "ui/styled_text.hpp"

namespace nib::ui::md {

// Columns between tab stops in code and HTML blocks.
inline constexpr std::size_t kTabWidth = 4;
// Columns of a thematic break at most: a rule across a wide terminal reads as a frame.
inline constexpr std::size_t kRuleWidth = 40;

// Appends the spans of `more` to `line`.
void append_line(StyledLine& line, const StyledLine& more);

// Appends `text` to `line` in `style` so that it cannot move the cursor or change the
// terminal's state: control characters (C0, DEL, C1) become '?', invalid UTF-8 becomes U+FFFD,
// and tabs and newlines become spaces (inline text has no columns to align a tab to).
void append_inline(StyledLine& line, std::string_view text, Style style);

// The text an entity stands for ("&amp;" -> "&", "&#x27;" -> "'"), or the entity itself when
// its name is not known. The result may hold control characters: pass it to append_inline.
std::string decode_entity(std::string_view entity);

// A code block's rows: `language` (when not empty) dim on a row of its own, then each line of
// `code` in yellow, indented two columns, tabs expanded, cut (not wrapped) into rows of at most
// `width` columns. A last newline ends the last line rather than starting an empty one.
StyledLines code_rows(std::string_view code, std::string_view language, std::size_t width);

// A thematic break: a dim "─" rule across `width` columns, at most kRuleWidth.
StyledLine thematic_break(std::size_t width);

// An HTML block's rows: its literal lines, word-wrapped to `width`.
StyledLines html_rows(std::string_view html, std::size_t width);

enum class Align { kLeft, kCenter, kRight };

struct Table {
  std::vector<Align> alignments;              // one per column
  std::vector<std::vector<StyledLine>> rows;  // the header row first; cells already styled
};

// The table's rows, no wider than `width`: columns separated by " │ ", a "─┼─" rule under the
// header, cells padded to their column's alignment. The widest columns shrink (their cells
// wrap) when the table is too wide; when a column would be narrower than three, every body
// cell goes on rows of its own as "header: value" instead.
StyledLines table_rows(const Table& table, std::size_t width);

}  // namespace nib::ui::md
