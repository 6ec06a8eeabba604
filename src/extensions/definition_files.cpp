#include "extensions/definition_files.hpp"

#include <algorithm>

#include "extensions/limits.hpp"
#include "util/text_cut.hpp"

namespace nib::extensions {
namespace {

namespace fs = std::filesystem;

struct Listing {
  const fs::path& top;
  bool recursive;
  std::vector<Problem>& problems;
  std::vector<fs::path> files;
  bool full = false;  // the file limit was reached and reported
};

bool is_lowercase_alphanumeric(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

// The visible entries of `folder`, sorted; empty (with a problem unless it is simply not there)
// when it cannot be read.
std::vector<fs::directory_entry> sorted_entries(const fs::path& folder,
                                                std::vector<Problem>& problems) {
  std::vector<fs::directory_entry> entries;
  std::error_code error;
  fs::directory_iterator it(folder, error);
  if (error) {
    // A folder that is not there simply holds nothing; anything else is worth telling.
    if (error != std::errc::no_such_file_or_directory && error != std::errc::not_a_directory) {
      problems.push_back({folder, 0, "cannot be read: " + error.message()});
    }
    return entries;
  }
  for (; it != fs::directory_iterator(); it.increment(error)) {
    if (error) break;
    if (!it->path().filename().string().starts_with('.')) entries.push_back(*it);
  }
  std::sort(entries.begin(), entries.end());
  return entries;
}

void list_folder(const fs::path& folder, std::size_t depth, Listing& listing) {
  std::error_code error;
  const std::vector<fs::directory_entry> entries = sorted_entries(folder, listing.problems);
  for (const fs::directory_entry& entry : entries) {
    if (listing.full) return;
    if (entry.is_directory(error)) {
      if (listing.recursive && depth < kMaxDefinitionFolderDepth) {
        list_folder(entry.path(), depth + 1, listing);
      }
      continue;
    }
    if (entry.path().extension() != ".md" || !entry.is_regular_file(error)) continue;
    if (listing.files.size() == kMaxDefinitionFilesPerFolder) {
      listing.problems.push_back({listing.top, 0,
                                  "holds more than " +
                                      std::to_string(kMaxDefinitionFilesPerFolder) +
                                      " definition files; the rest were not read"});
      listing.full = true;
      return;
    }
    listing.files.push_back(entry.path());
  }
}

// The folders and files of `kind` ("agents", ...) that `plugin` has.
const std::vector<fs::path>& plugin_paths(const Plugin& plugin, std::string_view kind) {
  static const std::vector<fs::path> kNone;
  if (kind == "agents") return plugin.agents;
  if (kind == "commands") return plugin.commands;
  if (kind == "skills") return plugin.skills;
  return kNone;
}

}  // namespace

std::string_view scope_label(Origin origin) {
  switch (origin) {
    case Origin::kBuiltin:
      return "built-in";
    case Origin::kProjectNib:
    case Origin::kProjectClaude:
      return "project";
    case Origin::kPlugin:
      return "plugin";
    case Origin::kUserNib:
    case Origin::kUserClaude:
      break;
  }
  return "user";
}

std::vector<DefinitionFolder> definition_folders(const ExtensionRoots& roots, std::string_view kind,
                                                 ScopeOrder order) {
  std::vector<DefinitionFolder> project;
  if (!roots.project_dir.empty()) {
    project.push_back({roots.project_dir / ".nib" / kind, Origin::kProjectNib});
    project.push_back({roots.project_dir / ".claude" / kind, Origin::kProjectClaude});
  }
  std::vector<DefinitionFolder> user;
  if (!roots.user_config_dir.empty())
    user.push_back({roots.user_config_dir / kind, Origin::kUserNib});
  if (!roots.home_dir.empty()) {
    user.push_back({roots.home_dir / ".claude" / kind, Origin::kUserClaude});
  }
  std::vector<DefinitionFolder>& first = order == ScopeOrder::kProjectFirst ? project : user;
  std::vector<DefinitionFolder>& second = order == ScopeOrder::kProjectFirst ? user : project;
  // Started in the home directory, ~/.claude is the project's folder too: read it once, in its
  // first place, so its definitions do not clash with themselves.
  for (DefinitionFolder& folder : second) {
    const bool seen = std::any_of(first.begin(), first.end(), [&](const DefinitionFolder& earlier) {
      return earlier.path.lexically_normal() == folder.path.lexically_normal();
    });
    if (!seen) first.push_back(std::move(folder));
  }
  for (const Plugin& plugin : roots.plugins) {
    for (const fs::path& path : plugin_paths(plugin, kind)) {
      first.push_back({path, Origin::kPlugin, &plugin});
    }
  }
  return first;
}

std::vector<fs::path> markdown_files(const fs::path& folder, bool recursive,
                                     std::vector<Problem>& problems) {
  std::error_code error;
  if (folder.extension() == ".md" && fs::is_regular_file(folder, error)) return {folder};
  Listing listing{folder, recursive, problems, {}};
  list_folder(folder, 0, listing);
  return std::move(listing.files);
}

std::string trimmed_body(std::string_view body) {
  std::size_t start = 0;
  for (std::size_t pos = 0; pos < body.size(); ++pos) {
    if (body[pos] == '\n') {
      start = pos + 1;
    } else if (body[pos] != ' ' && body[pos] != '\t') {
      break;
    }
  }
  const std::size_t end = body.find_last_not_of(" \t\n");
  return end == std::string_view::npos || end < start
             ? ""
             : std::string(body.substr(start, end + 1 - start));
}

std::vector<fs::path> subfolders(const fs::path& folder, std::vector<Problem>& problems) {
  std::vector<fs::path> folders;
  std::error_code error;
  for (const fs::directory_entry& entry : sorted_entries(folder, problems)) {
    if (folders.size() == kMaxDefinitionFilesPerFolder) {
      problems.push_back({folder, 0,
                          "holds more than " + std::to_string(kMaxDefinitionFilesPerFolder) +
                              " folders; the rest were not read"});
      break;
    }
    if (entry.is_directory(error)) folders.push_back(entry.path());
  }
  return folders;
}

std::string default_description(std::string_view body) {
  std::size_t start = 0;
  while (start < body.size()) {
    const std::size_t end = std::min(body.find('\n', start), body.size());
    std::string_view line = body.substr(start, end - start);
    while (!line.empty() && (line.front() == '#' || line.front() == ' ' || line.front() == '\t')) {
      line.remove_prefix(1);
    }
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    if (!line.empty()) {
      return util::cut_text(line, kMaxDefaultDescriptionBytes);
    }
    start = end + 1;
  }
  return "";
}

bool is_valid_name(std::string_view name) {
  constexpr std::size_t kMaxNameLength = 64;
  if (name.empty() || name.size() > kMaxNameLength) return false;
  if (!is_lowercase_alphanumeric(name.front()) || name.back() == '-') return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return is_lowercase_alphanumeric(c) || c == '-'; });
}

}  // namespace nib::extensions
