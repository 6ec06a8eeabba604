#include "ui/markdown_blocks.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>

#include "util/display_width.hpp"
#include "util/utf8.hpp"

namespace nib::ui::md {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
constexpr Style kDim{.dim = true};
constexpr Style kCode{.color = Color::kYellow};
constexpr std::string_view kCodeIndent = "  ";
constexpr std::string_view kColumnSeparator = " │ ";
constexpr std::size_t kColumnSeparatorWidth = 3;
// Narrower than this, a column wraps its cells into slivers nobody can read.
constexpr std::size_t kMinColumnWidth = 3;

struct NamedEntity {
  std::string_view name;
  std::string_view text;
};

// The named entities that turn up in model output. md4c reports entities without decoding
// them and the full HTML list has over 2,000 names; an unknown one is shown as written.
constexpr NamedEntity kNamedEntities[] = {
    {"amp", "&"},         {"lt", "<"},     {"gt", ">"},     {"quot", "\""},     {"apos", "'"},
    {"nbsp", "\u00A0"},   {"copy", "©"},   {"reg", "®"},    {"trade", "™"},     {"hellip", "…"},
    {"mdash", "—"},       {"ndash", "–"},  {"lsquo", "‘"},  {"rsquo", "’"},     {"ldquo", "“"},
    {"rdquo", "”"},       {"laquo", "«"},  {"raquo", "»"},  {"bull", "•"},      {"middot", "·"},
    {"times", "×"},       {"divide", "÷"}, {"minus", "−"},  {"plusmn", "±"},    {"deg", "°"},
    {"micro", "µ"},       {"para", "¶"},   {"sect", "§"},   {"euro", "€"},      {"pound", "£"},
    {"yen", "¥"},         {"cent", "¢"},   {"larr", "←"},   {"rarr", "→"},      {"uarr", "↑"},
    {"darr", "↓"},        {"harr", "↔"},   {"lArr", "⇐"},   {"rArr", "⇒"},      {"hArr", "⇔"},
    {"le", "≤"},          {"ge", "≥"},     {"ne", "≠"},     {"asymp", "≈"},     {"infin", "∞"},
    {"check", "✓"},       {"frac12", "½"}, {"frac14", "¼"}, {"frac34", "¾"},    {"sup2", "²"},
    {"sup3", "³"},        {"alpha", "α"},  {"beta", "β"},   {"gamma", "γ"},     {"delta", "δ"},
    {"lambda", "λ"},      {"mu", "μ"},     {"pi", "π"},     {"sigma", "σ"},     {"omega", "ω"},
    {"Delta", "Δ"},       {"Sigma", "Σ"},  {"Omega", "Ω"},  {"ensp", "\u2002"}, {"emsp", "\u2003"},
    {"thinsp", "\u2009"},
};

bool is_control(std::string_view text, std::size_t pos, std::size_t length) {
  const auto byte = static_cast<unsigned char>(text[pos]);
  if (length == 1) return byte < 0x20 || byte == 0x7F;
  // C1 controls (U+0080-U+009F): some terminals act on them like ESC sequences.
  return length == 2 && byte == 0xC2 && static_cast<unsigned char>(text[pos + 1]) < 0xA0;
}

// The character at text[pos] as it may be shown (itself, '?' for a control character, U+FFFD
// for an invalid byte) and, in `length`, how many bytes it covers. Tab, newline and carriage
// return come back as themselves for the caller to lay out.
std::string_view shown_char(std::string_view text, std::size_t pos, std::size_t& length) {
  length = util::utf8_sequence_length(text, pos);
  if (length == 0) {
    length = 1;
    return kReplacement;
  }
  const char byte = text[pos];
  if (byte == '\t' || byte == '\n' || byte == '\r') return text.substr(pos, 1);
  if (is_control(text, pos, length)) return "?";
  return text.substr(pos, length);
}

// Verbatim text as printable lines: split at '\n' (a last one ends the last line), CR
// dropped, tabs expanded to the next stop.
std::vector<std::string> verbatim_lines(std::string_view text) {
  std::vector<std::string> lines(1);
  std::size_t column = 0;
  for (std::size_t pos = 0, length = 0; pos < text.size(); pos += length) {
    const std::string_view shown = shown_char(text, pos, length);
    if (shown == "\n") {
      lines.emplace_back();
      column = 0;
    } else if (shown == "\t") {
      const std::size_t spaces = kTabWidth - column % kTabWidth;
      lines.back().append(spaces, ' ');
      column += spaces;
    } else if (shown != "\r") {
      lines.back() += shown;
      column += util::display_width(shown);
    }
  }
  if (lines.size() > 1 && lines.back().empty()) lines.pop_back();
  return lines;
}

std::string repeat(std::string_view unit, std::size_t count) {
  std::string out;
  out.reserve(unit.size() * count);
  for (std::size_t i = 0; i < count; ++i) out += unit;
  return out;
}

// Column widths that fit `width` together with the separators, shrinking the widest columns
// first; nullopt when some column would have to be narrower than kMinColumnWidth.
std::optional<std::vector<std::size_t>> fit_columns(std::vector<std::size_t> widths,
                                                    std::size_t width) {
  const std::size_t separators = kColumnSeparatorWidth * (widths.size() - 1);
  if (separators >= width) return std::nullopt;
  const std::size_t budget = width - separators;
  const auto capped_total = [&widths](std::size_t cap) {
    std::size_t total = 0;
    for (const std::size_t column : widths) total += std::min(column, cap);
    return total;
  };
  std::size_t too_wide = *std::max_element(widths.begin(), widths.end());
  if (capped_total(too_wide) <= budget) return widths;
  if (capped_total(kMinColumnWidth) > budget) return std::nullopt;
  // The largest cap that fits: capped_total(fits) <= budget < capped_total(too_wide).
  std::size_t fits = kMinColumnWidth;
  while (too_wide - fits > 1) {
    const std::size_t middle = fits + (too_wide - fits) / 2;
    if (capped_total(middle) <= budget) {
      fits = middle;
    } else {
      too_wide = middle;
    }
  }
  // What the cap leaves over is less than one column for each capped column.
  std::size_t spare = budget - capped_total(fits);
  for (std::size_t& column : widths) {
    if (column <= fits) continue;
    column = fits + (spare > 0 ? 1 : 0);
    spare -= spare > 0 ? 1 : 0;
  }
  return widths;
}

void append_padded(StyledLine& row, const StyledLine& cell, std::size_t width, Align align) {
  const std::size_t gap = width - std::min(width, cell.width());
  const std::size_t before = align == Align::kRight ? gap : align == Align::kCenter ? gap / 2 : 0;
  row.add(std::string(before, ' '));
  append_line(row, cell);
  row.add(std::string(gap - before, ' '));
}

void append_table_row(StyledLines& out, const std::vector<StyledLine>& cells,
                      const std::vector<Align>& alignments,
                      const std::vector<std::size_t>& widths) {
  std::vector<StyledLines> wrapped;
  std::size_t height = 1;
  for (std::size_t column = 0; column < widths.size(); ++column) {
    wrapped.push_back(column < cells.size() ? wrap(cells[column], widths[column]) : StyledLines(1));
    height = std::max(height, wrapped.back().size());
  }
  const StyledLine empty;
  for (std::size_t line = 0; line < height; ++line) {
    StyledLine row;
    for (std::size_t column = 0; column < widths.size(); ++column) {
      if (column > 0) row.add(kColumnSeparator, kDim);
      const StyledLines& pieces = wrapped[column];
      append_padded(row, line < pieces.size() ? pieces[line] : empty, widths[column],
                    alignments[column]);
    }
    out.push_back(std::move(row));
  }
}

StyledLine header_rule(const std::vector<std::size_t>& widths) {
  std::string rule;
  for (std::size_t column = 0; column < widths.size(); ++column) {
    if (column > 0) rule += "─┼─";
    rule += repeat("─", widths[column]);
  }
  return styled(rule, kDim);
}

void append_wrapped(StyledLines& out, const StyledLine& line, std::size_t width) {
  for (StyledLine& row : wrap(line, width)) out.push_back(std::move(row));
}

// A table too narrow for its columns: one "header: value" line per cell, a blank row between
// body rows (just the header cells when there is no body).
StyledLines record_rows(const Table& table, std::size_t width) {
  const std::vector<StyledLine>& header = table.rows.front();
  StyledLines out;
  if (table.rows.size() == 1) {
    for (const StyledLine& cell : header) append_wrapped(out, cell, width);
    return out;
  }
  for (std::size_t row = 1; row < table.rows.size(); ++row) {
    if (row > 1) out.emplace_back();
    const std::vector<StyledLine>& cells = table.rows[row];
    for (std::size_t column = 0; column < cells.size(); ++column) {
      StyledLine line;
      if (column < header.size() && !header[column].spans.empty()) {
        append_line(line, header[column]);
        line.add(": ");
      }
      append_line(line, cells[column]);
      append_wrapped(out, line, width);
    }
  }
  return out;
}

}  // namespace

