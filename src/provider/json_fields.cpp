#include "provider/json_fields.hpp"

#include "util/utf8.hpp"

namespace nib::provider {

using nlohmann::json;

const json* find_field(const json& object, const char* name) {
  if (!object.is_object()) return nullptr;
  const auto found = object.find(name);
  return found != object.end() ? &*found : nullptr;
}

std::string string_field(const json& object, const char* name) {
  const json* value = find_field(object, name);
  return value != nullptr && value->is_string() ? value->get<std::string>() : std::string();
}

std::int64_t count_field(const json& object, const char* name) {
  const json* value = find_field(object, name);
  return value != nullptr && value->is_number_integer() ? value->get<std::int64_t>() : 0;
}

const json& object_field(const json& object, const char* name) {
  static const json kEmpty = json::object();
  const json* value = find_field(object, name);
  return value != nullptr && value->is_object() ? *value : kEmpty;
}

std::string event_excerpt(std::string_view text) {
  const std::size_t keep = util::utf8_prefix_length(text, kBadEventExcerptBytes);
  std::string out = util::sanitize_utf8(text.substr(0, keep));
  if (keep < text.size()) out += "...";
  return out;
}

}  // namespace nib::provider
