#pragma once
// Text with terminal styles, the unit every part of the interactive screen renders into:
// a StyledLine is one screen row's worth of spans (before wrapping). Pure functions;
// thread-safe.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nib::ui {

// The 8 basic ANSI colours (plus bright black as gray): every terminal theme maps them to
// something readable, unlike fixed 256-colour or RGB values.
enum class Color : std::uint8_t { kDefault, kRed, kGreen, kYellow, kBlue, kMagenta, kCyan, kGray };

struct Style {
  Color color = Color::kDefault;
  bool bold = false;
  bool dim = false;
  bool italic = false;
  bool underline = false;
  bool inverse = false;
  bool operator==(const Style&) const = default;
};

struct Span {
  std::string text;  // UTF-8, no newlines or control characters
  Style style;
  bool operator==(const Span&) const = default;
};

struct StyledLine {
  std::vector<Span> spans;
  bool operator==(const StyledLine&) const = default;

  // Appends a span (merged into the last one when the style is the same).
  StyledLine& add(std::string_view text, Style style = {});
  std::size_t width() const;  // display columns
  std::string plain() const;  // the text without styles
};

using StyledLines = std::vector<StyledLine>;

// One line of plain text in one style.
StyledLine styled(std::string_view text, Style style = {});

// Breaks `line` into rows of at most `width` columns, at spaces where possible (a word longer
// than a row is cut). Spaces at a break are dropped. Continuation rows start with `indent`
// (counted in the width). An empty line gives one empty row.
StyledLines wrap(const StyledLine& line, std::size_t width, const StyledLine& indent = {});

// Cuts `line` to `width` columns, ending with "…" when something was cut.
StyledLine truncate(const StyledLine& line, std::size_t width);

// The line as terminal output: SGR sequences around each styled span, reset at the end.
std::string to_ansi(const StyledLine& line);

// Splits plain text into lines, expanding tabs to `tab_width` spaces and replacing other
// control characters (and invalid UTF-8) so they cannot move the cursor.
std::vector<std::string> printable_lines(std::string_view text, std::size_t tab_width = 4);

}  // namespace nib::ui