void append_line(StyledLine& line, const StyledLine& more) {
  for (const Span& span : more.spans) line.add(span.text, span.style);
}

void append_inline(StyledLine& line, std::string_view text, Style style) {
  if (text.empty()) return;
  // Straight into the last span's string: this runs for every piece of text in a reply.
  if (line.spans.empty() || line.spans.back().style != style) line.spans.push_back({{}, style});
  std::string& out = line.spans.back().text;
  for (std::size_t pos = 0, length = 0; pos < text.size(); pos += length) {
    const std::string_view shown = shown_char(text, pos, length);
    if (shown == "\t" || shown == "\n" || shown == "\r") {
      out += ' ';
    } else {
      out += shown;
    }
  }
}

std::string decode_entity(std::string_view entity) {
  if (entity.size() < 3 || entity.front() != '&' || entity.back() != ';') {
    return std::string(entity);
  }
  const std::string_view name = entity.substr(1, entity.size() - 2);
  if (name.front() == '#') {
    const bool hex = name.size() > 1 && (name[1] == 'x' || name[1] == 'X');
    const std::string_view digits = name.substr(hex ? 2 : 1);
    std::uint32_t codepoint = 0;
    const auto [end, error] =
        std::from_chars(digits.data(), digits.data() + digits.size(), codepoint, hex ? 16 : 10);
    if (digits.empty() || error != std::errc{} || end != digits.data() + digits.size()) {
      return std::string(entity);
    }
    // CommonMark: NUL, surrogates and what lies past Unicode stand for U+FFFD.
    if (codepoint == 0 || codepoint > 0x10FFFF || (codepoint >= 0xD800 && codepoint <= 0xDFFF)) {
      return std::string(kReplacement);
    }
    return util::encode_utf8(codepoint);
  }
  for (const NamedEntity& known : kNamedEntities) {
    if (known.name == name) return std::string(known.text);
  }
  return std::string(entity);
}

