#pragma once
// Where agent definitions, skills and commands are found, and the rules the three loaders
// share: the folders in precedence order, listing a folder's Markdown files, valid names, and
// keeping one definition per name. Reads directories only; thread-safe.
//
// Folders, for a kind such as "agents": <project>/.nib/<kind>, <project>/.claude/<kind>,
// <user config>/<kind> (~/.config/nib) and <home>/.claude/<kind>. Within one scope nib's own
// folder comes before Claude Code's, since a file in .nib is written for nib. Across scopes the
// order is the format's (Claude Code's documented precedence): the project's before the user's
// for agents and commands, the user's before the project's for skills. The enabled plugins'
// folders of that kind come last: their definitions are named after the plugin
// ("my-plugin:reviewer"), so they rarely meet the user's own, and when they do the user's win.

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "extensions/front_matter.hpp"
#include "extensions/plugin.hpp"
#include "extensions/problem.hpp"

namespace nib::extensions {

// Where a definition was found, best first.
enum class Origin { kBuiltin, kProjectNib, kProjectClaude, kUserNib, kUserClaude, kPlugin };

// "built-in", "project", "user", "plugin": the scope, as Claude Code labels commands
// "(project)".
std::string_view scope_label(Origin origin);

// The directories searched. An empty path is not searched (no HOME, say).
struct ExtensionRoots {
  std::filesystem::path project_dir;      // the working directory (its .nib and .claude)
  std::filesystem::path user_config_dir;  // nib's global directory: $XDG_CONFIG_HOME/nib
  std::filesystem::path home_dir;         // for ~/.claude
  std::vector<Plugin> plugins;            // the enabled ones (plugin_catalog), sorted by name
};

struct DefinitionFolder {
  std::filesystem::path path;  // a folder; a plugin's may also be one Markdown file
  Origin origin;
  const Plugin* plugin = nullptr;  // the plugin it belongs to (origin kPlugin), else nullptr
};

enum class ScopeOrder { kProjectFirst, kUserFirst };

// The folders holding `kind` ("agents", "skills", "commands"), best first; a folder that is
// both the project's and the user's (nib started in the home directory) is listed once, first.
// Then each plugin's of that kind (Plugin::agents, ...), pointing into roots.plugins.
std::vector<DefinitionFolder> definition_folders(const ExtensionRoots& roots, std::string_view kind,
                                                 ScopeOrder order);

// The Markdown (".md") files under `folder`, sorted by path, in sub-folders too when
// `recursive` (up to kMaxDefinitionFolderDepth levels, symbolic links followed). Hidden
// entries (".name") are skipped; a missing folder has none; a Markdown file given as `folder`
// (a plugin may list single definitions) is the only one. Problems: an unreadable folder, more
// than kMaxDefinitionFilesPerFolder files.
std::vector<std::filesystem::path> markdown_files(const std::filesystem::path& folder,
                                                  bool recursive, std::vector<Problem>& problems);

// The sub-folders of `folder` (symbolic links followed), sorted, hidden ones skipped; at most
// kMaxDefinitionFilesPerFolder. Problems as for markdown_files.
std::vector<std::filesystem::path> subfolders(const std::filesystem::path& folder,
                                              std::vector<Problem>& problems);

// Agent and skill names as Claude Code requires them: 1 to 64 lowercase letters, digits and
// hyphens, starting with a letter or digit and not ending with a hyphen ("code-reviewer").
bool is_valid_name(std::string_view name);
// The rule, for messages.
inline constexpr std::string_view kNameRule =
    "use 1 to 64 lowercase letters, digits and hyphens, such as \"code-reviewer\"";

// `body` without its leading blank lines and trailing whitespace: what a definition's body
// means, whatever spacing the file puts around it.
std::string trimmed_body(std::string_view body);

// What describes a command or skill whose front matter gives no description, as Claude Code
// does it: the body's first line that says something, without Markdown's heading marks ("#"),
// cut at kMaxDefaultDescriptionBytes (util::cut_text). "" for an empty body.
std::string default_description(std::string_view body);

// One definition file read: the definition, unless a problem leaves it out, and every problem
// found (notes too, for a definition that is kept).
template <class Definition>
struct DefinitionParse {
  std::optional<Definition> definition;
  std::vector<Problem> problems;
};

// Keeps, for each key, the first of `found` (given best first). A later definition with the
// same key from the same origin is a problem naming both files (two files in one place claim
// the name; which was meant cannot be told); one from a later origin is overridden silently,
// as Claude Code does. `Definition` has `origin` and `file`; `key` returns its name. The result
// is sorted by key.
template <class Definition, class Key>
std::vector<Definition> keep_first_of_each_name(std::vector<Definition> found, Key key,
                                                std::vector<Problem>& problems) {
  std::vector<Definition> kept;
  for (Definition& definition : found) {
    const Definition* winner = nullptr;
    for (const Definition& earlier : kept) {
      if (key(earlier) == key(definition)) winner = &earlier;
    }
    if (!winner) {
      kept.push_back(std::move(definition));
    } else if (winner->origin == definition.origin) {
      problems.push_back({definition.file, 0,
                          "\"" + std::string(key(definition)) + "\" is also defined in " +
                              winner->file.string() + ", which is used; rename one of them"});
    }
  }
  std::sort(kept.begin(), kept.end(),
            [&](const Definition& a, const Definition& b) { return key(a) < key(b); });
  return kept;
}

// Reads `file` and parses it with `parse` (a format's parse function: document, file, origin →
// {optional definition, problems}), adding the problems to `problems` and the definition, when
// there is one, to `found`.
template <class Definition, class Parse>
void read_definition(const std::filesystem::path& file, Origin origin, Parse parse,
                     std::vector<Definition>& found, std::vector<Problem>& problems) {
  MarkdownParse read = read_markdown(file);
  if (!read.document) {
    problems.push_back(std::move(read.problem));
    return;
  }
  auto parsed = parse(*read.document, file, origin);
  problems.insert(problems.end(), parsed.problems.begin(), parsed.problems.end());
  if (parsed.definition) found.push_back(std::move(*parsed.definition));
}

// `parse` (a format's parse function) for the files of `folder`: a plugin's definitions are
// named "<plugin>:<name>" and have ${CLAUDE_PLUGIN_ROOT} in their `text` replaced by the
// plugin's folder, as Claude Code loads them. `folder` must outlive the result.
template <class Definition, class Parse>
auto parse_in_folder(const DefinitionFolder& folder, Parse parse, std::string Definition::*text) {
  return [&folder, parse, text](const MarkdownDocument& document, const std::filesystem::path& file,
                                Origin origin) {
    auto parsed = parse(document, file, origin);
    if (folder.plugin != nullptr && parsed.definition) {
      Definition& definition = *parsed.definition;
      definition.name = plugin_part_name(*folder.plugin, definition.name);
      definition.*text = expand_plugin_root(definition.*text, folder.plugin->root);
    }
    return parsed;
  };
}

// The definition in `all` (sorted or not) whose `name` is `name`, or nullptr.
template <class Definition>
const Definition* find_by_name(const std::vector<Definition>& all, std::string_view name) {
  for (const Definition& definition : all) {
    if (definition.name == name) return &definition;
  }
  return nullptr;
}

}  // namespace nib::extensions
