#include "extensions/plugin_json.hpp"

#include <string>

#include <nlohmann/json.hpp>

#include "extensions/limits.hpp"
#include "util/bounded_read.hpp"
#include "util/byte_size.hpp"
#include "util/json_depth.hpp"

namespace nib::extensions {

util::Result<std::optional<nlohmann::json>> read_json_object(const std::filesystem::path& file) {
  using Result = util::Result<std::optional<nlohmann::json>>;
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(file, error);
  if (status.type() == std::filesystem::file_type::not_found)
    return std::optional<nlohmann::json>();
  if (error) return Result::failure("cannot be read: " + error.message());
  if (!std::filesystem::is_regular_file(status)) return Result::failure("is not a file");
  auto read = util::read_at_most(file, kMaxPluginJsonFileBytes);
  if (!read.ok()) return Result::failure(read.error());
  const std::string& text = read.value();
  if (text.size() > kMaxPluginJsonFileBytes) {
    return Result::failure("is larger than " + util::format_byte_size(kMaxPluginJsonFileBytes));
  }
  if (util::json_nests_deeper_than(text, util::kMaxJsonDepth)) {
    return Result::failure("not valid JSON: nests deeper than " +
                           std::to_string(util::kMaxJsonDepth) + " levels");
  }
  nlohmann::json value;
  try {
    value = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& parse_error) {
    // nlohmann's message: "[json.exception.parse_error.101] parse error at line 3, column 5: ..."
    const std::string what = parse_error.what();
    const std::size_t at = what.find("parse error");
    return Result::failure("not valid JSON: " + (at == std::string::npos ? what : what.substr(at)));
  }
  if (!value.is_object()) return Result::failure("must hold a JSON object");
  return std::optional<nlohmann::json>(std::move(value));
}

const nlohmann::json* json_member(const nlohmann::json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  const auto found = object.find(std::string(key));
  return found == object.end() ? nullptr : &*found;
}

}  // namespace nib::extensions
