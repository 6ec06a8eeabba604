// The splitter's grammar: lists, and-or lists, pipelines, subshells, groups, simple commands,
// redirections and here-documents. Words are scanned in shell_word_scan.cpp.

#include "permissions/shell_parser.hpp"

#include <algorithm>
#include <array>
#include <variant>

#include "permissions/limits.hpp"
#include "permissions/shell_chars.hpp"
#include "permissions/shell_wrappers.hpp"

namespace nib::permissions {
namespace {

// Reserved words this splitter does not follow: control structures and the like. `{`, `}`,
// `!` and `time` are handled by the grammar.
constexpr std::array<std::string_view, 17> kUnsupportedReservedWords = {
    "if",    "then",  "elif", "else", "fi",       "case",   "esac", "for", "select",
    "while", "until", "do",   "done", "function", "coproc", "[[",   "]]"};

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// `NAME=` or `NAME+=` at the start of the word as written (unquoted), the only form bash takes
// for an assignment. nullopt-like: 0 when not an assignment, else the length of the name.
std::size_t assignment_name_length(std::string_view source) {
  if (source.empty() || !is_name_start(source[0])) return 0;
  std::size_t i = 1;
  while (i < source.size() && is_name_char(source[i])) ++i;
  if (i < source.size() && source[i] == '=') return i;
  if (i + 1 < source.size() && source[i] == '+' && source[i + 1] == '=') return i;
  return 0;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (is_shell_blank(text.front()) || text.front() == '\n')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (is_shell_blank(text.back()) || text.back() == '\n')) {
    text.remove_suffix(1);
  }
  return text;
}

}  // namespace

ShellParser::ShellParser(std::string_view input, int depth) : input_(input), depth_(depth) {}

bool ShellParser::parse(std::vector<SimpleCommand>& out) {
  out_ = &out;
  if (input_.size() > kMaxSplitBytes) {
    return fail("the command is longer than " + std::to_string(kMaxSplitBytes / 1024) + " KiB");
  }
  if (depth_ > kMaxShellNesting) return fail("the command nests too deeply");
  if (!parse_list(ListEnd::kInput, true)) return false;
  if (!pending_.empty()) {
    return fail("the here-document ending with \"" + pending_.front().delimiter +
                "\" is not closed");
  }
  return true;
}

char ShellParser::peek(std::size_t ahead) const {
  return pos_ + ahead < input_.size() ? input_[pos_ + ahead] : '\0';
}

bool ShellParser::fail(std::string problem) {
  if (problem_.empty()) problem_ = std::move(problem);
  return false;
}

void ShellParser::skip_blanks() {
  while (!at_end()) {
    if (is_shell_blank(peek())) {
      ++pos_;
    } else if (peek() == '\\' && peek(1) == '\n') {
      pos_ += 2;
    } else {
      break;
    }
  }
}

bool ShellParser::skip_separating_space() {
  for (;;) {
    skip_blanks();
    if (peek() == '#') {
      while (!at_end() && peek() != '\n') ++pos_;
    }
    if (at_end() || peek() != '\n') return true;
    ++pos_;
    if (!read_here_documents()) return false;
  }
}

bool ShellParser::read_here_documents() {
  for (const PendingHereDocument& document : pending_) {
    for (;;) {
      if (at_end()) {
        return fail("the here-document ending with \"" + document.delimiter + "\" is not closed");
      }
      const std::size_t line_end = std::min(input_.find('\n', pos_), input_.size());
      std::string_view line = input_.substr(pos_, line_end - pos_);
      pos_ = std::min(line_end + 1, input_.size());
      if (document.strip_tabs) {
        while (!line.empty() && line.front() == '\t') line.remove_prefix(1);
      }
      if (line == document.delimiter) break;
      if (!document.quoted &&
          (line.find("$(") != std::string_view::npos || line.find('`') != std::string_view::npos)) {
        return fail("a here-document runs a command substitution");
      }
    }
  }
  pending_.clear();
  return true;
}

bool ShellParser::at_reserved_word(std::string_view word) const {
  if (input_.compare(pos_, word.size(), word) != 0) return false;
  const std::size_t after = pos_ + word.size();
  return after >= input_.size() || is_shell_delimiter(input_[after]);
}

bool ShellParser::at_list_end(ListEnd end) const {
  switch (end) {
    case ListEnd::kInput:
      return at_end();
    case ListEnd::kParen:
      return peek() == ')';
    case ListEnd::kBrace:
      return at_reserved_word("}");
  }
  return false;
}

