#include "workspace/git_paths.hpp"

#include <chrono>
#include <string>
#include <system_error>

#include "process/command_runner.hpp"

namespace nib::workspace {
namespace {

namespace fs = std::filesystem;

// git answers these in milliseconds; the limit only keeps a git stuck on a dead network file
// system from holding the first sandboxed command for ever.
constexpr std::chrono::seconds kGitQueryTimeout{5};

util::Result<process::LogFile> no_log() {
  return util::Result<process::LogFile>::failure("git's answer is read whole, never logged");
}

// git's stdout for `command` run in `directory`, or nothing when it did not exit with 0.
std::optional<std::string> git_output(const fs::path& directory, const std::string& command,
                                      std::optional<std::string> input = std::nullopt) {
  const process::CommandResult result =
      process::run_command({.command = command,
                            .shell = "/bin/sh",
                            .stdin_text = std::move(input),
                            .cwd = directory,
                            .timeout = kGitQueryTimeout,
                            .withheld_environment = {"GIT_DIR", "GIT_WORK_TREE"},
                            .call_id = "sandbox",
                            .stdout_log = no_log,
                            .stderr_log = no_log},
                           {});
  if (result.end != process::CommandEnd::kExited || result.exit_code != 0 ||
      !result.stdout_capture.complete()) {
    return std::nullopt;
  }
  return result.stdout_capture.tail();
}

// The fields of git's -z output (each ended by a NUL).
std::vector<std::string> nul_fields(const std::string& output) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (std::size_t end = output.find('\0'); end != std::string::npos;
       start = end + 1, end = output.find('\0', start)) {
    fields.push_back(output.substr(start, end - start));
  }
  return fields;
}

// The nearest directory of `file` that exists, for git to run in.
fs::path existing_directory_of(const fs::path& file) {
  fs::path directory = file.parent_path();
  std::error_code error;
  while (!directory.empty() && directory != directory.root_path() &&
         !fs::is_directory(directory, error)) {
    directory = directory.parent_path();
  }
  return directory;
}

}  // namespace

std::string_view git_new_file_line_end(const fs::path& file) {
  static constexpr std::string_view kLf = "\n";
  static constexpr std::string_view kCrlf = "\r\n";
  // One git process: the file's attributes (path, attribute, value triples), then each config
  // value ended by a NUL (empty when unset). Outside a repository rev-parse fails, and so does
  // the whole query.
  const auto output = git_output(
      existing_directory_of(file),
      "git rev-parse --is-inside-work-tree >/dev/null || exit 1; "
      "git check-attr -z --stdin eol text || exit 1; "
      "for key in core.autocrlf core.eol; do git config --get \"$key\"; printf '\\0'; done",
      file.string() + '\0');
  if (!output) return kLf;
  const std::vector<std::string> fields = nul_fields(*output);
  if (fields.size() != 8) return kLf;  // two attribute triples and two config values
  std::string eol_attribute;
  std::string text_attribute;
  for (std::size_t at = 0; at + 2 < 6; at += 3) {
    (fields[at + 1] == "eol" ? eol_attribute : text_attribute) = fields[at + 2];
  }
  const auto config = [](std::string value) {
    while (!value.empty() && (value.back() == '\n' || value.back() == '\r')) value.pop_back();
    return value;
  };
  const std::string autocrlf = config(fields[6]);
  const std::string core_eol = config(fields[7]);
  // As git's convert.c decides a checkout's line ends: -text (or binary) converts nothing; an
  // eol attribute wins; a text file then follows core.autocrlf=true, else core.eol (native is
  // LF here); with no text attribute only core.autocrlf=true makes a file text.
  if (text_attribute == "unset") return kLf;
  if (eol_attribute == "crlf") return kCrlf;
  if (eol_attribute == "lf") return kLf;
  if (autocrlf == "true") return kCrlf;
  if (autocrlf == "input") return kLf;
  const bool text = text_attribute == "set" || text_attribute == "auto";
  return text && core_eol == "crlf" ? kCrlf : kLf;
}

std::optional<GitRepositoryPaths> git_repository_paths(const fs::path& directory) {
  const auto output = git_output(
      directory, "exec git rev-parse --path-format=absolute --git-path hooks --git-path config");
  if (!output) return std::nullopt;
  const std::size_t newline = output->find('\n');
  if (newline == std::string::npos || output->size() < newline + 2 || output->back() != '\n') {
    return std::nullopt;
  }
  return GitRepositoryPaths{.hooks = output->substr(0, newline),
                            .config = output->substr(newline + 1, output->size() - newline - 2)};
}

std::vector<fs::path> git_ignored(const fs::path& tree, const std::vector<fs::path>& paths) {
  if (paths.empty()) return {};  // no need to start git
  std::string input;
  for (const fs::path& path : paths) {
    input += path.string();
    input += '\0';
  }
  // Exit status 1 means none is ignored; -z: NUL-separated both ways.
  const auto output = git_output(tree, "git check-ignore -z --stdin; test $? -le 1", input);
  std::vector<fs::path> ignored;
  if (!output) return ignored;
  for (std::string& path : nul_fields(*output)) ignored.emplace_back(std::move(path));
  return ignored;
}

}  // namespace nib::workspace
