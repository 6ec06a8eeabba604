#pragma once
// Ignore files (.gitignore, .ignore, .git/info/exclude) compiled into matchers, and the chain of
// them that applies at one directory of a walk. Pure: reading the files is the walk's job.
//
// Syntax, as git documents it: blank lines and "#" comments are skipped; trailing spaces are
// trimmed unless escaped ("\ "); "!" negates (re-includes) and "\!" / "\#" start a pattern with
// a literal "!" / "#"; a trailing "/" matches directories only; a pattern with a "/" at its start
// or middle is anchored to the ignore file's directory, any other matches a name at any depth;
// wildcards as in glob.hpp. Within one file the last matching pattern decides.
//
// Precedence (ripgrep's): the deepest .ignore that has a say wins over any .gitignore, the
// deepest .gitignore over .git/info/exclude. A file whose directory is ignored stays ignored
// whatever a negation says, because the walk never enters that directory.
//
// Thread-safety: IgnoreRules and IgnoreLevel are immutable once built and may be shared freely.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tools/glob.hpp"

namespace nib::tools {

enum class IgnoreVerdict { kNone, kIgnore, kKeep };

// The patterns of one ignore file.
class IgnoreRules {
 public:
  IgnoreRules() = default;

  // Compiles the text of an ignore file (LF or CRLF line ends).
  static IgnoreRules parse(std::string_view text);

  // The verdict of the last pattern matching `path` (relative to the ignore file's directory,
  // '/'-separated, no leading or trailing '/'), kNone when no pattern matches.
  IgnoreVerdict match(std::string_view path, bool is_directory) const;

  bool empty() const { return rules_.empty(); }

 private:
  struct Rule {
    Glob glob;
    bool negated = false;
    bool directory_only = false;
    bool name_only = false;  // matches the last path component at any depth
  };
  // Whether rules_[index] matches.
  bool matches(std::size_t index, std::string_view path, std::string_view name,
               bool is_directory) const;

  std::vector<Rule> rules_;
  // Indexes into rules_ of name_only literal patterns ("build", "node_modules"), by that name,
  // and of "*.ext"-style name_only patterns, by their suffix's last '.'-part ("o" for "*.o").
  // Typical ignore files are mostly these; the hash lookups spare matching them one by one.
  struct NameHash {
    using is_transparent = void;  // look up by string_view without building a string
    std::size_t operator()(std::string_view text) const {
      return std::hash<std::string_view>{}(text);
    }
  };
  using Index =
      std::unordered_map<std::string, std::vector<std::size_t>, NameHash, std::equal_to<>>;
  Index by_name_;
  Index by_extension_;
  std::vector<std::size_t> others_;  // everything else, ascending
};

// The ignore files of one directory, above the levels of its ancestors. Paths handed to
// ignore_verdict() are relative to one fixed base directory (the repository's top, or the walk
// root); a level's files apply to the part after its `prefix_length` bytes.
struct IgnoreLevel {
  std::shared_ptr<const IgnoreLevel> parent;
  std::size_t prefix_length = 0;  // bytes of "dir/sub/" naming this directory from the base
  IgnoreRules dot_ignore;         // .ignore
  IgnoreRules gitignore;          // .gitignore
  IgnoreRules exclude;            // .git/info/exclude, on a repository's top level only
};

// The verdict on `path` (relative to the base, its parent directory not ignored) of the chain
// ending at `level` (null: no rules): kIgnore, kKeep when a negation explicitly re-includes it
// (which also lets a hidden entry through, as in ripgrep), or kNone.
IgnoreVerdict ignore_verdict(const IgnoreLevel* level, std::string_view path, bool is_directory);

}  // namespace nib::tools
