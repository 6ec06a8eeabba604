#pragma once
// What the bash splitter makes of a command line (shell_split.hpp): its words after quote
// removal, with the bytes only known when the command runs marked opaque, its redirections, and
// each simple command with what really runs once VAR=x prefixes and wrappers are off. A header
// of its own so that the parser and the wrapper stripping can speak of these without the
// splitter, which runs them.
//
// Pure; thread-safe.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace nib::permissions {

// One word after quote removal.
struct ShellWord {
  std::string text;          // `"a b"'c'` → `a bc`; `$HOME/x` → `$HOME/x` with `$HOME` opaque
  std::vector<bool> opaque;  // one flag per byte of text: known only when the command runs
  std::string source;        // as written, quotes included

  // No opaque byte: bash passes exactly `text`.
  bool literal() const;
  // A word whose every byte is known.
  static ShellWord plain(std::string text);
  // A word that stands for something unknown (the arguments xargs reads), written `source`.
  static ShellWord unknown(std::string source);
};

struct Redirection {
  int fd = -1;       // the descriptor redirected, -1 for the operator's default
  std::string op;    // ">", ">>", ">|", "<", "<>", "<&", ">&", "&>", "&>>", "<<", "<<-", "<<<"
  ShellWord target;  // the file, descriptor or here-document delimiter
  std::string here_document;  // the body of a << or <<- redirection

  // Opens a file for writing: not a duplication (2>&1, >&-), not /dev/null, /dev/stdout or
  // /dev/stderr.
  bool writes_file() const;
};

struct SimpleCommand {
  std::string source;                     // as written: `sudo timeout 5 npm test > log`
  std::vector<ShellWord> words;           // every word but the redirections, VAR=x included
  std::size_t assignment_count = 0;       // words[0, assignment_count) are VAR=x prefixes
  std::vector<Redirection> redirections;  // its own and those of the groups around it
  // What actually runs: the words without the VAR=x prefixes and without the wrappers and
  // their options. A prefix that changes how commands are found or loaded (PATH, LD_*, GIT_*,
  // BASH_ENV, ...; see is_sensitive_variable) is kept, with everything after it, so a rule for
  // `ls` does not match `LD_PRELOAD=x.so ls`. After xargs, a last opaque word stands for the
  // arguments it reads. Empty for a bare assignment or redirection (`X=1`, `> f`).
  std::vector<ShellWord> command;
  std::vector<std::string> wrappers;  // stripped wrappers as written, outermost first: "sudo -u x"
  bool privileged = false;            // a stripped wrapper runs it as another user (sudo, doas)

  // The command's words joined by one space: what Bash(...) rules match.
  std::string text() const;
  // Per byte of text(): opaque or not (the blanks between words are not).
  std::vector<bool> text_opaque() const;
  // Runs no program and writes no file: a bare assignment of an ordinary variable (`X=1`).
  bool runs_nothing() const;
  // Has a redirection that writes a file.
  bool writes_files() const;
};

// A variable whose value changes which program runs or what it loads (PATH, LD_PRELOAD,
// BASH_ENV, IFS, GIT_SSH_COMMAND, NODE_OPTIONS, PYTHONPATH, ...): a VAR=x prefix naming one is
// part of the command, not stripped.
bool is_sensitive_variable(std::string_view name);

}  // namespace nib::permissions
