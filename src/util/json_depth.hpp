#pragma once
// How deeply a JSON text nests, found by one linear scan with no recursion and no allocation,
// so that JSON from outside (stream events, tool arguments, session files) can be refused
// before it is parsed: nlohmann::json copies, compares and dumps values recursively, one stack
// frame per level, so a few hundred thousand nested brackets crash the process. Pure;
// thread-safe.

#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

namespace nib::util {

// The most nesting nib accepts in JSON from outside it (a model's tool arguments, stream events,
// session lines, MCP messages): far beyond any real document (tool arguments nest a handful of
// levels), far below the tens of thousands at which a recursive copy overflows the stack.
inline constexpr std::size_t kMaxJsonDepth = 256;

// The deepest nesting of arrays and objects in `text`: 0 for a scalar ("7", "\"[\""), 1 for
// "[1]" or "{}", 2 for "[[]]" or {"a":{}}. Brackets inside strings do not count; escapes in
// strings (\" and \\ included) are honoured. Only brackets are counted, so the text need not be
// valid JSON: a closing bracket with nothing open is ignored, and an unterminated string hides
// the rest of the text. A guard to run before a parser, not a validator.
std::size_t json_nesting_depth(std::string_view text);

// True when json_nesting_depth(text) > max_depth. Stops reading at the first bracket that
// opens level max_depth + 1, so refusing a huge hostile text costs only its nested prefix.
bool json_nests_deeper_than(std::string_view text, std::size_t max_depth);

// `text` parsed, or a discarded value (is_discarded()) when it is not JSON or nests deeper than
// kMaxJsonDepth: the one way nib parses JSON that comes from outside.
nlohmann::json parse_untrusted_json(std::string_view text);

}  // namespace nib::util
