#pragma once
// Reading the JSON events services stream, forgivingly: a missing or mistyped field reads as
// empty, since one odd field must not sink a reply. Shared by every protocol's assembler. Pure
// functions; thread-safe.

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "util/result.hpp"

namespace nib::provider {

// How much of an unreadable event is quoted in an error message.
inline constexpr std::size_t kBadEventExcerptBytes = 200;
// The JSON value of a stream event's data. When the data is not JSON, or nests deeper than
// util::kMaxJsonDepth (real events nest a handful of levels), a failure: "the service sent a
// stream event that is not JSON: <excerpt>" or one naming the depth.
util::Result<nlohmann::json> parse_event_data(std::string_view data);

// The member `name` of `object`, or nullptr when absent or `object` is not an object.
const nlohmann::json* find_field(const nlohmann::json& object, const char* name);
// The string member `name` of `object`, or "" when absent, not a string, or `object` is not an
// object.
std::string string_field(const nlohmann::json& object, const char* name);
// The integer member `name`, or 0.
std::int64_t count_field(const nlohmann::json& object, const char* name);
// The object member `name`, or an empty object.
const nlohmann::json& object_field(const nlohmann::json& object, const char* name);

// The start of an unreadable event for an error message: at most kBadEventExcerptBytes (cut by
// util::cut_text), valid UTF-8.
std::string event_excerpt(std::string_view text);

}  // namespace nib::provider