bool ShellParser::nest(bool (ShellParser::*step)(ListEnd, bool), ListEnd end, bool allow_empty) {
  if (++depth_ > kMaxShellNesting) return fail("the command nests too deeply");
  const bool ok = (this->*step)(end, allow_empty);
  --depth_;
  return ok;
}

bool ShellParser::parse_list(ListEnd end, bool allow_empty) {
  std::size_t items = 0;
  for (;;) {
    if (!skip_separating_space()) return false;
    if (at_list_end(end)) break;
    if (at_end())
      return fail(end == ListEnd::kParen ? "a \"(\" is not closed" : "a \"{\" is not closed");
    if (!parse_and_or()) return false;
    ++items;
    skip_blanks();
    if (peek() == ';') {
      if (peek(1) == ';' || peek(1) == '&')
        return fail("\";;\" belongs to case, which is not supported");
      ++pos_;
    } else if (peek() == '&') {
      ++pos_;
    } else if (!at_end() && peek() != '\n' && peek() != '#' && !at_list_end(end)) {
      return fail(std::string("unexpected \"") + peek() + "\"");
    }
  }
  if (items == 0 && !allow_empty) return fail("an empty ( ) or { } group");
  return true;
}

bool ShellParser::parse_and_or() {
  if (!parse_pipeline()) return false;
  for (;;) {
    skip_blanks();
    if (!((peek() == '&' && peek(1) == '&') || (peek() == '|' && peek(1) == '|'))) return true;
    pos_ += 2;
    if (!skip_separating_space()) return false;
    if (!parse_pipeline()) return false;
  }
}

bool ShellParser::parse_pipeline() {
  skip_blanks();
  for (;;) {
    if (at_reserved_word("!")) {
      ++pos_;
    } else if (at_reserved_word("time")) {
      pos_ += 4;
      skip_blanks();
      if (at_reserved_word("-p")) pos_ += 2;
    } else {
      break;
    }
    skip_blanks();
  }
  if (!parse_command()) return false;
  for (;;) {
    skip_blanks();
    if (peek() != '|' || peek(1) == '|') return true;
    pos_ += peek(1) == '&' ? 2 : 1;
    if (!skip_separating_space()) return false;
    if (at_reserved_word("!")) return fail("\"!\" inside a pipeline");
    if (!parse_command()) return false;
  }
}

bool ShellParser::parse_command() {
  skip_blanks();
  if (at_end()) return fail("a command is missing at the end");
  if (out_->size() >= kMaxSimpleCommands) {
    return fail("more than " + std::to_string(kMaxSimpleCommands) + " simple commands");
  }
  if (peek() == '(') {
    if (peek(1) == '(') return fail("(( )) arithmetic commands are not supported");
    ++pos_;
    const std::size_t first = out_->size();
    if (!nest(&ShellParser::parse_list, ListEnd::kParen, false)) return false;
    ++pos_;  // ")"
    return parse_compound_tail(first);
  }
  if (at_reserved_word("{")) {
    ++pos_;
    const std::size_t first = out_->size();
    if (!nest(&ShellParser::parse_list, ListEnd::kBrace, false)) return false;
    ++pos_;  // "}"
    return parse_compound_tail(first);
  }
  if (!at_redirection() && is_shell_delimiter(peek())) {
    return fail(std::string("unexpected \"") + peek() + "\" where a command should be");
  }
  if (at_reserved_word("}")) return fail("unexpected \"}\"");
  for (std::string_view word : kUnsupportedReservedWords) {
    if (at_reserved_word(word)) return fail("\"" + std::string(word) + "\" is not supported");
  }
  return parse_simple_command();
}

// Redirections after ")" or "}" apply to every command inside.
bool ShellParser::parse_compound_tail(std::size_t first_command) {
  for (;;) {
    skip_blanks();
    if (!at_redirection()) break;
    Redirection redirection;
    if (!parse_redirection(redirection)) return false;
    for (std::size_t i = first_command; i < out_->size(); ++i) {
      (*out_)[i].redirections.push_back(redirection);
    }
  }
  if (at_end() || at_reserved_word("}")) return true;
  const char next = peek();
  if (next == '\n' || next == ';' || next == '&' || next == '|' || next == ')' || next == '#') {
    return true;
  }
  return fail("unexpected text after a ( ) or { } group");
}

