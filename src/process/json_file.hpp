#pragma once
// The small JSON files nib reads, changes and writes back: the MCP server files (mcp.json,
// .mcp.json), the MCP approvals, and .nib/settings.local.json when an "always" answer saves a
// rule. Reading: a missing file is an empty object; one that cannot be read, is not JSON (or
// nests too deeply to be handled safely: a project's file comes from whoever wrote the
// repository) or is not an object is an error naming it. Writing: the directory is created
// when missing and the file replaced atomically, keeping its permissions and owner
// (atomic_write.hpp). Beside atomic_write because the pair is used together and the writing
// needs it. Thread-safe as the file system is.

#include <filesystem>

#include <nlohmann/json.hpp>

#include "util/result.hpp"

namespace nib::process {

// The object `file` holds ({} when it does not exist); a failure reads
// "<file>: not valid JSON: <where and why>" (or "cannot be read", "must hold a JSON object").
util::Result<nlohmann::json> read_json_file(const std::filesystem::path& file);

// Replaces `file` with `value` (indented by 2, one final newline); a failure reads
// "cannot write <file>: cannot <step>: <reason>" (or "cannot create <directory>: ...").
util::Status write_json_file(const std::filesystem::path& file, const nlohmann::json& value);

}  // namespace nib::process