StyledLines code_rows(std::string_view code, std::string_view language, std::size_t width) {
  width = std::max<std::size_t>(width, 1);
  // A row too narrow for the indent keeps all its columns for the code.
  const std::string_view indent = width > kCodeIndent.size() ? kCodeIndent : "";
  const std::size_t columns = width - indent.size();
  StyledLines rows;
  if (!language.empty()) {
    StyledLine label = styled(indent);
    append_inline(label, language, kDim);
    rows.push_back(truncate(label, width));
  }
  if (code.empty()) return rows;
  for (const std::string& line : verbatim_lines(code)) {
    std::string_view rest = line;
    do {
      std::size_t length = util::prefix_fitting(rest, columns);
      if (length == 0 && !rest.empty()) util::decode_utf8(rest, 0, length);  // wider than a row
      StyledLine row = styled(indent);
      row.add(rest.substr(0, length), kCode);
      rows.push_back(std::move(row));
      rest.remove_prefix(length);
    } while (!rest.empty());
  }
  return rows;
}

StyledLine thematic_break(std::size_t width) {
  return styled(repeat("─", std::min(width, kRuleWidth)), kDim);
}

StyledLines html_rows(std::string_view html, std::size_t width) {
  StyledLines rows;
  for (const std::string& line : verbatim_lines(html)) append_wrapped(rows, styled(line), width);
  return rows;
}

StyledLines table_rows(const Table& table, std::size_t width) {
  const std::size_t columns = table.alignments.size();
  if (columns == 0 || table.rows.empty()) return {};
  std::vector<std::size_t> natural(columns, 1);
  for (const std::vector<StyledLine>& cells : table.rows) {
    for (std::size_t column = 0; column < std::min(columns, cells.size()); ++column) {
      natural[column] = std::max(natural[column], cells[column].width());
    }
  }
  const std::optional<std::vector<std::size_t>> widths = fit_columns(natural, width);
  if (!widths) return record_rows(table, std::max<std::size_t>(width, 1));
  StyledLines out;
  for (std::size_t row = 0; row < table.rows.size(); ++row) {
    append_table_row(out, table.rows[row], table.alignments, *widths);
    if (row == 0) out.push_back(header_rule(*widths));
  }
  return out;
}

}  // namespace nib::ui::md
