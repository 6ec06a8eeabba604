// The splitter's word scanner: one word of a command line as bash reads it — quotes removed,
// backslashes applied, and the parts known only at run time (expansions, substitutions, globs,
// tildes, brace expansions) kept as written and marked opaque. Substitutions are parsed as
// commands of their own and added to the command list. Part of ShellParser
// (shell_parser.hpp).

#include <cstdint>
#include <string>

#include "permissions/shell_chars.hpp"
#include "permissions/shell_parser.hpp"

namespace nib::permissions {
namespace {

bool is_octal(char c) {
  return c >= '0' && c <= '7';
}
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
// Parameters written as one character after "$": $1, $@, $?, ...
bool is_special_parameter(char c) {
  return (c >= '0' && c <= '9') || c == '@' || c == '*' || c == '#' || c == '?' || c == '-' ||
         c == '$' || c == '!';
}

}  // namespace

void ShellParser::append(ShellWord& word, char c, bool opaque) const {
  word.text.push_back(c);
  word.opaque.push_back(opaque || pos_ < opaque_until_);
}

void ShellParser::append_opaque_source(ShellWord& word, std::size_t start) const {
  for (char c : input_.substr(start, pos_ - start)) {
    word.text.push_back(c);
    word.opaque.push_back(true);
  }
}

// Where the brace expansion opened at `open` closes (one past its "}"), or 0 when the braces
// there are literal ("{}", "{a}", an unclosed "{"). A brace expansion needs an unquoted "," or
// ".." inside; quotes end the look-ahead (a rare case, which then stays literal text, never
// less opaque than bash would make it: the quoted part is still literal for bash).
std::size_t ShellParser::brace_expansion_end(std::size_t open) const {
  int depth = 0;
  bool expands = false;
  for (std::size_t i = open; i < input_.size(); ++i) {
    const char c = input_[i];
    if (is_shell_delimiter(c) || c == '\'' || c == '"' || c == '\\' || c == '$' || c == '`')
      return 0;
    if (c == '{') ++depth;
    if (c == ',' && depth == 1) expands = true;
    if (c == '.' && i + 1 < input_.size() && input_[i + 1] == '.' && depth == 1) expands = true;
    if (c == '}' && --depth == 0) return expands ? i + 1 : 0;
  }
  return 0;
}

bool ShellParser::parse_word(ShellWord& word) {
  const std::size_t start = pos_;
  while (!at_end()) {
    const char c = peek();
    if ((c == '<' || c == '>') && peek(1) == '(') {
      if (!scan_substitution(word, pos_, 2)) return false;
      continue;
    }
    if (is_shell_delimiter(c)) break;
    switch (c) {
      case '\\':
        if (pos_ + 1 >= input_.size()) return fail("the command ends with a backslash");
        if (peek(1) == '\n') {
          pos_ += 2;
        } else {
          ++pos_;
          append(word, peek(), false);
          ++pos_;
        }
        break;
      case '\'':
        if (!scan_single_quoted(word)) return false;
        break;
      case '"':
        if (!scan_double_quoted(word)) return false;
        break;
      case '$':
        if (!scan_dollar(word, false)) return false;
        break;
      case '`':
        if (!scan_backquoted(word, false)) return false;
        break;
      case '*':
      case '?':
        append(word, c, true);
        ++pos_;
        break;
      case '[': {
        // A glob only when a "]" closes it in the same word: "[" alone is the test command.
        std::size_t close = pos_ + 1;
        while (close < input_.size() && !is_shell_delimiter(input_[close]) &&
               input_[close] != ']') {
          ++close;
        }
        append(word, c, close < input_.size() && input_[close] == ']');
        ++pos_;
        break;
      }
      case '~': {
        const bool expands = pos_ == start || word.text.empty() || word.text.back() == '=' ||
                             word.text.back() == ':';
        append(word, c, expands);
        ++pos_;
        break;
      }
      case '{':
        if (const std::size_t end = brace_expansion_end(pos_); end > 0) opaque_until_ = end;
        append(word, c, false);
        ++pos_;
        break;
      default:
        append(word, c, false);
        ++pos_;
    }
  }
  word.source = std::string(input_.substr(start, pos_ - start));
  if (word.source.empty()) return fail("a word is missing");
  return true;
}

bool ShellParser::scan_single_quoted(ShellWord& word) {
  const std::size_t close = input_.find('\'', pos_ + 1);
  if (close == std::string_view::npos) return fail("a single quote is not closed");
  for (++pos_; pos_ < close; ++pos_) append(word, peek(), false);
  ++pos_;
  return true;
}

bool ShellParser::scan_double_quoted(ShellWord& word) {
  ++pos_;
  for (;;) {
    if (at_end()) return fail("a double quote is not closed");
    const char c = peek();
    if (c == '"') {
      ++pos_;
      return true;
    }
    if (c == '\\') {
      const char next = peek(1);
      if (next == '\n') {
        pos_ += 2;
      } else if (next == '$' || next == '`' || next == '"' || next == '\\') {
        ++pos_;
        append(word, next, false);
        ++pos_;
      } else {
        append(word, c, false);
        ++pos_;
      }
    } else if (c == '$') {
      if (!scan_dollar(word, true)) return false;
    } else if (c == '`') {
      if (!scan_backquoted(word, true)) return false;
    } else {
      append(word, c, false);
      ++pos_;
    }
  }
}

// $'...': bash's ANSI-C quoting. \u, \U and \c depend on the locale or are rarely used; they
// stay opaque rather than guessed.
bool ShellParser::scan_ansi_c_quoted(ShellWord& word) {
  pos_ += 2;
  bool truncated = false;  // after a NUL bash drops the rest of the string
  for (;;) {
    if (at_end()) return fail("a $'...' quote is not closed");
    const char c = peek();
    if (c == '\'') {
      ++pos_;
      return true;
    }
    if (c != '\\') {
      if (!truncated) append(word, c, false);
      ++pos_;
      continue;
    }
    const char e = peek(1);
    if (e == '\0' && pos_ + 1 >= input_.size()) return fail("a $'...' quote is not closed");
    const std::size_t escape_start = pos_;
    pos_ += 2;
    int value = -1;
    switch (e) {
      case 'a':
        value = '\a';
        break;
      case 'b':
        value = '\b';
        break;
      case 'e':
      case 'E':
        value = 0x1b;
        break;
      case 'f':
        value = '\f';
        break;
      case 'n':
        value = '\n';
        break;
      case 'r':
        value = '\r';
        break;
      case 't':
        value = '\t';
        break;
      case 'v':
        value = '\v';
        break;
      case '\\':
      case '\'':
      case '"':
      case '?':
        value = e;
        break;
      case 'x': {
        int digits = 0;
        value = 0;
        while (digits < 2 && hex_value(peek()) >= 0) {
          value = value * 16 + hex_value(peek());
          ++pos_;
          ++digits;
        }
        if (digits == 0) {
          if (!truncated) {
            append(word, '\\', false);
            append(word, 'x', false);
          }
          continue;
        }
        break;
      }
      case 'u':
      case 'U':
      case 'c': {
        if (e == 'c' && !at_end()) ++pos_;
        const int max_digits = e == 'u' ? 4 : e == 'U' ? 8 : 0;
        for (int digits = 0; digits < max_digits && hex_value(peek()) >= 0; ++digits) ++pos_;
        if (!truncated) append_opaque_source(word, escape_start);
        continue;
      }
      default:
        if (is_octal(e)) {
          value = e - '0';
          for (int digits = 1; digits < 3 && is_octal(peek()); ++digits, ++pos_) {
            value = value * 8 + (peek() - '0');
          }
          value &= 0xff;
        }
    }
    if (value < 0) {
      if (!truncated) {
        append(word, '\\', false);
        append(word, e, false);
      }
    } else if (value == 0) {
      truncated = true;
    } else if (!truncated) {
      append(word, static_cast<char>(static_cast<std::uint8_t>(value)), false);
    }
  }
}

bool ShellParser::scan_dollar(ShellWord& word, bool in_double_quotes) {
  const std::size_t start = pos_;
  const char next = peek(1);
  if (next == '\'' && !in_double_quotes) return scan_ansi_c_quoted(word);
  if (next == '"' && !in_double_quotes) {
    ++pos_;  // $"...": a translated string, literal without a message catalogue
    return scan_double_quoted(word);
  }
  if (next == '(') {
    if (peek(2) == '(') return scan_arithmetic(word);
    return scan_substitution(word, start, 2);
  }
  if (next == '{') return scan_braced_expansion(word);
  if (is_name_start(next)) {
    ++pos_;
    while (is_name_char(peek())) ++pos_;
    append_opaque_source(word, start);
    return true;
  }
  if (is_special_parameter(next)) {
    pos_ += 2;
    append_opaque_source(word, start);
    return true;
  }
  append(word, '$', false);
  ++pos_;
  return true;
}

// $( ... ), <( ... ), >( ... ): the commands inside are parsed in place, as commands of their
// own; the word holds the substitution as written, opaque.
bool ShellParser::scan_substitution(ShellWord& word, std::size_t start, std::size_t skip) {
  pos_ = start + skip;
  const std::size_t saved_opaque_until = opaque_until_;
  if (!nest(&ShellParser::parse_list, ListEnd::kParen, true)) return false;
  ++pos_;  // ")"
  opaque_until_ = saved_opaque_until;
  append_opaque_source(word, start);
  return true;
}

// ${...}: opaque; one hiding a substitution (${x:-$(cmd)}) is not followed.
bool ShellParser::scan_braced_expansion(ShellWord& word) {
  const std::size_t start = pos_;
  pos_ += 2;
  int depth = 1;
  while (!at_end() && depth > 0) {
    const char c = peek();
    if (c == '\\') {
      pos_ += 2;
      continue;
    }
    if (c == '\'' || c == '"') {  // a quoted "}" does not close it
      const std::size_t close = input_.find(c, pos_ + 1);
      if (close == std::string_view::npos) return fail("a quote inside ${ is not closed");
      if (c == '"' &&
          input_.substr(pos_, close - pos_).find_first_of("\\$`") != std::string_view::npos) {
        return fail("a ${...} expansion with expansions in double quotes is not supported");
      }
      pos_ = close + 1;
      continue;
    }
    if (c == '`' || (c == '$' && peek(1) == '(')) {
      return fail("a ${...} expansion runs a command substitution");
    }
    if (c == '{') ++depth;
    if (c == '}') --depth;
    ++pos_;
  }
  if (depth > 0) return fail("a ${ is not closed");
  append_opaque_source(word, start);
  return true;
}

// $(( ... )): opaque. Bash reads "$((" as a command substitution of a subshell when no "))"
// closes it; rather than guess which, a "))" that does not close at depth two, or a
// substitution inside, is not followed.
bool ShellParser::scan_arithmetic(ShellWord& word) {
  const std::size_t start = pos_;
  pos_ += 3;
  int depth = 2;
  while (!at_end()) {
    const char c = peek();
    if (c == '`' || (c == '$' && peek(1) == '(')) {
      return fail("a $(( )) expansion runs a command substitution");
    }
    if (c == ';' || c == '\n') return fail("a $(( is not a plain arithmetic expansion");
    if (c == '(') ++depth;
    if (c == ')') {
      if (depth == 2) {
        if (peek(1) != ')') return fail("a $(( is not a plain arithmetic expansion");
        pos_ += 2;
        append_opaque_source(word, start);
        return true;
      }
      --depth;
    }
    ++pos_;
  }
  return fail("a $(( is not closed");
}

// `...`: the text between the backquotes, with bash's backslash rules applied, is parsed as a
// command line of its own.
bool ShellParser::scan_backquoted(ShellWord& word, bool in_double_quotes) {
  const std::size_t start = pos_;
  ++pos_;
  std::string inner;
  for (;;) {
    if (at_end()) return fail("a backquote is not closed");
    const char c = peek();
    if (c == '`') break;
    if (c == '\\' && pos_ + 1 < input_.size()) {
      const char next = peek(1);
      if (next == '$' || next == '`' || next == '\\' || (in_double_quotes && next == '"')) {
        inner.push_back(next);
        pos_ += 2;
        continue;
      }
    }
    inner.push_back(c);
    ++pos_;
  }
  ++pos_;
  ShellParser nested(inner, depth_ + 1);
  if (!nested.parse(*out_)) return fail(nested.problem());
  append_opaque_source(word, start);
  return true;
}

}  // namespace nib::permissions
