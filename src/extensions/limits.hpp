#pragma once
// Every limit the extension loaders and the command expansion enforce, with its unit and the
// reason beside it. Agent definitions, skills and commands come from files anyone can put in a
// repository, so memory and the text sent to the model stay bounded whatever the files hold.

#include <cstddef>

namespace nib::extensions {

// A definition file (agent, SKILL.md, command) is read whole; a bigger one is reported and left
// out. An agent's body is its system prompt, sent with every request of the subagent, and real
// definitions are a few kilobytes, so 256 KB is far past any useful one.
inline constexpr std::size_t kMaxDefinitionFileBytes = 256 * 1024;

// Front matter converted from YAML: values (scalars, list items, mappings) and nesting. Aliases
// are expanded while converting, so a few lines of anchors can stand for millions of values
// ("billion laughs"); real front matter has a few dozen values, two or three levels deep.
inline constexpr std::size_t kMaxFrontMatterValues = 10'000;
inline constexpr std::size_t kMaxFrontMatterDepth = 32;

// Files looked at under one definition folder (e.g. .claude/commands): beyond this the rest
// are reported as not read, so a huge tree cannot stall start-up.
inline constexpr std::size_t kMaxDefinitionFilesPerFolder = 1000;
// Sub-folder levels followed under agents/ and commands/ (Claude Code scans them recursively).
// Symbolic links are followed too; the bound also ends a loop of links.
inline constexpr std::size_t kMaxDefinitionFolderDepth = 8;

// A description in a listing the model reads (the task tool's agents, the system prompt's
// skills) is cut at this many bytes: the listing is sent with every request. 1024 is the Agent
// Skills specification's maximum description length.
inline constexpr std::size_t kMaxListedDescriptionBytes = 1024;
// A command without a description is described by its body's first line, cut at this many bytes
// for the slash-command menu.
inline constexpr std::size_t kMaxDefaultDescriptionBytes = 100;

// Command expansion, @path includes: each file is cut at kMaxIncludeBytes, and once the
// included files reach kMaxIncludedBytes in total the rest are named but not included. The
// expanded command is one user message, and the model can read the rest with the read tool.
inline constexpr std::size_t kMaxIncludeBytes = 64 * 1024;
inline constexpr std::size_t kMaxIncludedBytes = 256 * 1024;

// A loaded skill names the files of its folder (its resources) so the model can read the one
// its instructions mean; a folder with more is summarised by count, since a skill that ships a
// whole tree (node_modules, a dataset) must not flood the context.
inline constexpr std::size_t kMaxListedSkillResources = 50;

// Plugins (plugin_catalog). Their JSON files (plugin.json, marketplace.json, hooks files, MCP
// files, ~/.claude/plugins/installed_plugins.json and known_marketplaces.json) are read whole; a
// bigger one is reported and not used. A marketplace listing a few hundred plugins is some tens
// of kilobytes, so 1 MB is far past any real file.
inline constexpr std::size_t kMaxPluginJsonFileBytes = 1024 * 1024;
// Enabled plugins loaded at start: each adds folders to scan and files to read; the rest are
// reported as not loaded.
inline constexpr std::size_t kMaxLoadedPlugins = 100;
// Paths one plugin lists for one kind of part (commands, agents, skills, hooks, MCP servers);
// a manifest lists a handful.
inline constexpr std::size_t kMaxPluginPartPaths = 64;

}  // namespace nib::extensions
