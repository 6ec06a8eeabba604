#pragma once
// The paths a simple command names, as far as they can be read off its words, for the rules
// about paths (Read, Edit, Write) and their defaults: a courtesy that asks before a command
// that plainly reads `~/.ssh`, never the boundary (the sandbox hides such places from
// commands, command_sandbox.hpp). Read off:
// - a literal word ("/etc/passwd", "../x"), a word's value after "--option=";
// - a word that starts with "~", "$HOME" or "${HOME}" (the home directory) and is literal
//   after it, "~//.ssh" included;
// - a glob ("~/.ss*/id_*", "~/.ssh/{id_rsa,config}"): its literal directories, then the
//   components with wildcards (bash's rules: "*" does not match a leading dot);
// - the files its redirections read (<, <>) and write (>, >>, ...).
// A word with any other part known only when it runs ($DIR, $(pwd)) names nothing here.
// Pure; thread-safe.

#include <filesystem>
#include <string>
#include <vector>

#include "permissions/shell_split.hpp"

namespace nib::permissions {

struct NamedPath {
  // Absolute and normalised. For a glob: its directories up to the first component with a
  // wildcard.
  std::filesystem::path path;
  std::vector<std::string> wildcards;  // a glob's components from the first with a wildcard on
  bool written = false;                // a redirection writes it
  std::string source;                  // the word as written, for messages

  bool glob() const { return !wildcards.empty(); }
};

// The paths `command` names (its command words, its redirections).
std::vector<NamedPath> named_paths(const SimpleCommand& command, const std::filesystem::path& cwd,
                                   const std::filesystem::path& home);

// True when `command` only lists or names the paths it is given, reading nothing inside a
// directory it names (ls, stat, cd, mkdir, realpath, ...): a directory that holds a place a
// rule covers is not a reason to ask for it.
bool only_names_paths(const SimpleCommand& command);

// How a named path relates to a directory `root` (absolute, normalised) a rule covers whole.
enum class Reaches {
  kNo,        // it names nothing in `root`
  kAncestor,  // it names a directory that holds `root` (`grep -r x ~`)
  kInside,    // it names `root` or something in it (for a glob: it may)
};

// For a glob, each of its components is matched against root's in turn (a wildcard component
// by fnmatch, where a leading dot is matched only by a dot, as bash does).
Reaches reaches(const NamedPath& named, const std::filesystem::path& root);

}  // namespace nib::permissions
