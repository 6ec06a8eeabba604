#pragma once
// JSON as text: the one way nib serialises JSON for output, files, the wire, hooks' input and
// tool results. Strings nib puts in JSON may hold bytes that are not UTF-8 (model output, a
// command's output, file contents, paths), and nlohmann::json's dump() throws type_error 316 on
// them, which would end a run over one stray byte; json_text writes U+FFFD in their place
// instead, so serialising never throws and its text is always valid UTF-8. Pure; thread-safe.

#include <string>

#include <nlohmann/json.hpp>

namespace nib::util {

// `value` as JSON text, byte for byte what dump(indent) gives for valid UTF-8: compact (no
// spaces) when indent < 0, else one member or element per line indented by `indent` spaces;
// non-ASCII characters as they are, not as \u escapes. Invalid UTF-8 in strings becomes U+FFFD.
std::string json_text(const nlohmann::json& value, int indent = -1);

}  // namespace nib::util
