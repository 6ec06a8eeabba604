#include "tools/ls.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <optional>
#include <string_view>
#include <system_error>

#include "process/unique_fd.hpp"
#include "tools/file_type.hpp"
#include "tools/limits.hpp"
#include "tools/os_argument.hpp"
#include "tools/path.hpp"
#include "tools/path_access.hpp"
#include "tools/path_list.hpp"
#include "tools/path_tool.hpp"
#include "util/result.hpp"

namespace nib::tools {
namespace {

using core::ToolOutput;
using nlohmann::json;

// Entries read between looks at the stop token.
constexpr std::size_t kEntriesPerStopCheck = 1024;

std::string description() {
  return "List one directory, sorted, hidden entries included: directories end with '/', "
         "symlinks show \"name -> target\". At most `limit` entries (default " +
         std::to_string(kLsDefaultLimit) + "). To search a tree, use find.";
}

json parameters() {
  return {
      {"type", "object"},
      {"properties",
       {{"path", path_parameter(PathDefault::kWorkingDirectory)},
        {"limit", {{"type", "integer"}, {"minimum", 1}}}}},
  };
}

struct LsArguments {
  std::string path = ".";
  std::size_t limit = kLsDefaultLimit;
};

// The arguments, or a message saying what is wrong with them.
util::Result<LsArguments> parse_arguments(const json& args) {
  using Result = util::Result<LsArguments>;
  if (auto refusal = nul_refusal(args, {"path"})) return Result::failure(*refusal);
  LsArguments parsed;
  parsed.path = given_path(args).value_or(parsed.path);
  if (const auto limit = args.find("limit"); limit != args.end() && limit->is_number()) {
    if (limit->get<double>() < 1) return Result::failure("limit must be at least 1.");
    parsed.limit = limit->get<std::size_t>();
  }
  return parsed;
}

// How one entry is shown (names in escape_name() form), or nothing when it vanished since it
// was listed.
std::optional<std::string> describe(int directory, const std::string& name) {
  struct stat info {};
  if (fstatat(directory, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) return std::nullopt;
  const std::string shown = escape_name(name);
  if (S_ISREG(info.st_mode)) return shown;
  if (S_ISDIR(info.st_mode)) return shown + "/";
  if (!S_ISLNK(info.st_mode)) return shown + " [" + file_kind(info.st_mode) + "]";
  std::string target(PATH_MAX, '\0');
  const ssize_t length = readlinkat(directory, name.c_str(), target.data(), target.size());
  if (length < 0) return shown + " -> ?";
  target.resize(static_cast<std::size_t>(length));
  std::string line = shown + " -> " + escape_name(target);
  if (fstatat(directory, name.c_str(), &info, 0) != 0) return line + " (broken)";
  if (S_ISDIR(info.st_mode)) line += "/";
  return line;
}

ToolOutput stat_failure(int error, const CallPath& target, const std::filesystem::path& cwd) {
  if (error == ENOENT || error == ENOTDIR) {
    return ToolOutput::error(not_found_message("Directory", target, cwd,
                                               NotFoundDetail::kAbsolutePath,
                                               "Check the path, or search for it with find."));
  }
  if (error == EACCES || error == EPERM) {
    return ToolOutput::error("Permission denied: cannot list " + target.shown + ".");
  }
  return ToolOutput::error("Cannot list " + target.shown + ": " +
                           std::system_category().message(error) + ".");
}

class LsTool final : public PathTool {
 public:
  LsTool()
      : PathTool({.name = "ls",
                  .description = description(),
                  .parameters = parameters(),
                  .concurrency_safe = true,
                  .access = core::AccessKind::kRead},
                 LocateFor::kExisting, PathDefault::kWorkingDirectory) {}

  ToolOutput execute(const json& args, std::stop_token stop,
                     const core::ToolContext& context) override {
    const auto parsed = parse_arguments(args);
    if (!parsed.ok()) return ToolOutput::error(parsed.error());
    const auto& arguments = parsed.value();
    const auto target = locate(arguments.path, context);
    if (!target.ok()) return ToolOutput::error(target.error());
    const auto& [path, shown] = target.value();
    const auto failure = [&](int error) {
      return stat_failure(error, target.value(), context.cwd);
    };

    struct stat info {};
    if (stat(path.c_str(), &info) != 0) return failure(errno);
    if (S_ISREG(info.st_mode)) {
      return ToolOutput::error(shown + " is a file, not a directory. Read it with read.");
    }
    if (!S_ISDIR(info.st_mode)) {
      return ToolOutput::error(shown + " is a " + file_kind(info.st_mode) + ", not a directory.");
    }
    const process::UniqueFd dir(open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY));
    if (!dir.valid()) return failure(errno);
    // A second descriptor for the listing: closedir() closes the one it is given.
    DIR* stream = fdopendir(fcntl(dir.get(), F_DUPFD_CLOEXEC, 0));
    if (stream == nullptr) return failure(errno);

    SortedSample sample(arguments.limit);
    std::size_t seen = 0;
    bool aborted = false;
    while (const dirent* entry = readdir(stream)) {
      if (++seen % kEntriesPerStopCheck == 0 && stop.stop_requested()) {
        aborted = true;
        break;
      }
      const std::string_view name = entry->d_name;
      if (name != "." && name != "..") sample.add(std::string(name));
    }
    closedir(stream);
    if (aborted || stop.stop_requested()) {
      return ToolOutput::error("Aborted: listing " + shown + " was stopped.");
    }
    if (sample.total() == 0) return ToolOutput{shown + " is an empty directory."};

    const std::size_t total = sample.total();
    std::vector<std::string> lines;
    for (const auto& name : sample.take_sorted()) {
      if (auto line = describe(dir.get(), name)) lines.push_back(std::move(*line));
    }
    const std::string text = render_listing(lines, total, arguments.limit, "entries",
                                            "use find with a pattern to see only some entries");
    return ToolOutput{text};
  }
};

}  // namespace

core::ToolPtr make_ls_tool() {
  return std::make_shared<LsTool>();
}

}  // namespace nib::tools
