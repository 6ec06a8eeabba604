#pragma once
// The splitter's parser (internal to src/permissions; the API is shell_split.hpp): a
// recursive-descent reading of bash's grammar over one command line, producing its simple
// commands. Words are scanned here too (quotes, expansions, substitutions), because in bash
// what a character means depends on where the parser is. Each finished simple command goes
// through resolve_command (shell_wrappers.hpp) before it is kept; the script of a `bash -c` it
// finds there is parsed here, one level deeper.
//
// One parser reads one text once; not thread-safe (it is a local of split_command).

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "permissions/shell_command.hpp"

namespace nib::permissions {

class ShellParser {
 public:
  // `depth`: how deeply this text is nested already (a backquoted command, a `bash -c` script).
  ShellParser(std::string_view input, int depth);

  // Appends the simple commands of the whole input to `out`; false (problem() says why) when
  // the input is not understood, in which case `out` holds a partial list to be discarded.
  bool parse(std::vector<SimpleCommand>& out);
  const std::string& problem() const { return problem_; }

 private:
  enum class ListEnd { kInput, kParen, kBrace };
  struct PendingHereDocument {
    std::string delimiter;
    bool strip_tabs = false;  // <<-
    bool quoted = false;      // the body is not expanded
  };

  // Grammar.
  bool parse_list(ListEnd end, bool allow_empty);
  bool parse_and_or();
  bool parse_pipeline();
  bool parse_command();
  bool parse_group(ListEnd end);
  bool parse_compound_tail(std::size_t first_command);
  bool parse_simple_command();
  bool parse_redirection(Redirection& redirection);
  bool at_list_end(ListEnd end) const;
  bool at_redirection() const;
  bool at_reserved_word(std::string_view word) const;

  // Words.
  bool parse_word(ShellWord& word);
  bool scan_single_quoted(ShellWord& word);
  bool scan_double_quoted(ShellWord& word);
  bool scan_ansi_c_quoted(ShellWord& word);
  bool scan_dollar(ShellWord& word, bool in_double_quotes);
  bool scan_backquoted(ShellWord& word, bool in_double_quotes);
  bool scan_substitution(ShellWord& word, std::size_t start, std::size_t skip);
  bool scan_braced_expansion(ShellWord& word);
  bool scan_arithmetic(ShellWord& word);
  void append(ShellWord& word, char c, bool opaque) const;
  void append_opaque_source(ShellWord& word, std::size_t start) const;
  std::size_t brace_expansion_end(std::size_t open) const;

  // Blanks, comments, line ends and the here-documents they start.
  void skip_blanks();
  bool skip_separating_space();
  bool read_here_documents();

  bool nest(bool (ShellParser::*step)(ListEnd, bool), ListEnd end, bool allow_empty);
  bool fail(std::string problem);
  bool at_end() const { return pos_ >= input_.size(); }
  char peek(std::size_t ahead = 0) const;

  std::string_view input_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  std::size_t opaque_until_ = 0;  // inside a brace expansion: bytes before this are opaque
  std::vector<SimpleCommand>* out_ = nullptr;
  std::vector<PendingHereDocument> pending_;
  std::string problem_;
};

}  // namespace nib::permissions
