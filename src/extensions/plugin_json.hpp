#pragma once
// Reading the JSON files of Claude Code's plugin system (plugin.json, marketplace.json, hooks
// and MCP files, ~/.claude/plugins/*.json), which come from whoever wrote the plugin or the
// marketplace: bounded in size (kMaxPluginJsonFileBytes) and nesting (util::kMaxJsonDepth), and
// never throwing. Reads files only; thread-safe.
//
// The extensions layer does not link process, so process::read_json_file (which reads nib's own
// files, unbounded) is not used here.

#include <filesystem>
#include <optional>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "util/result.hpp"

namespace nib::extensions {

// The object `file` holds; nullopt when there is no such file. A failure says what is wrong
// without naming the file (the caller's Problem does): "cannot be read: ...", "is larger than 1
// MB", "not valid JSON: parse error at line 3, column 5: ...", "must hold a JSON object".
util::Result<std::optional<nlohmann::json>> read_json_object(const std::filesystem::path& file);

// object[key] when `object` is an object holding `key`; else nullptr.
const nlohmann::json* json_member(const nlohmann::json& object, std::string_view key);

}  // namespace nib::extensions
