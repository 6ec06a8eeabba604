#pragma once
// Where one plugin's parts are (plugins-reference: "File locations reference" and "Path
// behavior rules"): the default places in its folder, and what its manifest, plugin.json, and
// its marketplace entry list besides:
//
//   commands/         "commands": a path or a list of paths (folders, or .md files); when
//                     given, the default folder is not read
//   agents/           "agents": likewise
//   skills/           "skills": folders holding <skill>/SKILL.md (or one skill's folder,
//                     holding SKILL.md), read besides skills/; with neither, a SKILL.md at the
//                     plugin's root makes the plugin one skill
//   hooks/hooks.json  "hooks": more hooks files ({"hooks": {"PreToolUse": [...]}}), or an
//                     event map written inline; all of them apply
//   .mcp.json         "mcpServers": more MCP files ({"mcpServers": {...}}, or the server map
//                     alone, as Claude Code's own plugin examples write it), or a server map
//                     written inline; all of them apply
//
// Listed paths are relative to the plugin's folder and inside it (plugin_path). Other parts
// (LSP servers, output styles, monitors, bin/, settings.json) are not nib's and not read.
// Reads files only; thread-safe.

#include <filesystem>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "extensions/plugin.hpp"
#include "extensions/problem.hpp"

namespace nib::extensions {

// One JSON object that lists parts: plugin.json, or the plugin's marketplace entry.
struct PartDeclaration {
  const nlohmann::json* object = nullptr;
  std::filesystem::path file;  // the file holding it
};

// Fills `plugin`'s commands, agents, skills, hooks and mcp_servers from its folder (`root`,
// normal and absolute) and `declarations`, with ${CLAUDE_PLUGIN_ROOT} replaced in the hooks and
// MCP configurations. Problems: a listed path that is not a relative path inside the folder or
// is not there (or not a folder, Markdown file or file, as its kind needs), more than
// kMaxPluginPartPaths of one kind, a hooks or MCP file that cannot be read or used.
void read_plugin_parts(const std::vector<PartDeclaration>& declarations, Plugin& plugin,
                       std::vector<Problem>& problems);

// Whether `object` lists any part (a manifest beside a "strict": false entry must not).
bool declares_parts(const nlohmann::json& object);

}  // namespace nib::extensions
