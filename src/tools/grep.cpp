#include "tools/grep.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <system_error>

#include "process/unique_fd.hpp"
#include "tools/glob.hpp"
#include "tools/grep_format.hpp"
#include "tools/grep_search.hpp"
#include "tools/limits.hpp"
#include "tools/os_argument.hpp"
#include "tools/path.hpp"
#include "tools/path_tool.hpp"
#include "tools/walk.hpp"
#include "util/byte_size.hpp"
#include "util/json_text.hpp"
#include "util/plural.hpp"
#include "util/result.hpp"

namespace nib::tools {
namespace {

using core::ToolOutput;
using nlohmann::json;

std::string description() {
  return "Search file contents for an RE2 regular expression (Perl-like, without lookaround or "
         "backreferences) or, with literal=true, plain text. `path` (a file or directory) is "
         "searched recursively; binary files (a NUL byte in the first " +
         util::format_byte_size(kGrepBlockBytes) +
         ") are skipped, and so are hidden and .gitignore/.ignore'd ones unless named as "
         "`path`. Matches never span lines.\n"
         "Output: `path:line: text` per matching line, sorted; with context, the lines around "
         "as `path-line- text`. Lines over " +
         std::to_string(kGrepShownLineBytes) +
         " bytes are cut around the match. At most `limit` matching lines (default " +
         std::to_string(kGrepDefaultLimit) + ") and " +
         util::format_byte_size(process::kMaxOutputBytes) + "; a note then gives the total.";
}

json parameters() {
  return {
      {"type", "object"},
      {"properties",
       {{"pattern", {{"type", "string"}}},
        {"path", path_parameter(PathDefault::kWorkingDirectory)},
        {"glob",
         {{"type", "string"},
          {"description",
           "Only files matching it, e.g. \"*.{ts,tsx}\"; with a '/' it matches the path below "
           "`path` (\"src/**/*.h\"); a leading '!' excludes (\"!*.min.js\")."}}},
        {"ignoreCase", {{"type", "boolean"}}},
        {"literal", {{"type", "boolean"}}},
        {"context",
         {{"type", "integer"},
          {"minimum", 0},
          {"description",
           "Lines around each match, at most " + std::to_string(kGrepMaxContextLines) + "."}}},
        {"limit", {{"type", "integer"}, {"minimum", 1}}}}},
      {"required", {"pattern"}},
  };
}

struct GrepArguments {
  std::string pattern;
  std::string path = ".";
  std::string glob;
  bool ignore_case = false;
  bool literal = false;
  std::size_t context = 0;
  std::size_t limit = kGrepDefaultLimit;
};

// A whole number >= `minimum` from args[name]: `fallback` when absent, or a message saying what is
// wrong. 10.0 is taken as 10, since some models write whole numbers that way.
util::Result<std::size_t> whole_number(const json& args, const char* name, std::size_t minimum,
                                       std::size_t fallback) {
  const auto it = args.find(name);
  if (it == args.end() || it->is_null()) return fallback;
  if (it->is_number_unsigned() || (it->is_number_integer() && it->get<std::int64_t>() >= 0)) {
    const auto value = it->get<std::uint64_t>();
    if (value >= minimum) return static_cast<std::size_t>(value);
  } else if (it->is_number_float()) {
    const double value = it->get<double>();
    if (value >= static_cast<double>(minimum) && value < 1e18 &&
        value == static_cast<double>(static_cast<std::uint64_t>(value))) {
      return static_cast<std::size_t>(value);
    }
  }
  return util::Result<std::size_t>::failure(
      std::string(name) + " must be a whole number >= " + std::to_string(minimum) + ", got " +
      util::json_text(*it) + ".");
}

// args[name] as a boolean; false when absent.
util::Result<bool> flag(const json& args, const char* name) {
  const auto it = args.find(name);
  if (it == args.end() || it->is_null()) return false;
  if (!it->is_boolean())
    return util::Result<bool>::failure(std::string(name) + " must be true or false, got " +
                                       util::json_text(*it) + ".");
  return it->get<bool>();
}

// args[name] as a string: `fallback` when absent or blank, or a message saying what is wrong.
util::Result<std::string> text_argument(const json& args, const char* name, std::string fallback) {
  const auto it = args.find(name);
  if (it == args.end() || it->is_null()) return fallback;
  if (!it->is_string()) {
    return util::Result<std::string>::failure(std::string(name) + " must be a string, got " +
                                              util::json_text(*it) + ".");
  }
  std::string value = it->get<std::string>();
  if (value.find_first_not_of(" \t\r\n") == std::string::npos) return fallback;
  return value;
}

util::Result<GrepArguments> parse_arguments(const json& args) {
  using Result = util::Result<GrepArguments>;
  if (auto refusal = nul_refusal(args, {"pattern", "path", "glob"})) {
    return Result::failure(*refusal);
  }
  GrepArguments parsed;
  const auto pattern = args.find("pattern");
  if (pattern == args.end() || !pattern->is_string())
    return Result::failure("pattern must be a string.");
  parsed.pattern = pattern->get<std::string>();
  if (parsed.pattern.empty())
    return Result::failure("pattern is empty: give the text or regex to find.");
  const auto path = text_argument(args, "path", parsed.path);
  if (!path.ok()) return Result::failure(path.error());
  parsed.path = path.value();
  const auto glob = text_argument(args, "glob", parsed.glob);
  if (!glob.ok()) return Result::failure(glob.error());
  parsed.glob = glob.value();
  const auto ignore_case = flag(args, "ignoreCase");
  if (!ignore_case.ok()) return Result::failure(ignore_case.error());
  parsed.ignore_case = ignore_case.value();
  const auto literal = flag(args, "literal");
  if (!literal.ok()) return Result::failure(literal.error());
  parsed.literal = literal.value();
  const auto context = whole_number(args, "context", 0, 0);
  if (!context.ok()) return Result::failure(context.error());
  parsed.context = std::min(context.value(), kGrepMaxContextLines);
  const auto limit = whole_number(args, "limit", 1, kGrepDefaultLimit);
  if (!limit.ok()) return Result::failure(limit.error());
  parsed.limit = limit.value();
  return parsed;
}

// True when `pattern` writes a line break: as a character, or (in a regex) as \n outside a
// character class. Such a pattern could never match within one line.
bool has_line_break(std::string_view pattern, bool literal) {
  if (pattern.find('\n') != std::string_view::npos) return true;
  if (literal) return false;
  bool in_class = false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\') {
      if (!in_class && i + 1 < pattern.size() && pattern[i + 1] == 'n') return true;
      ++i;
    } else if (pattern[i] == '[') {
      in_class = true;
    } else if (pattern[i] == ']') {
      in_class = false;
    }
  }
  return false;
}

