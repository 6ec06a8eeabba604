#include "provider/json_fields.hpp"

#include "util/json_depth.hpp"
#include "util/text_cut.hpp"
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

util::Result<json> parse_event_data(std::string_view data) {
  using Result = util::Result<json>;
  if (util::json_nests_deeper_than(data, util::kMaxJsonDepth)) {
    return Result::failure("the service sent a stream event nested deeper than " +
                           std::to_string(util::kMaxJsonDepth) +
                           " levels, which nib refuses: " + event_excerpt(data));
  }
  json value = json::parse(data, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) {
    return Result::failure("the service sent a stream event that is not JSON: " +
                           event_excerpt(data));
  }
  return value;
}

std::string event_excerpt(std::string_view text) {
  return util::sanitize_utf8(util::cut_text(text, kBadEventExcerptBytes));
}

}  // namespace nib::provider
