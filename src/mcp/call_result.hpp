#pragma once
// A tools/call result as the model receives it: text blocks as text, images as image blocks,
// audio as a notice (no provider takes audio in a tool result), resource links as a line naming
// the resource, embedded resources as their text (a binary one as a notice, an image one as an
// image), structuredContent as JSON text when there is no text, and isError as an error result.
// A result whose text is estimated over kMaxResultTokens is cut, its whole text saved to a
// private log file whose path the note gives (as bash does). Pure apart from writing that file;
// thread-safe.

#include <functional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/tool.hpp"
#include "process/temp_log.hpp"

namespace nib::mcp {

using CreateLog = std::function<util::Result<process::LogFile>(std::string_view prefix)>;

// The other way: nib's content as MCP content blocks (text; image with data and mimeType), the
// shape ACP's content blocks share.
nlohmann::json content_blocks(const core::Content& content);

core::ToolOutput map_call_result(const nlohmann::json& result,
                                 const CreateLog& create_log = process::create_private_log);

}  // namespace nib::mcp
