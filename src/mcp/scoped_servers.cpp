#include "mcp/scoped_servers.hpp"

#include <fstream>
#include <string>
#include <vector>

#include "mcp/claude_answers.hpp"
#include "util/json_depth.hpp"

namespace nib::mcp {
namespace {

constexpr std::string_view kServersKey = "mcpServers";
constexpr std::string_view kProjectsKey = "projects";

// Decides, key by key as the parser meets them, what of the file is built: the top level's
// servers and one project's entry (see the header). Everything else is read past without being
// kept, so a large file costs its reading, not its size in memory. Nesting deeper than nib
// handles (util/json_depth.hpp) is not kept either, and noted.
class ScopedFilter {
 public:
  explicit ScopedFilter(std::string project) : project_(std::move(project)) {}

  bool keep(int depth, nlohmann::json::parse_event_t event, const nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if (event == Event::object_start || event == Event::array_start) {
      if (static_cast<std::size_t>(depth) < util::kMaxJsonDepth) return true;
      too_deep_ = true;
      return false;
    }
    if (event != Event::key || depth > kDecidingDepth) return true;
    path_.resize(static_cast<std::size_t>(depth));
    path_.back() = parsed.get<std::string>();
    return wanted();
  }

  bool too_deep() const { return too_deep_; }

 private:
  // The depth of a project entry's keys; deeper keys go with the value that holds them.
  static constexpr int kDecidingDepth = 3;

  static bool is_project_key(const std::string& key) {
    return key == kServersKey || key == kEnabledServersKey || key == kDisabledServersKey ||
           key == kEnableAllServersKey;
  }

  bool wanted() const {
    const bool in_projects = path_[0] == kProjectsKey;
    switch (path_.size()) {
      case 1:
        return path_[0] == kServersKey || in_projects;
      case 2:
        return !in_projects || path_[1] == project_;
      default:
        return !in_projects || is_project_key(path_[2]);
    }
  }

  std::string project_;
  std::vector<std::string> path_;  // the keys down to the current one, up to kDecidingDepth
  bool too_deep_ = false;
};

// nlohmann's message without its prefix: "parse error at line 3, column 5: ...".
std::string parse_problem(const nlohmann::json::exception& error) {
  const std::string what = error.what();
  const auto at = what.find("parse error");
  return at == std::string::npos ? what : what.substr(at);
}

// Rounded up, so that a file just past the limit does not read as the limit.
std::string megabytes(std::uintmax_t bytes) {
  return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MB";
}

ScopedServers scoped_parts(nlohmann::json& document, const std::string& project) {
  ScopedServers parts;
  if (const auto servers = document.find(kServersKey); servers != document.end()) {
    parts.everywhere[std::string(kServersKey)] = std::move(*servers);
  }
  const auto projects = document.find(kProjectsKey);
  if (projects == document.end() || !projects->is_object()) return parts;
  const auto entry = projects->find(project);
  if (entry != projects->end() && entry->is_object()) parts.this_project = std::move(*entry);
  return parts;
}

}  // namespace

std::filesystem::path claude_state_file(const std::filesystem::path& home) {
  return home / ".claude.json";
}

util::Result<ScopedServers> read_scoped_servers(const std::filesystem::path& file,
                                                const std::filesystem::path& project) {
  using Result = util::Result<ScopedServers>;
  std::error_code error;
  if (!std::filesystem::exists(file, error)) return ScopedServers{};
  const std::uintmax_t size = std::filesystem::file_size(file, error);
  std::ifstream in(file);
  if (error || !in) return Result::failure(file.string() + ": cannot be read");
  if (size > kMaxScopedServersFileBytes) {
    return Result::failure(file.string() + ": " + megabytes(size) + ", more than the " +
                           megabytes(kMaxScopedServersFileBytes) + " nib reads");
  }
  ScopedFilter filter(project.string());
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(
        in, [&filter](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
          return filter.keep(depth, event, parsed);
        });
  } catch (const nlohmann::json::exception& problem) {
    return Result::failure(file.string() + ": not valid JSON: " + parse_problem(problem));
  }
  if (filter.too_deep()) {
    return Result::failure(file.string() + ": not valid JSON: nests deeper than " +
                           std::to_string(util::kMaxJsonDepth) + " levels");
  }
  if (!document.is_object()) return Result::failure(file.string() + ": must hold a JSON object");
  return scoped_parts(document, project.string());
}

util::Result<nlohmann::json*> scope_servers(nlohmann::json& document,
                                            const std::optional<std::filesystem::path>& project) {
  std::vector<std::string> keys;
  if (project) keys = {std::string(kProjectsKey), project->string()};
  keys.emplace_back(kServersKey);
  nlohmann::json* at = &document;
  std::string where;
  for (const std::string& key : keys) {
    where += (where.empty() ? "\"" : ".\"") + key + "\"";
    nlohmann::json& next = (*at)[key];
    if (next.is_null()) next = nlohmann::json::object();
    if (!next.is_object()) {
      return util::Result<nlohmann::json*>::failure(where + " must be an object");
    }
    at = &next;
  }
  return at;
}

}  // namespace nib::mcp
