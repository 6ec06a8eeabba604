#pragma once
// Reading and writing the small JSON files the MCP commands keep (mcp.json, .mcp.json, the
// approvals): a missing file reads as an empty object; a broken one is an error naming it; a
// write is atomic (tools/atomic_write) and creates the directory. Thread-safe as the file
// system is.

#include <filesystem>

#include <nlohmann/json.hpp>

#include "util/result.hpp"

namespace nib::mcp {

util::Result<nlohmann::json> read_json_file(const std::filesystem::path& file);
util::Status write_json_file(const std::filesystem::path& file, const nlohmann::json& value);

}  // namespace nib::mcp