bool ShellParser::at_redirection() const {
  std::size_t at = pos_;
  while (at < input_.size() && is_digit(input_[at])) ++at;
  if (at < input_.size() && at > pos_ && input_[at] != '<' && input_[at] != '>') return false;
  const char c = at < input_.size() ? input_[at] : '\0';
  const char next = at + 1 < input_.size() ? input_[at + 1] : '\0';
  if (c == '&') return at == pos_ && next == '>';
  return (c == '<' || c == '>') && next != '(';
}

bool ShellParser::parse_redirection(Redirection& redirection) {
  const std::size_t start = pos_;
  while (is_digit(peek())) ++pos_;
  if (pos_ > start) {
    redirection.fd =
        std::stoi(std::string(input_.substr(start, std::min<std::size_t>(pos_ - start, 9))));
  }
  // Longest first, so "<<-" is not read as "<<" and "-".
  static constexpr std::array<std::string_view, 12> kOperators = {
      "&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">|", ">&", ">"};
  for (std::string_view op : kOperators) {
    if (input_.compare(pos_, op.size(), op) == 0) {
      redirection.op = std::string(op);
      pos_ += op.size();
      break;
    }
  }
  skip_blanks();
  // "> 2>x": bash reads "2>" as the next redirection, leaving this one without a target;
  // "<#x" starts a comment.
  if (at_end() || is_shell_delimiter(peek()) || at_redirection() || peek() == '#') {
    return fail("the redirection \"" + redirection.op + "\" has no target");
  }
  if (!parse_word(redirection.target)) return false;
  if (redirection.op == "<<" || redirection.op == "<<-") {
    const std::string& source = redirection.target.source;
    const bool quoted = source.find_first_of("'\"\\") != std::string::npos;
    pending_.push_back({redirection.target.text, redirection.op == "<<-", quoted});
  }
  return true;
}

bool ShellParser::parse_simple_command() {
  SimpleCommand command;
  const std::size_t start = pos_;
  bool named = false;  // the command word has been seen: later NAME=x words are arguments
  for (;;) {
    skip_blanks();
    if (at_end()) break;
    if (at_redirection()) {
      Redirection redirection;
      if (!parse_redirection(redirection)) return false;
      command.redirections.push_back(std::move(redirection));
      continue;
    }
    const char c = peek();
    if (c == '|' || c == '&' || c == ';' || c == '\n' || c == ')' || c == '#') break;
    if (c == '(') {
      if (command.words.size() == command.assignment_count + 1 && command.redirections.empty()) {
        return fail("function definitions are not supported");
      }
      if (!named && command.assignment_count > 0)
        return fail("array assignments are not supported");
      return fail("unexpected \"(\"");
    }
    if (!named && at_reserved_word("}") && command.words.empty()) break;
    ShellWord word;
    const std::size_t word_start = pos_;
    if (!parse_word(word)) return false;
    const std::string_view written = input_.substr(word_start, pos_ - word_start);
    if (written.size() > 2 && written.front() == '{' && written.back() == '}' &&
        (peek() == '<' || peek() == '>')) {
      return fail("redirections into a {variable} are not supported");
    }
    if (!named && assignment_name_length(written) > 0) {
      command.words.push_back(std::move(word));
      ++command.assignment_count;
      continue;
    }
    if (!named && written.find('[') != std::string_view::npos &&
        written.find("]=") != std::string_view::npos && is_name_start(written[0])) {
      return fail("array element assignments are not supported");
    }
    named = true;
    command.words.push_back(std::move(word));
  }
  if (command.words.empty() && command.redirections.empty()) {
    return fail("a command is missing");
  }
  command.source = std::string(trim(input_.substr(start, pos_ - start)));
  auto resolved = resolve_command(std::move(command));
  if (!resolved.ok()) return fail(resolved.error());
  if (auto* simple = std::get_if<SimpleCommand>(&resolved.value())) {
    out_->push_back(std::move(*simple));
    return true;
  }
  const InlineScript& script = std::get<InlineScript>(resolved.value());
  std::vector<SimpleCommand> inner;
  ShellParser parser(script.text, depth_ + 1);
  if (!parser.parse(inner)) {
    return fail("in the script of \"" + script.shell + " -c\": " + parser.problem());
  }
  for (SimpleCommand& part : inner) out_->push_back(script.run(std::move(part)));
  return true;
}

}  // namespace nib::permissions
