#include "tools/find.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <mutex>
#include <string_view>
#include <system_error>

#include "tools/file_type.hpp"
#include "tools/glob.hpp"
#include "tools/limits.hpp"
#include "tools/os_argument.hpp"
#include "tools/path.hpp"
#include "tools/path_access.hpp"
#include "tools/path_list.hpp"
#include "tools/path_tool.hpp"
#include "tools/walk.hpp"
#include "util/plural.hpp"
#include "util/result.hpp"

namespace nib::tools {
namespace {

using core::ToolOutput;
using nlohmann::json;

std::string description() {
  return "Find files and directories by glob. A pattern without '/' matches the name at any "
         "depth (\"*.cpp\"); one with '/' matches the path relative to `path` "
         "(\"src/**/*.ts\": \"*\" stays within a directory, \"**\" spans any number). "
         "Case-sensitive; a trailing '/' finds directories only. Hidden entries and what "
         ".gitignore/.ignore exclude are skipped unless include_hidden/include_ignored. Lists "
         "sorted paths relative to `path`, at most `limit` (default " +
         std::to_string(kFindDefaultLimit) + ").";
}

json parameters() {
  return {
      {"type", "object"},
      {"properties",
       {{"pattern", {{"type", "string"}}},
        {"path", path_parameter(PathDefault::kWorkingDirectory)},
        {"limit", {{"type", "integer"}, {"minimum", 1}}},
        {"include_hidden", {{"type", "boolean"}}},
        {"include_ignored", {{"type", "boolean"}}}}},
      {"required", {"pattern"}},
  };
}

struct FindArguments {
  std::string pattern;
  bool directories_only = false;  // the pattern ended with '/'
  std::string path;
  std::size_t limit = kFindDefaultLimit;
  bool include_hidden = false;
  bool include_ignored = false;
};

bool flag(const json& args, const char* name) {
  const auto it = args.find(name);
  return it != args.end() && it->is_boolean() && it->get<bool>();
}

// The arguments, or a message saying what is wrong with them.
util::Result<FindArguments> parse_arguments(const json& args) {
  using Result = util::Result<FindArguments>;
  if (auto refusal = nul_refusal(args, {"pattern", "path"})) return Result::failure(*refusal);
  FindArguments parsed;
  const auto pattern = args.find("pattern");
  if (pattern == args.end() || !pattern->is_string()) {
    return Result::failure("pattern must be a string, e.g. \"*.cpp\".");
  }
  std::string_view text = pattern->get_ref<const std::string&>();
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  while (text.starts_with("./")) text.remove_prefix(2);
  if (text.ends_with('/') && text.size() > 1) {
    parsed.directories_only = true;
    while (text.ends_with('/')) text.remove_suffix(1);
  }
  if (text.empty()) return Result::failure("pattern is empty: give a glob such as \"*.cpp\".");
  parsed.pattern = text;
  parsed.path = given_path(args).value_or(".");
  if (const auto limit = args.find("limit"); limit != args.end() && limit->is_number()) {
    if (limit->get<double>() < 1) return Result::failure("limit must be at least 1.");
    parsed.limit = limit->get<std::size_t>();
  }
  parsed.include_hidden = flag(args, "include_hidden");
  parsed.include_ignored = flag(args, "include_ignored");
  return parsed;
}

// An absolute pattern naming a place inside the root, made relative to it ("/repo/src/*.c"
// searched in /repo is "src/*.c"); a pattern with a leading '/' otherwise is anchored at the
// root, which the relative match already does.
std::string relative_pattern(std::string pattern, const std::filesystem::path& root) {
  if (!pattern.starts_with('/')) return pattern;
  std::string prefix = root.string();
  if (!prefix.ends_with('/')) prefix += '/';
  if (pattern.starts_with(prefix)) return pattern.substr(prefix.size());
  return pattern.substr(1);
}

// A note naming the directories that could not be read, or nothing.
std::string unreadable_note(const WalkSummary& summary) {
  if (summary.unreadable.empty()) return {};
  std::string text = "\n[" + util::plural(summary.unreadable.size(), "directory", "directories") +
                     " could not be read, so results may be missing from:";
  for (std::size_t i = 0; i < summary.unreadable.size() && i < kMaxListedUnreadable; ++i) {
    text += (i == 0 ? " " : ", ") + escape_name(summary.unreadable[i]);
  }
  if (summary.unreadable.size() > kMaxListedUnreadable) text += ", ...";
  return text + "]\n";
}

ToolOutput no_matches(const FindArguments& args, const std::string& shown_root,
                      const WalkSummary& summary) {
  const std::string where = shown_root == "." ? "the working directory" : shown_root;
  std::string text = "No files or directories match \"" + args.pattern +
                     (args.directories_only ? "/" : "") + "\" in " + where + ".";
  std::vector<std::string> skipped;
  if (!args.include_hidden) skipped.push_back("hidden entries (set include_hidden=true)");
  if (!args.include_ignored) {
    skipped.push_back("entries excluded by ignore files (set include_ignored=true)");
  }
  if (!skipped.empty()) {
    text += " Skipped: " + skipped[0] + (skipped.size() > 1 ? " and " + skipped[1] : "") + ".";
  }
  if (args.pattern.find('/') != std::string::npos) {
    text += " A pattern with '/' is matched against whole paths relative to " + where +
            ": \"src/*.ts\" finds files directly in src, \"src/**/*.ts\" at any depth below it.";
  }
  return ToolOutput{text + unreadable_note(summary)};
}

class FindTool final : public PathTool {
 public:
  FindTool()
      : PathTool({.name = "find",
                  .description = description(),
                  .parameters = parameters(),
                  .concurrency_safe = true,
                  .access = core::AccessKind::kRead},
                 LocateFor::kExisting, PathDefault::kWorkingDirectory) {}

