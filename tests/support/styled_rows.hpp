#pragma once
// Styled rows as plain text, one row per line, for comparing what the UI would draw.

#include <string>

#include "ui/styled_text.hpp"

namespace nib::testing {

inline std::string text_of(const ui::StyledLines& rows) {
  std::string out;
  for (const ui::StyledLine& row : rows) out += row.plain() + "\n";
  return out;
}

}  // namespace nib::testing