// `pattern` with its first {a,b,...} group expanded, recursively, into `out`.
void expand_braces(const std::string& pattern, std::vector<std::string>& out) {
  std::size_t open = std::string::npos;
  std::size_t depth = 0;
  std::vector<std::size_t> commas;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\') {
      ++i;
    } else if (c == '{') {
      if (depth++ == 0) open = i;
    } else if (c == ',' && depth == 1) {
      commas.push_back(i);
    } else if (c == '}' && depth > 0 && --depth == 0) {
      if (commas.empty()) {  // "{x}" is not a choice; look for a later group
        open = std::string::npos;
        continue;
      }
      commas.push_back(i);
      std::size_t from = open + 1;
      for (const std::size_t to : commas) {
        if (out.size() >= kGrepMaxGlobAlternatives) return;
        expand_braces(
            pattern.substr(0, open) + pattern.substr(from, to - from) + pattern.substr(i + 1), out);
        from = to + 1;
      }
      return;
    }
  }
  if (out.size() < kGrepMaxGlobAlternatives) out.push_back(pattern);
}

// The `glob` argument: which files below the search root are searched.
class FileFilter {
 public:
  explicit FileFilter(std::string_view pattern) {
    if (!pattern.empty() && pattern.front() == '!') {
      exclude_ = true;
      pattern.remove_prefix(1);
    }
    std::vector<std::string> alternatives;
    expand_braces(std::string(pattern), alternatives);
    for (std::string_view alternative : alternatives) {
      if (alternative.starts_with("./")) alternative.remove_prefix(2);
      if (alternative.starts_with("/")) alternative.remove_prefix(1);
      // As in .gitignore: a glob without '/' names files in any directory.
      const bool whole_path = alternative.find('/') != std::string_view::npos;
      globs_.push_back({Glob(alternative), whole_path});
    }
  }

