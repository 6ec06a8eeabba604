#include "extensions/front_matter_fields.hpp"

#include <array>
#include <charconv>

namespace nib::extensions {
namespace {

constexpr int kMaxCount = 1'000'000;

// How a value of the wrong type is named in a message.
std::string kind_of(const nlohmann::json& value) {
  if (value.is_array()) return "a list";
  if (value.is_object()) return "a mapping (key: value lines)";
  return "\"" + value.get<std::string>() + "\"";
}

}  // namespace

FieldReader::FieldReader(const FrontMatter& front_matter, std::filesystem::path file)
    : front_matter_(front_matter), file_(std::move(file)) {}

int FieldReader::line(std::string_view key) const {
  const FrontMatterField* field = front_matter_.find(key);
  return field ? field->line : 1;
}

void FieldReader::fail(std::string_view key, const std::string& message) {
  problems_.push_back({file_, line(key), std::string(key) + ": " + message});
}

std::optional<std::string> FieldReader::text(std::string_view key) {
  const FrontMatterField* field = front_matter_.find(key);
  if (!field || field->value.is_null()) return std::nullopt;
  if (!field->value.is_string()) {
    fail(key, "must be a single value, not " + kind_of(field->value));
    return std::nullopt;
  }
  return field->value.get<std::string>();
}

std::optional<std::string> FieldReader::required_text(std::string_view key,
                                                      std::string_view advice) {
  const FrontMatterField* field = front_matter_.find(key);
  if (field && !field->value.is_null() && !field->value.is_string()) return text(key);
  if (field && field->value.is_string() && !field->value.get<std::string>().empty()) {
    return field->value.get<std::string>();
  }
  fail(key, "missing or empty; " + std::string(advice));
  return std::nullopt;
}

std::optional<std::string> FieldReader::display_text(std::string_view key) {
  const FrontMatterField* field = front_matter_.find(key);
  if (!field || !field->value.is_array()) return text(key);
  const std::optional<std::vector<std::string>> items = text_or_list(key);
  if (!items) return std::nullopt;
  std::string joined;
  for (const std::string& item : *items) joined += (joined.empty() ? "" : ", ") + item;
  return "[" + joined + "]";
}

std::optional<std::vector<std::string>> FieldReader::text_or_list(std::string_view key) {
  const FrontMatterField* field = front_matter_.find(key);
  if (!field || field->value.is_null()) return std::nullopt;
  if (field->value.is_string()) return std::vector<std::string>{field->value.get<std::string>()};
  if (!field->value.is_array()) {
    fail(key, "must be a comma-separated value or a list, not " + kind_of(field->value));
    return std::nullopt;
  }
  std::vector<std::string> items;
  for (const auto& item : field->value) {
    if (item.is_null()) continue;
    if (!item.is_string()) {
      fail(key, "list items must be single values, not " + kind_of(item));
      return std::nullopt;
    }
    items.push_back(item.get<std::string>());
  }
  return items;
}

std::optional<bool> FieldReader::flag(std::string_view key) {
  const std::optional<std::string> value = text(key);
  if (!value) return std::nullopt;
  static constexpr std::array<std::string_view, 3> kTrue = {"true", "True", "TRUE"};
  static constexpr std::array<std::string_view, 3> kFalse = {"false", "False", "FALSE"};
  for (std::string_view word : kTrue) {
    if (*value == word) return true;
  }
  for (std::string_view word : kFalse) {
    if (*value == word) return false;
  }
  fail(key, "must be true or false, got \"" + *value + "\"");
  return std::nullopt;
}

std::optional<int> FieldReader::positive_count(std::string_view key) {
  const std::optional<std::string> value = text(key);
  if (!value) return std::nullopt;
  int number = 0;
  const char* end = value->data() + value->size();
  const auto [stop, error] = std::from_chars(value->data(), end, number);
  if (error != std::errc() || stop != end || number < 1 || number > kMaxCount) {
    fail(key, "must be a whole number from 1 to " + std::to_string(kMaxCount) + ", got \"" +
                  *value + "\"");
    return std::nullopt;
  }
  return number;
}

std::optional<std::string> read_model(FieldReader& reader) {
  std::optional<std::string> model = reader.text("model");
  if (model && (model->empty() || *model == "inherit")) return std::nullopt;
  return model;
}

}  // namespace nib::extensions
