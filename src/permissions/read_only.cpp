#include "permissions/read_only.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace nib::permissions {
namespace {

// A program and the options that make it write or run something else ("" when none do).
// Matched by prefix, so "--output" also catches "--output=FILE"; short options that take
// their value attached (-oFILE) are caught the same way.
struct Reader {
  std::string_view program;
  std::array<std::string_view, 7> forbidden{};
};

constexpr std::array<Reader, 44> kReaders = {{
    {"ls"},     {"cat"},   {"head"},  {"tail"},     {"wc"},       {"pwd"},       {"echo"},
    {"printf"}, {"which"}, {"type"},  {"file"},     {"stat"},     {"du"},        {"df"},
    {"whoami"}, {"id"},    {"uname"}, {"basename"}, {"dirname"},  {"realpath"},  {"readlink"},
    {"true"},   {"false"}, {"test"},  {"["},        {"printenv"}, {"nproc"},     {"uptime"},
    {"ps"},     {"diff"},  {"cmp"},   {"comm"},     {"cut"},      {"tr"},        {"nl"},
    {"od"},     {"tac"},   {"rev"},   {"seq"},      {"md5sum"},   {"sha256sum"}, {"jq"},
    {"grep"},   {"egrep"},
}};

constexpr std::array<Reader, 6> kReadersWithOptions = {{
    {"rg", {"--pre"}},
    {"sort", {"-o", "--output", "--compress-program"}},
    {"tree", {"-o"}},
    {"date", {"-s", "--set"}},
    {"fgrep"},
    // "-fprint" also catches -fprint0 and -fprintf.
    {"find", {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fls"}},
}};

// git subcommands that only read, whatever their options (but --output, which writes a file).
constexpr std::array<std::string_view, 20> kGitReaders = {
    "status",        "log",         "diff",     "show",     "rev-parse",    "ls-files", "blame",
    "describe",      "shortlog",    "cat-file", "ls-tree",  "merge-base",   "show-ref", "name-rev",
    "count-objects", "whatchanged", "grep",     "rev-list", "for-each-ref", "ls-remote"};

bool has_option(const std::vector<ShellWord>& words, std::string_view option) {
  return std::any_of(words.begin() + 1, words.end(),
                     [&](const ShellWord& word) { return word.text.starts_with(option); });
}

bool positional_after(const std::vector<ShellWord>& words, std::size_t first) {
  for (std::size_t i = first; i < words.size(); ++i) {
    if (!words[i].text.starts_with("-")) return true;
  }
  return false;
}

bool git_reads(const std::vector<ShellWord>& words) {
  std::size_t i = 1;
  // Global options that only move or quiet git; -c (configuration, which can name programs to
  // run) and anything else are not read-only.
  while (i < words.size() && words[i].text.starts_with("-")) {
    const std::string& option = words[i].text;
    if (option == "-C") {
      i += 2;
    } else if (option == "--no-pager" || option == "-P" || option == "--no-optional-locks") {
      ++i;
    } else {
      return false;
    }
  }
  if (i >= words.size() || !words[i].literal()) return false;
  const std::string& subcommand = words[i].text;
  const std::vector<ShellWord> rest(words.begin() + static_cast<std::ptrdiff_t>(i), words.end());
  if (has_option(rest, "--output") || has_option(rest, "--ext-diff")) return false;
  if (std::find(kGitReaders.begin(), kGitReaders.end(), subcommand) != kGitReaders.end()) {
    return true;
  }
  // Listings: branch and tag with nothing to create, remote with nothing to change, stash list.
  if (subcommand == "branch" || subcommand == "tag") {
    const bool deletes = has_option(rest, "-d") || has_option(rest, "-D") ||
                         has_option(rest, "-m") || has_option(rest, "-M") ||
                         has_option(rest, "-c") || has_option(rest, "-C") ||
                         has_option(rest, "--delete") || has_option(rest, "--move") ||
                         has_option(rest, "--set-upstream") || has_option(rest, "-u") ||
                         has_option(rest, "--unset-upstream") || has_option(rest, "-f");
    const bool lists = has_option(rest, "-l") || has_option(rest, "--list");
    return !deletes && (lists || !positional_after(rest, 1));
  }
  if (subcommand == "remote") return rest.size() == 1 || (rest.size() == 2 && rest[1].text == "-v");
  if (subcommand == "stash") return rest.size() >= 2 && rest[1].text == "list";
  if (subcommand == "config") {
    return rest.size() >= 2 && (rest[1].text == "--get" || rest[1].text == "--list" ||
                                rest[1].text == "-l" || rest[1].text == "--get-all");
  }
  return false;
}

}  // namespace

bool is_read_only(const SimpleCommand& command) {
  if (command.runs_nothing()) return true;
  if (command.writes_files() || command.privileged || command.command.empty()) return false;
  const std::vector<ShellWord>& words = command.command;
  if (!words.front().literal()) return false;
  const std::string& program = words.front().text;
  if (program == "git") return git_reads(words);
  if (std::any_of(kReaders.begin(), kReaders.end(),
                  [&](const Reader& reader) { return reader.program == program; })) {
    return true;
  }
  const auto reader =
      std::find_if(kReadersWithOptions.begin(), kReadersWithOptions.end(),
                   [&](const Reader& candidate) { return candidate.program == program; });
  if (reader == kReadersWithOptions.end()) return false;
  for (std::string_view option : reader->forbidden) {
    if (!option.empty() && has_option(words, option)) return false;
  }
  // An option only known when it runs (`find . $ACTION`, `sort $FLAGS`) might be a forbidden
  // one.
  return std::all_of(words.begin(), words.end(), [](const ShellWord& word) {
    return word.literal() || word.text.front() != '$';
  });
}

}  // namespace nib::permissions
