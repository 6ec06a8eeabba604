#pragma once
// Character classes of bash's grammar, shared by the splitter's parser and word scanner
// (internal to src/permissions). Pure; thread-safe.

namespace nib::permissions {

inline bool is_shell_blank(char c) {
  return c == ' ' || c == '\t';
}

// Ends an unquoted word: a blank, a line end or an operator character.
inline bool is_shell_delimiter(char c) {
  return is_shell_blank(c) || c == '\n' || c == '|' || c == '&' || c == ';' || c == '(' ||
         c == ')' || c == '<' || c == '>';
}

inline bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
inline bool is_name_char(char c) {
  return is_name_start(c) || (c >= '0' && c <= '9');
}

}  // namespace nib::permissions