  ToolOutput execute(const json& args, std::stop_token stop,
                     const core::ToolContext& context) override {
    auto parsed = parse_arguments(args);
    if (!parsed.ok()) return ToolOutput::error(parsed.error());
    auto& arguments = parsed.value();
    const auto located = locate(arguments.path, context);
    if (!located.ok()) return ToolOutput::error(located.error());
    const auto& [root, shown_root] = located.value();

    struct stat info {};
    if (stat(root.c_str(), &info) != 0) {
      const int error = errno;
      if (error == ENOENT || error == ENOTDIR) {
        return ToolOutput::error(not_found_message("Path", located.value(), context.cwd,
                                                   NotFoundDetail::kAbsolutePath,
                                                   "Check the path, or list its parent with ls."));
      }
      return ToolOutput::error("Cannot search " + shown_root + ": " +
                               std::system_category().message(error) + ".");
    }
    if (!S_ISDIR(info.st_mode)) {
      return ToolOutput::error(shown_root + " is " + file_kind_name(info.st_mode) +
                               ", not a directory: find searches the tree below a directory. "
                               "Give its directory as path, or look at it with ls.");
    }
    arguments.pattern = relative_pattern(arguments.pattern, root);
    const bool match_path = arguments.pattern.find('/') != std::string::npos;
    const Glob glob(arguments.pattern);

    WalkOptions options;
    options.include_hidden = arguments.include_hidden;
    options.respect_ignore = !arguments.include_ignored;
    options.report_directories = true;
    std::mutex mutex;
    SortedSample sample(arguments.limit);
    const WalkSummary summary = walk_files(root, options, stop, [&](const WalkEntry& entry) {
      if (arguments.directories_only && !entry.is_directory) return true;
      std::string_view subject = entry.relative;
      if (!match_path) subject = subject.substr(subject.rfind('/') + 1);  // npos + 1 == 0
      if (!glob.match(subject)) return true;
      std::string line = escape_name(entry.relative);
      if (entry.is_directory) line += '/';
      const std::lock_guard lock(mutex);
      sample.add(std::move(line));
      return true;
    });
    if (stop.stop_requested()) {
      return ToolOutput::error("Aborted: find was stopped before it finished searching " +
                               shown_root + ".");
    }
    if (sample.total() == 0) return no_matches(arguments, shown_root, summary);
    const std::string text = render_listing(sample.take_sorted(), sample.total(), arguments.limit,
                                            "matches", "narrow the pattern or the path");
    return ToolOutput{text + unreadable_note(summary)};
  }
};

}  // namespace

core::ToolPtr make_find_tool() {
  return std::make_shared<FindTool>();
}

}  // namespace nib::tools
