#include "permissions/shell_command.hpp"

#include <algorithm>
#include <array>

namespace nib::permissions {

bool ShellWord::literal() const {
  return std::none_of(opaque.begin(), opaque.end(), [](bool flag) { return flag; });
}

ShellWord ShellWord::plain(std::string text) {
  ShellWord word;
  word.opaque.assign(text.size(), false);
  word.source = text;
  word.text = std::move(text);
  return word;
}

ShellWord ShellWord::unknown(std::string source) {
  ShellWord word;
  word.text = source;
  word.opaque.assign(source.size(), true);
  word.source = std::move(source);
  return word;
}

bool Redirection::writes_file() const {
  if (op == "<" || op == "<<" || op == "<<-" || op == "<<<" || op == "<&") return false;
  const std::string& file = target.text;
  if (target.literal() && (file == "/dev/null" || file == "/dev/stdout" || file == "/dev/stderr")) {
    return false;
  }
  if (op == ">&") {
    // >&2 and >&- duplicate or close a descriptor; >&FILE writes FILE.
    const bool descriptor =
        !file.empty() && (file == "-" || std::all_of(file.begin(), file.end(),
                                                     [](char c) { return c >= '0' && c <= '9'; }));
    return !(descriptor && target.literal());
  }
  return true;
}

std::string SimpleCommand::text() const {
  std::string joined;
  for (const ShellWord& word : command) {
    if (!joined.empty()) joined += ' ';
    joined += word.text;
  }
  return joined;
}

std::vector<bool> SimpleCommand::text_opaque() const {
  std::vector<bool> flags;
  for (const ShellWord& word : command) {
    if (!flags.empty()) flags.push_back(false);
    flags.insert(flags.end(), word.opaque.begin(), word.opaque.end());
  }
  return flags;
}

bool SimpleCommand::runs_nothing() const {
  return command.empty() && !writes_files();
}

bool SimpleCommand::writes_files() const {
  return std::any_of(redirections.begin(), redirections.end(),
                     [](const Redirection& redirection) { return redirection.writes_file(); });
}

bool is_sensitive_variable(std::string_view name) {
  static constexpr std::array<std::string_view, 5> kPrefixes = {"LD_", "DYLD_", "GIT_",
                                                                "BASH_FUNC_", "NPM_CONFIG_"};
  static constexpr std::array<std::string_view, 22> kNames = {
      "PATH",       "BASH_ENV",       "ENV",        "IFS",        "SHELLOPTS",    "BASHOPTS",
      "PS4",        "PROMPT_COMMAND", "CDPATH",     "GLOBIGNORE", "NODE_OPTIONS", "NODE_PATH",
      "PYTHONPATH", "PYTHONSTARTUP",  "PYTHONHOME", "PERL5OPT",   "PERL5LIB",     "PERLLIB",
      "RUBYOPT",    "RUBYLIB",        "EDITOR",     "PAGER"};
  return std::any_of(kPrefixes.begin(), kPrefixes.end(),
                     [&](std::string_view prefix) { return name.starts_with(prefix); }) ||
         std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

}  // namespace nib::permissions
