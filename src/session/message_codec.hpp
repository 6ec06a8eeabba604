#pragma once
// The session files' JSON form of core::Message: lossless, so that decode_message(
// encode_message(m)) equals m in every field (text, images, thinking with its signature and
// redaction, tool calls with their raw argument text, stop reason, usage, error, retry hint,
// model, api; tool results with content, is_error and exit_code).
//
// Deliberately separate from core::to_json (stream-json output): that form is for scripts, drops
// fields and may change with the output format; this one is read back by later nib versions.
// Fields holding their default value (an empty error, redacted=false, no exit code) are left
// out to keep lines short and read back as that default. Pure functions; thread-safe.
//
//   user:        {"role":"user","content":[<block>...]}
//   assistant:   {"role":"assistant","content":[<block>...],"stop_reason":"tool_use",
//                 "usage":{"input_tokens":N,...},"model":"...","api":"...",
//                 "error_message":"...","error_kind":"rate_limited","retry_after_ms":N}
//   tool result: {"role":"tool_result","results":[{"tool_call_id":"...","tool_name":"...",
//                 "content":[<block>...],"is_error":false,"exit_code":N}]}
//   blocks:      {"type":"text","text":"..."}  {"type":"image","mime_type":"...","data":"..."}
//                {"type":"thinking","text":"...","signature":"...","redacted":true}
//                {"type":"tool_call","id":"...","name":"...","arguments":"<raw text>"}

#include <nlohmann/json.hpp>

#include "core/messages.hpp"
#include "util/result.hpp"

namespace nib::session {

// The version of the encoding above. A change that older readers would misread bumps it (and
// with it kSessionFormatVersion, see session_file.hpp).
inline constexpr int kMessageFormatVersion = 1;

// The JSON form of `message`.
nlohmann::json encode_message(const core::Message& message);

// The message `json` encodes, or an error naming the offending field ("content[2].type:
// unknown block type \"video\""). Never throws. Unknown extra fields are ignored.
util::Result<core::Message> decode_message(const nlohmann::json& json);

}  // namespace nib::session
