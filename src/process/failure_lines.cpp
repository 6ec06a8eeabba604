#include "process/failure_lines.hpp"

#include <array>
#include <cstdint>
#include <optional>

namespace nib::process {
namespace {

// Words longer than this are never one of the failure words, so they are not lowercased.
constexpr std::size_t kLongestFailureWord = 12;

constexpr bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
constexpr bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
// Every byte of every line is looked up here while the line is split into words.
constexpr std::array<bool, 256> kWordChars = [] {
  std::array<bool, 256> table{};
  for (int byte = 0; byte < 256; ++byte) {
    const auto c = static_cast<char>(byte);
    table[byte] = is_letter(c) || is_digit(c) || c == '_';
  }
  return table;
}();

bool is_word_char(char c) {
  return kWordChars[static_cast<unsigned char>(c)];
}
bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

std::string_view trim_start(std::string_view text) {
  std::size_t start = 0;
  while (start < text.size() && is_blank(text[start])) ++start;
  return text.substr(start);
}

std::string_view trim_end(std::string_view text) {
  while (!text.empty() && (is_blank(text.back()) || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

bool all_of(std::string_view text, bool (*test)(char)) {
  for (const char c : text) {
    if (!test(c)) return false;
  }
  return !text.empty();
}

std::uint64_t parse_count(std::string_view digits) {
  std::uint64_t value = 0;
  for (const char c : digits) value = value * 10 + static_cast<std::uint64_t>(c - '0');
  return value;
}

// The count written before the word at `start`, with at most one word between them ("3 failed",
// "0 tests failed", "(1 FAILED)"). Digits that belong to a time, version or path ("12:00:00
// ERROR") are no count.
std::optional<std::uint64_t> count_before(std::string_view text, std::size_t start) {
  std::size_t pos = start;
  for (int words_between = 0; words_between <= 1; ++words_between) {
    const std::size_t gap_end = pos;
    while (pos > 0 && text[pos - 1] == ' ') --pos;
    if (pos == gap_end) return std::nullopt;
    const std::size_t token_end = pos;
    while (pos > 0 && is_word_char(text[pos - 1])) --pos;
    if (pos > 0 && text[pos - 1] != ' ' && text[pos - 1] != '(' && text[pos - 1] != '[') {
      return std::nullopt;
    }
    const std::string_view token = text.substr(pos, token_end - pos);
    if (all_of(token, is_digit)) return parse_count(token);
    if (!all_of(token, is_letter)) return std::nullopt;
  }
  return std::nullopt;
}

// The count written after the word ending at `end`: "Failures: 0", "failed=0", "ERRORS 2".
std::optional<std::uint64_t> count_after(std::string_view text, std::size_t end) {
  std::size_t pos = end;
  while (pos < text.size() && text[pos] == ' ') ++pos;
  if (pos < text.size() && (text[pos] == ':' || text[pos] == '=')) ++pos;
  while (pos < text.size() && text[pos] == ' ') ++pos;
  if (pos == end) return std::nullopt;
  const std::size_t digits_start = pos;
  while (pos < text.size() && is_digit(text[pos])) ++pos;
  if (pos == digits_start) return std::nullopt;
  if (pos < text.size() && text[pos] != ' ' && text[pos] != ',' && text[pos] != ';' &&
      text[pos] != ')' && text[pos] != ']') {
    return std::nullopt;
  }
  return parse_count(text.substr(digits_start, pos - digits_start));
}

std::optional<std::uint64_t> count_of(std::string_view text, std::size_t start, std::size_t end) {
  if (auto before = count_before(text, start)) return before;
  return count_after(text, end);
}

// "3 failed", "failed", but not "0 failed" or "Failures: 0".
bool bare_or_nonzero(std::string_view text, std::size_t start, std::size_t end) {
  return count_of(text, start, end).value_or(1) > 0;
}

// "3 errors", "2 failing"; the word alone says nothing ("no errors", "error handling").
bool nonzero_count(std::string_view text, std::size_t start, std::size_t end) {
  return count_of(text, start, end).value_or(0) > 0;
}

// eslint's stylish format: "  3:10  error  'x' is defined but never used".
bool after_line_and_column(std::string_view text, std::size_t start) {
  std::size_t pos = start;
  const std::size_t gap_end = pos;
  while (pos > 0 && is_blank(text[pos - 1])) --pos;
  if (pos == gap_end) return false;
  const auto skip_digits = [&] {
    const std::size_t digits_end = pos;
    while (pos > 0 && is_digit(text[pos - 1])) --pos;
    return pos < digits_end;
  };
  if (!skip_digits() || pos == 0 || text[pos - 1] != ':') return false;
  --pos;
  return skip_digits();
}

// A class name such as ValueError, java.lang.IllegalStateException or ComparisonFailure, used as
// the report of one: followed by ":" or " [" (mocha's "AssertionError [ERR_ASSERTION]:"), or
// ending the line when it starts it (Java) or follows a location ("test_a.py:7: AssertionError").
bool names_an_exception(std::string_view text, std::size_t start, std::size_t end) {
  const std::string_view word = text.substr(start, end - start);
  // Every line's every word comes here: most leave at the last letter.
  if (word.size() < 6 || (word.back() != 'r' && word.back() != 'n' && word.back() != 'e')) {
    return false;
  }
  bool named = false;
  for (const std::string_view suffix : {"Error", "Exception", "Failure"}) {
    if (word.size() > suffix.size() && word.ends_with(suffix)) {
      const char before = word[word.size() - suffix.size() - 1];
      named = is_letter(before) || is_digit(before);
      break;
    }
  }
  if (!named) return false;
  const std::string_view rest = text.substr(end);
  if (rest.starts_with(':') || rest.starts_with(" [")) return true;
  if (!trim_end(rest).empty()) return false;
  const std::string_view before = text.substr(0, start);
  if (before.ends_with(": ")) return true;
  for (const char c : before) {
    if (!is_word_char(c) && c != '.' && c != '$') return false;
  }
  return true;
}

// Go's t.Error and t.Fatal: "    parse_test.go:41: Parse(\"1 +\") = nil, want an error", where
// "parse_test" is the line's first word and ends at `word_end`.
bool is_go_test_report(std::string_view text, std::size_t word_end) {
  const std::string_view rest = text.substr(word_end);
  if (!rest.starts_with(".go:")) return false;
  std::size_t pos = 4;
  while (pos < rest.size() && is_digit(rest[pos])) ++pos;
  return pos > 4 && rest.substr(pos).starts_with(": ");
}

// The first letters of the words word_reports_failure looks for (as they may be written: "Caused"
// and "core", but only "Traceback").
constexpr std::array<bool, 256> kFailureWordStarts = [] {
  std::array<bool, 256> table{};
  for (const char c : std::string_view("cCeEfFpPSTuw")) table[static_cast<unsigned char>(c)] = true;
  return table;
}();

// False for nearly every word of a line, cheaply: one that starts with none of those letters and
// cannot end a class name (...Error, ...Exception, ...Failure, ...Sanitizer) or a Go test file
// (parse_test.go).
bool may_report_failure(std::string_view text, std::size_t start, std::size_t end) {
  if (kFailureWordStarts[static_cast<unsigned char>(text[start])]) return true;
  const char last = text[end - 1];
  return (end - start >= 6 && (last == 'r' || last == 'n' || last == 'e')) ||
         (start == 0 && last == 't');
}

// The word "error" at text[start, end): ERROR alone says it; otherwise it needs a colon or a code
// after it ("error:", "error[E0308]", tsc's "error TS2322", MSVC's "error C2065"), eslint's
// line and column before it, or a count.
bool error_reports_failure(std::string_view text, std::size_t start, std::size_t end, bool upper) {
  if (upper) return bare_or_nonzero(text, start, end);
  const std::string_view rest = text.substr(end);
  if (rest.starts_with(':') || rest.starts_with('[')) return true;
  for (const std::string_view code : {" TS", " C", " LNK"}) {
    if (rest.starts_with(code) && rest.size() > code.size() && is_digit(rest[code.size()])) {
      return true;
    }
  }
  if (rest.starts_with(' ') && after_line_and_column(text, start)) return true;
  return nonzero_count(text, start, end);
}

// One word of the line, text[start, end), read in its context.
bool word_reports_failure(std::string_view text, std::size_t start, std::size_t end) {
  const std::string_view word = text.substr(start, end - start);
  if (names_an_exception(text, start, end)) return true;
  if (start == 0 && word.back() == 't' && word.ends_with("_test") && is_go_test_report(text, end)) {
    return true;
  }
  // Part of a flag, a name or a path: -Werror, on-failure, self.failed, logs/failed.txt,
  // failure-report.html, errors.go.
  const auto joins = [](char c) { return c == '-' || c == '.' || c == '/'; };
  if (start > 0 && joins(text[start - 1])) return false;
  const std::string_view rest = text.substr(end);
  if (rest.size() > 1 && joins(rest[0]) && is_word_char(rest[1])) return false;
  if (word.back() == 'r' && word.ends_with("Sanitizer") && rest.starts_with(':')) {
    return true;  // ASan, TSan, UBSan
  }
  if (word.size() < 3 || word.size() > kLongestFailureWord) return false;
  std::array<char, kLongestFailureWord> buffer{};
  for (std::size_t i = 0; i < word.size(); ++i) {
    const char c = word[i];
    buffer[i] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  const std::string_view lower(buffer.data(), word.size());
  const bool upper = all_of(word, [](char c) { return c >= 'A' && c <= 'Z'; });

  switch (lower[0]) {
    case 'f':
      if (lower == "failed" || lower == "failure" || lower == "failures" || word == "FAIL" ||
          word == "FATAL") {
        return bare_or_nonzero(text, start, end);
      }
      if (lower == "failing") {
        return upper ? bare_or_nonzero(text, start, end) : nonzero_count(text, start, end);
      }
      return lower == "fatal" && (rest.starts_with(':') || rest.starts_with(" error"));
    case 'e':
      if (lower == "error") return error_reports_failure(text, start, end, upper);
      if (lower == "errors") {
        return upper ? bare_or_nonzero(text, start, end) : nonzero_count(text, start, end);
      }
      if (word == "ERR") return rest.starts_with('!');  // npm ERR!
      return word == "Exception" && rest.starts_with(" in thread");
    case 'p':
      if (word == "PANIC") return bare_or_nonzero(text, start, end);
      if (word == "panic") return start == 0 && rest.starts_with(':');  // Go
      return word == "panicked" && rest.starts_with(" at");             // Rust
    case 't':
      return word == "Traceback" && rest.starts_with(" (most recent call last)");
    case 'c':
      if (word == "Caused") return start == 0 && rest.starts_with(" by:");
      if (word == "core") return rest.starts_with(" dumped");
      return word == "CMake" && rest.starts_with(" Error");
    case 's':
      return word == "Segmentation" && rest.starts_with(" fault");
    case 'u':
      return word == "undefined" && rest.starts_with(" reference to");  // the linker
    case 'w':
      return word == "warnings" && rest.starts_with(" being treated as errors");  // gcc -Werror
    default:
      return false;
  }
}

// make: *** [Makefile:3: all] Error 1   /   make[2]: *** ...   /   gmake: ***
bool is_make_error(std::string_view text) {
  std::size_t pos = 0;
  if (text.starts_with("gmake")) {
    pos = 5;
  } else if (text.starts_with("make")) {
    pos = 4;
  } else {
    return false;
  }
  if (pos < text.size() && text[pos] == '[') {
    ++pos;
    while (pos < text.size() && is_digit(text[pos])) ++pos;
    if (pos >= text.size() || text[pos] != ']') return false;
    ++pos;
  }
  return text.substr(pos).starts_with(": ***");
}

// Jest's ✕ and ●, Vitest's × and ✗, and the other crosses test runners put before a failure.
bool starts_with_failure_mark(std::string_view text) {
  for (const std::string_view mark : {"✕ ", "✗ ", "✘ ", "✖ ", "× "}) {
    if (text.starts_with(mark)) return true;
  }
  return text.starts_with("● ") && !text.starts_with("● Console");
}

bool has_failure_marker(std::string_view line, std::string_view text) {
  // Checked by the first byte, since every line comes here.
  switch (text[0]) {
    case 'E':
      if (line.starts_with("E   ")) return true;  // pytest explains a failed assertion
      break;
    case 'n':
      if (text.starts_with("not ok ") || text.starts_with("npm error ")) return true;
      break;
    case 'm':
    case 'g':
      if (is_make_error(text)) return true;
      break;
    default:
      if (static_cast<unsigned char>(text[0]) >= 0x80 && starts_with_failure_mark(text)) {
        return true;
      }
      break;
  }
  for (std::size_t pos = 0; pos < text.size();) {
    if (!is_word_char(text[pos])) {
      ++pos;
      continue;
    }
    std::size_t end = pos;
    while (end < text.size() && is_word_char(text[end])) ++end;
    if (may_report_failure(text, pos, end) && word_reports_failure(text, pos, end)) return true;
    pos = end;
  }
  return false;
}

// Lines that report a pass or a start: never failures, however their test is named.
bool reports_success(std::string_view text) {
  for (const std::string_view start :
       {"✓", "✔", "√", "[       OK ]", "[ RUN      ]", "[  PASSED  ]", "[  SKIPPED ]", "--- PASS",
        "--- SKIP", "=== RUN", "=== PAUSE", "=== CONT", "=== NAME"}) {
    if (text.starts_with(start)) return true;
  }
  for (const std::string_view word : {"PASS", "ok"}) {  // Jest, Go and TAP
    if (text.starts_with(word) && (text.size() == word.size() || is_blank(text[word.size()]))) {
      return true;
    }
  }
  std::string_view end = trim_end(text);
  // pytest -v ends a line with its progress: "test_a.py::test_x PASSED   [ 50%]".
  if (end.ends_with("%]")) end = trim_end(end.substr(0, end.rfind('[')));
  for (const std::string_view suffix : {" ... ok", " ... ignored", " ... skipped", " PASSED"}) {
    if (end.ends_with(suffix)) return true;
  }
  return false;
}

// Go's stack frames: "main.main()", "github.com/x/y.(*T).Run(0xc000007860)", "panic({...})".
bool is_go_frame(std::string_view line) {
  if (line.starts_with("goroutine ") || line.starts_with("created by ") ||
      line.starts_with("panic(")) {
    return true;
  }
  const std::size_t paren = line.find('(');
  if (paren == std::string_view::npos || paren == 0 || !trim_end(line).ends_with(')')) {
    return false;
  }
  const std::string_view callee = line.substr(0, paren);
  return callee.find(' ') == std::string_view::npos && callee.find('.') != std::string_view::npos;
}

// rustc's and gcc's source gutter: "12 |     let x = 1;".
bool is_source_gutter(std::string_view line) {
  std::size_t pos = 0;
  while (pos < line.size() && is_digit(line[pos])) ++pos;
  return pos > 0 && line.substr(pos).starts_with(" |");
}

}  // namespace

bool looks_like_failure(std::string_view line) {
  const std::string_view text = trim_start(line);
  if (text.empty() || !has_failure_marker(line, text)) return false;
  return !reports_success(text);
}

bool continues_block(std::string_view line) {
  const std::string_view text = trim_start(line);
  if (text.empty()) return true;
  if (reports_success(text)) return false;
  if (text.size() < line.size()) return true;  // indented
  return line.starts_with('>') || line.starts_with('|') || line.starts_with("E ") ||
         is_source_gutter(line) || is_go_frame(line);
}

}  // namespace nib::process
