#include "permissions/command_paths.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>

namespace nib::permissions {
namespace {

namespace fs = std::filesystem;

// Programs that only list or name the paths they are given.
constexpr std::array<std::string_view, 18> kNamers = {
    "ls", "cd",       "pwd",      "stat",    "file",     "du",   "df",     "mkdir", "test",
    "[",  "realpath", "readlink", "dirname", "basename", "echo", "printf", "which", "type"};

bool wildcard_byte(char c) {
  return c == '*' || c == '?' || c == '[' || c == ']';
}

std::string without_trailing_slashes(std::string text) {
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

// How many leading bytes of `word` stand for the home directory ("~", "$HOME", "${HOME}",
// each opaque and followed by "/" or nothing); 0 when it does not start so.
std::size_t home_prefix(const ShellWord& word) {
  for (const std::string_view form : {"${HOME}", "$HOME", "~"}) {
    if (!word.text.starts_with(form)) continue;
    const std::size_t length = form.size();
    const bool opaque = std::all_of(word.opaque.begin(), word.opaque.begin() + length,
                                    [](bool flag) { return flag; });
    if (opaque && (word.text.size() == length || word.text[length] == '/')) return length;
  }
  return 0;
}

// `text` (from byte `from` of a word with `opaque` flags) as a path below `base`: its
// components, each literal or a wildcard pattern; nothing when a byte known only at run time
// is not a wildcard ($X).
std::optional<NamedPath> parse_path(std::string_view text, const std::vector<bool>& opaque,
                                    std::size_t from, const fs::path& base) {
  NamedPath named;
  fs::path literal = base;
  std::string component;
  bool wild = false;
  const auto close = [&] {
    if (component.empty() || component == ".") {
    } else if (!wild && named.wildcards.empty()) {
      literal /= component;
    } else {
      named.wildcards.push_back(component);
    }
    component.clear();
    wild = false;
  };
  for (std::size_t i = from; i < text.size(); ++i) {
    const bool run_time = i < opaque.size() && opaque[i];
    // A brace expansion is taken for "*": the component may be any of its words.
    if (run_time && text[i] == '{') {
      int depth = 0;
      std::size_t close_at = i;
      for (; close_at < text.size(); ++close_at) {
        if (text[close_at] == '{') ++depth;
        if (text[close_at] == '}' && --depth == 0) break;
      }
      if (close_at == text.size() ||
          text.substr(i, close_at - i).find('/') != std::string_view::npos) {
        return std::nullopt;  // a brace across directories: no path read off
      }
      if (component.empty() || component.back() != '*') component += '*';
      wild = true;
      i = close_at;
      continue;
    }
    if (run_time && !wildcard_byte(text[i])) return std::nullopt;
    if (text[i] == '/') {
      close();
      continue;
    }
    component += text[i];
    wild = wild || run_time;
  }
  close();
  named.path = without_trailing_slashes(literal.lexically_normal().string());
  return named;
}

std::optional<NamedPath> word_path(const ShellWord& word, const fs::path& cwd,
                                   const fs::path& home) {
  std::string_view text = word.text;
  std::size_t from = 0;
  if (text.starts_with("--") && text.find('=') != std::string_view::npos) {
    from = text.find('=') + 1;  // --file=PATH
  } else if (text.empty() || text.front() == '-') {
    return std::nullopt;
  }
  ShellWord value = word;
  value.text = word.text.substr(from);
  value.opaque.assign(word.opaque.begin() + static_cast<std::ptrdiff_t>(from), word.opaque.end());
  if (value.text.empty()) return std::nullopt;
  const std::size_t home_length = home_prefix(value);
  std::optional<NamedPath> named;
  if (home_length > 0) {
    if (home.empty()) return std::nullopt;
    named = parse_path(value.text, value.opaque, home_length, home);
  } else {
    const bool absolute = value.text.front() == '/';
    named = parse_path(value.text, value.opaque, 0, absolute ? fs::path("/") : cwd);
  }
  if (named) named->source = word.source;
  return named;
}

bool component_matches(const std::string& pattern, const std::string& name) {
  return fnmatch(pattern.c_str(), name.c_str(), FNM_PERIOD) == 0;
}

}  // namespace

std::vector<NamedPath> named_paths(const SimpleCommand& command, const fs::path& cwd,
                                   const fs::path& home) {
  std::vector<NamedPath> paths;
  for (std::size_t i = 1; i < command.command.size(); ++i) {
    if (auto named = word_path(command.command[i], cwd, home)) paths.push_back(std::move(*named));
  }
  for (const Redirection& redirection : command.redirections) {
    const bool reads = redirection.op == "<" || redirection.op == "<>";
    const bool writes = redirection.writes_file();
    if (!reads && !writes) continue;
    if (auto named = word_path(redirection.target, cwd, home)) {
      named->written = writes;
      named->source = redirection.op + redirection.target.source;
      paths.push_back(std::move(*named));
    }
  }
  return paths;
}

bool only_names_paths(const SimpleCommand& command) {
  if (command.command.empty() || !command.command.front().literal()) return false;
  std::string_view program = command.command.front().text;
  if (const std::size_t slash = program.rfind('/'); slash != std::string_view::npos) {
    program.remove_prefix(slash + 1);
  }
  if (program == "find") {
    // find lists names, unless it runs something on what it finds or prints into a file.
    return std::none_of(command.command.begin(), command.command.end(), [](const ShellWord& word) {
      return word.text.starts_with("-exec") || word.text.starts_with("-ok") ||
             word.text.starts_with("-fprint") || word.text.starts_with("-fls");
    });
  }
  return std::find(kNamers.begin(), kNamers.end(), program) != kNamers.end();
}

Reaches reaches(const NamedPath& named, const fs::path& root) {
  const auto [root_end, named_at] =
      std::mismatch(root.begin(), root.end(), named.path.begin(), named.path.end());
  if (root_end == root.end()) return Reaches::kInside;    // named.path is root or below it
  if (named_at != named.path.end()) return Reaches::kNo;  // it leaves root's way
  // named.path is above root: a glob's components may lead on into it.
  auto step = root_end;
  for (const std::string& pattern : named.wildcards) {
    if (step == root.end()) return Reaches::kInside;
    if (!component_matches(pattern, step->string())) return Reaches::kNo;
    ++step;
  }
  return step == root.end() ? Reaches::kInside : Reaches::kAncestor;
}

}  // namespace nib::permissions
