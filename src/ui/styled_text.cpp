#include "ui/styled_text.hpp"

#include <algorithm>

#include "util/display_width.hpp"

namespace nib::ui {
namespace {

// One character of a line, with the style it is drawn in.
struct Cell {
  std::string_view bytes;
  const Style* style;
  std::size_t width;
  bool is_space() const { return bytes == " "; }
};

std::vector<Cell> cells_of(const StyledLine& line) {
  std::vector<Cell> cells;
  for (const Span& span : line.spans) {
    const std::string_view text = span.text;
    for (std::size_t pos = 0; pos < text.size();) {
      std::size_t length = 0;
      const int width = util::codepoint_width(util::decode_utf8(text, pos, length));
      cells.push_back({text.substr(pos, length), &span.style, static_cast<std::size_t>(width)});
      pos += length;
    }
  }
  return cells;
}

StyledLine line_of(const StyledLine& prefix, std::vector<Cell>::const_iterator begin,
                   std::vector<Cell>::const_iterator end) {
  StyledLine line = prefix;
  for (auto cell = begin; cell != end; ++cell) line.add(cell->bytes, *cell->style);
  return line;
}

void append_sgr(std::string& out, const Style& style) {
  static constexpr const char* kColorCodes[] = {"", "31", "32", "33", "34", "35", "36", "90"};
  std::string codes;
  const auto add = [&codes](const char* code) {
    if (!codes.empty()) codes += ';';
    codes += code;
  };
  if (style.bold) add("1");
  if (style.dim) add("2");
  if (style.italic) add("3");
  if (style.underline) add("4");
  if (style.inverse) add("7");
  if (style.color != Color::kDefault) add(kColorCodes[static_cast<int>(style.color)]);
  if (!codes.empty()) out += "\x1b[" + codes + "m";
}

}  // namespace

StyledLine& StyledLine::add(std::string_view text, Style style) {
  if (text.empty()) return *this;
  if (!spans.empty() && spans.back().style == style) {
    spans.back().text += text;
  } else {
    spans.push_back({std::string(text), style});
  }
  return *this;
}

std::size_t StyledLine::width() const {
  std::size_t columns = 0;
  for (const Span& span : spans) columns += util::display_width(span.text);
  return columns;
}

std::string StyledLine::plain() const {
  std::string text;
  for (const Span& span : spans) text += span.text;
  return text;
}

StyledLine styled(std::string_view text, Style style) {
  StyledLine line;
  line.add(text, style);
  return line;
}

StyledLines wrap(const StyledLine& line, std::size_t width, const StyledLine& indent) {
  width = std::max<std::size_t>(width, 1);
  const std::size_t indent_width = indent.width() < width ? indent.width() : 0;
  const StyledLine continuation = indent_width > 0 ? indent : StyledLine{};
  const std::vector<Cell> cells = cells_of(line);

  StyledLines rows;
  auto row_begin = cells.begin();
  std::size_t available = width;
  while (true) {
    // The longest run of cells from row_begin that fits, and the last space within it.
    auto end = row_begin;
    std::size_t used = 0;
    auto last_space = cells.end();
    while (end != cells.end() && used + end->width <= available) {
      if (end->is_space()) last_space = end;
      used += end->width;
      ++end;
    }
    if (end == cells.end()) {
      rows.push_back(line_of(rows.empty() ? StyledLine{} : continuation, row_begin, end));
      break;
    }
    // Break at the space that stopped the row, else at the last space in it, else mid-word.
    auto row_end = end;
    auto next = end;
    if (end->is_space()) {
      next = end + 1;
    } else if (last_space != cells.end() && last_space != row_begin) {
      row_end = last_space;
      next = last_space + 1;
    }
    if (row_end == row_begin) {  // a single character wider than the row
      row_end = next = row_begin + 1;
    }
    auto trimmed_end = row_end;
    while (trimmed_end != row_begin && (trimmed_end - 1)->is_space()) --trimmed_end;
    rows.push_back(line_of(rows.empty() ? StyledLine{} : continuation, row_begin, trimmed_end));
    while (next != cells.end() && next->is_space()) ++next;
    if (next == cells.end()) break;
    row_begin = next;
    available = width - indent_width;
  }
  return rows;
}

StyledLine truncate(const StyledLine& line, std::size_t width) {
  if (line.width() <= width) return line;
  if (width == 0) return {};
  const std::vector<Cell> cells = cells_of(line);
  auto end = cells.begin();
  std::size_t used = 0;
  while (end != cells.end() && used + end->width <= width - 1) used += (end++)->width;
  StyledLine cut = line_of({}, cells.begin(), end);
  cut.add("…", end == cells.begin() ? Style{} : *(end - 1)->style);
  return cut;
}

std::string to_ansi(const StyledLine& line) {
  std::string out;
  for (const Span& span : line.spans) {
    if (span.style == Style{}) {
      out += span.text;
      continue;
    }
    append_sgr(out, span.style);
    out += span.text;
    out += "\x1b[0m";
  }
  return out;
}

std::vector<std::string> printable_lines(std::string_view text, std::size_t tab_width) {
  std::vector<std::string> lines(1);
  std::size_t column = 0;  // of the line being built, for tab stops
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t length = 0;
    const char32_t codepoint = util::decode_utf8(text, pos, length);
    const char byte = text[pos];
    if (byte == '\n') {
      lines.emplace_back();
      column = 0;
    } else if (byte == '\t') {
      lines.back().append(tab_width - column % tab_width, ' ');
      column += tab_width - column % tab_width;
    } else if (byte == '\r') {
      // A lone CR (progress bars) would overwrite the line; a CRLF's CR is simply dropped.
    } else if (codepoint < 0x20 || codepoint == 0x7F) {
      lines.back() += '?';
      ++column;
    } else if (codepoint == 0xFFFD && length == 1) {
      lines.back() += "\xEF\xBF\xBD";  // an invalid byte
      ++column;
    } else {
      lines.back().append(text.substr(pos, length));
      column += static_cast<std::size_t>(util::codepoint_width(codepoint));
    }
    pos += length;
  }
  return lines;
}

}  // namespace nib::ui