  // Whether the file at `relative` (from the search root, '/'-separated) is searched.
  bool accepts(std::string_view relative) const {
    const std::size_t slash = relative.rfind('/');
    const std::string_view name =
        slash == std::string_view::npos ? relative : relative.substr(slash + 1);
    const bool matched = std::any_of(globs_.begin(), globs_.end(), [&](const Entry& entry) {
      return entry.glob.match(entry.whole_path ? relative : name);
    });
    return matched != exclude_;
  }

 private:
  struct Entry {
    Glob glob;
    bool whole_path;
  };
  std::vector<Entry> globs_;
  bool exclude_ = false;
};

// Scan buffers shared by the walk's threads: each file borrows one, so memory follows the
// number of threads, not of files.
class BufferPool {
 public:
  std::unique_ptr<ScanBuffer> take() {
    const std::lock_guard lock(mutex_);
    if (free_.empty()) return std::make_unique<ScanBuffer>();
    auto buffer = std::move(free_.back());
    free_.pop_back();
    return buffer;
  }
  void give(std::unique_ptr<ScanBuffer> buffer) {
    const std::lock_guard lock(mutex_);
    free_.push_back(std::move(buffer));
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<ScanBuffer>> free_;
};

// Files that could not be opened or read, named up to kGrepMaxNamedFailures.
class FailureList {
 public:
  void add(std::string_view name, int error_number) {
    const std::lock_guard lock(mutex_);
    if (names_.size() < kGrepMaxNamedFailures) {
      names_.push_back(escape_name(name) + " (" + std::system_category().message(error_number) +
                       ")");
    }
    ++count_;
  }
  std::size_t count() const { return count_; }
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::mutex mutex_;
  std::vector<std::string> names_;
  std::size_t count_ = 0;
};

std::string joined(const std::vector<std::string>& names, std::size_t total) {
  std::string text;
  for (std::size_t i = 0; i < names.size() && i < kGrepMaxNamedFailures; ++i) {
    text += (i == 0 ? "" : ", ") + names[i];
  }
  if (total > std::min(names.size(), kGrepMaxNamedFailures)) text += ", ...";
  return text;
}

// What one call found besides the matching lines. Filled from the walk's threads.
struct SearchTallies {
  std::atomic<std::size_t> binary_files = 0;
  std::atomic<std::size_t> cut_at_nul = 0;
  FailureList unreadable_files;
};

// Everything a search needs, fixed before it starts.
struct SearchPlan {
  const GrepArguments& arguments;
  const LineMatcher& matcher;
  std::filesystem::path root;
  std::string shown_root;
  bool root_is_file = false;
  std::optional<FileFilter> filter;
  std::filesystem::path cwd;
};

// Searches every file the walk reports, in the walk's threads, into `collector` and `tallies`.
WalkSummary search_tree(const SearchPlan& plan, std::stop_token stop, MatchCollector& collector,
                        SearchTallies& tallies) {
  ScanOptions scan_options;
  scan_options.context = plan.arguments.context;
  scan_options.max_kept_matches = std::min(plan.arguments.limit, process::kMaxOutputLines);
  scan_options.max_kept_bytes = process::kMaxOutputBytes;
  BufferPool buffers;
  const auto search_file = [&](const WalkEntry& entry) {
    if (plan.filter && !plan.filter->accepts(entry.relative)) return true;
    const process::UniqueFd file(
        open(entry.path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
    struct stat info {};
    if (!file.valid() || fstat(file.get(), &info) != 0) {
      if (errno != ENOENT) tallies.unreadable_files.add(entry.relative, errno);  // not vanished
      return true;
    }
    if (!S_ISREG(info.st_mode)) return true;  // replaced since the walk looked
    auto buffer = buffers.take();
    FileScan scan = scan_file(file.get(), static_cast<std::uint64_t>(info.st_size), plan.matcher,
                              scan_options, stop, *buffer);
    buffers.give(std::move(buffer));
    if (scan.status == ScanStatus::kBinary) ++tallies.binary_files;
    if (scan.status == ScanStatus::kReadError) {
      tallies.unreadable_files.add(entry.relative, scan.error_number);
    }
    if (scan.stopped_at_nul) ++tallies.cut_at_nul;
    if (scan.matches > 0) {
      collector.add({display_path(entry.path, plan.cwd), std::move(scan.lines), scan.matches,
                     scan.kept_matches, scan.kept_bytes});
    }
    return !stop.stop_requested();
  };
  WalkOptions options;
  options.report_symlinks = false;
  return walk_files(plan.root, options, stop, search_file);
}

// Notes on what could not be searched, and on a stop.
std::vector<std::string> problem_notes(const WalkSummary& summary, const SearchTallies& tallies,
                                       bool stopped) {
  std::vector<std::string> notes;
  if (!summary.unreadable.empty()) {
    std::vector<std::string> shown;
    for (const auto& name : summary.unreadable) shown.push_back(escape_name(name));
    notes.push_back("[Could not list " +
                    util::plural(summary.unreadable.size(), "directory", "directories") + ": " +
                    joined(shown, summary.unreadable.size()) + ". Their files were not searched.]");
  }
  if (tallies.unreadable_files.count() > 0) {
    notes.push_back(
        "[Could not read " + util::plural(tallies.unreadable_files.count(), "file") + ": " +
        joined(tallies.unreadable_files.names(), tallies.unreadable_files.count()) + ".]");
  }
  if (tallies.cut_at_nul > 0) {
    notes.push_back("[" + util::plural(tallies.cut_at_nul, "file") +
                    " turned binary (a NUL byte) after the first " +
                    util::format_byte_size(kGrepBlockBytes) +
                    " and were searched only up to that point.]");
  }
  if (stopped) {
    notes.push_back(
        "[Stopped before the search finished: only the matches found so far are shown.]");
  }
  return notes;
}

std::string no_match_text(const SearchPlan& plan, const SearchTallies& tallies, bool stopped) {
  std::string text = stopped ? "No matches so far for " : "No matches for ";
  text += util::json_text(plan.arguments.pattern) + " in " + plan.shown_root;
  if (plan.filter) text += " (files matching " + util::json_text(plan.arguments.glob) + ")";
  text += ".";
  if (plan.root_is_file && tallies.binary_files > 0) {
    text += " It is a binary file (it holds a NUL byte), which grep does not search.";
  } else if (!plan.root_is_file) {
    text += " Hidden files, files ignored by .gitignore/.ignore and binary files were not searched";
    if (tallies.binary_files > 0) {
      text += " (" + util::plural(tallies.binary_files, "binary file") + " skipped)";
    }
    text += ".";
  }
  return text;
}

// The matching lines and a note on what was left out of them.
std::string match_text(MatchCollector& collector, const GrepArguments& arguments) {
  const std::size_t total = collector.total_matches();
  const std::size_t files = collector.matching_files();
  FormatLimits limits;
  limits.limit = arguments.limit;
  limits.context = arguments.context;
  const FormattedMatches formatted = format_matches(collector.take_sorted(), limits);
  std::string text = formatted.text;
  std::string notes;
  if (formatted.shown_matches < total) {
    const bool limit_hit = !formatted.output_cut && formatted.shown_matches == arguments.limit;
    notes += "[Showing " + std::to_string(formatted.shown_matches) + " of " +
             std::to_string(total) + " matching lines in " + util::plural(files, "file");
    notes += limit_hit
                 ? " (limit " + std::to_string(arguments.limit) + ")"
                 : " (a result holds at most " + util::format_byte_size(process::kMaxOutputBytes) +
                       " or " + std::to_string(process::kMaxOutputLines) + " lines)";
    notes += ". Narrow the search with a more specific pattern, a path or a glob";
    notes += limit_hit ? ", or raise limit.]\n" : ".]\n";
  }
  if (formatted.cut_lines) {
    notes += "[Lines longer than " + std::to_string(kGrepShownLineBytes) +
             " bytes are cut around the match; … marks text left out. Read such a line with "
             "read (offset = its line number, limit=1).]\n";
  }
  if (!notes.empty()) text += "\n" + notes;
  return text;
}

ToolOutput root_failure(int error_number, const SearchPlan& plan) {
  const std::string& shown = plan.shown_root;
  switch (error_number) {
    case ENOENT:
      return ToolOutput::error(
          not_found_message("Path", {plan.root, shown}, plan.cwd, NotFoundDetail::kNone,
                            "Check the path; list directories with ls or look for files with "
                            "find."));
    case EACCES:
    case EPERM:
      return ToolOutput::error("Permission denied: cannot search " + shown + ".");
    default:
      return ToolOutput::error("Cannot search " + shown + ": " +
                               std::system_category().message(error_number) + ".");
  }
}

class GrepTool final : public PathTool {
 public:
  GrepTool()
      : PathTool({.name = "grep",
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
    if (has_line_break(arguments.pattern, arguments.literal)) {
      return ToolOutput::error("The pattern " + util::json_text(arguments.pattern) +
                               " holds a line break, but grep matches within single lines. "
                               "Search for a part that lies on one line.");
    }
    const auto matcher =
        LineMatcher::compile(arguments.pattern, {arguments.literal, arguments.ignore_case});
    if (!matcher.ok()) {
      return ToolOutput::error("Invalid regex " + util::json_text(arguments.pattern) + ": " +
                               matcher.error() +
                               ". Fix it, or set literal=true to search for the text as written.");
    }
    auto located = locate(arguments.path, context);
    if (!located.ok()) return ToolOutput::error(located.error());
    CallPath& root = located.value();
    SearchPlan plan{arguments, matcher.value(), std::move(root.path), std::move(root.shown)};
    plan.cwd = context.cwd;
    struct stat info {};
    if (stat(plan.root.c_str(), &info) != 0) return root_failure(errno, plan);
    if (!S_ISDIR(info.st_mode) && !S_ISREG(info.st_mode)) {
      return ToolOutput::error(plan.shown_root +
                               " is neither a regular file nor a directory, so grep does not "
                               "read it.");
    }
    plan.root_is_file = S_ISREG(info.st_mode);
    // A file named outright is searched whatever the glob says.
    if (!arguments.glob.empty() && !plan.root_is_file) plan.filter.emplace(arguments.glob);

    MatchCollector collector(std::min(arguments.limit, process::kMaxOutputLines),
                             process::kMaxOutputBytes);
    SearchTallies tallies;
    const WalkSummary summary = search_tree(plan, stop, collector, tallies);
    const bool stopped = summary.stopped || stop.stop_requested();
    std::string text = collector.total_matches() == 0 ? no_match_text(plan, tallies, stopped)
                                                      : match_text(collector, arguments);
    for (const auto& note : problem_notes(summary, tallies, stopped)) {
      text += (text.ends_with("\n") ? "" : "\n") + note;
    }
    while (text.ends_with("\n")) text.pop_back();
    return ToolOutput{std::move(text)};
  }
};

}  // namespace

core::ToolPtr make_grep_tool() {
  return std::make_shared<GrepTool>();
}

}  // namespace nib::tools
