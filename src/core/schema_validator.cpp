#include "core/schema_validator.hpp"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "util/json_text.hpp"

namespace nib::core {
namespace {

// valijson names a path as {"<root>", "[field]", "[0]"}; we speak JSON pointers, whose tokens
// escape "~" and "/" (RFC 6901), so that a property named "a/b" is one token.
std::string pointer_of(const std::vector<std::string>& context) {
  std::string pointer;
  for (const auto& part : context) {
    if (part.size() >= 2 && part.front() == '[' && part.back() == ']') {
      pointer += '/';
      for (const char c : std::string_view(part).substr(1, part.size() - 2)) {
        pointer += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
      }
    }
  }
  return pointer;
}

// A token of a JSON pointer as the name it stands for ("a~1b" is "a/b").
std::string unescaped_token(std::string_view token) {
  std::string name;
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
      name += token[++i] == '0' ? '~' : '/';
    } else {
      name += token[i];
    }
  }
  return name;
}

// An array index token ("0", "12"), or nothing for any other token.
std::optional<std::size_t> index_of(const std::string& token) {
  if (token.empty() || token.size() > 9 ||
      token.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(std::stoul(token));
}

bool is_wrapper_message(const std::string& description) {
  // valijson reports each failing level again on the way up ("Failed to validate against schema
  // associated with property name 'x'"); the leaf error below it already says what is wrong.
  return description.rfind("Failed to validate", 0) == 0;
}

const char* json_type_name(const nlohmann::json& value) {
  if (value.is_number_integer() || value.is_number_unsigned()) return "integer";
  if (value.is_number()) return "number";
  return value.type_name();
}

// The value at a JSON pointer, or nullptr when the path does not exist.
const nlohmann::json* value_at(const nlohmann::json& root, const std::string& pointer) {
  try {
    return &root.at(nlohmann::json::json_pointer(pointer));
  } catch (const nlohmann::json::exception&) {
    return nullptr;
  }
}

// The subschema describing the value at `pointer`, following properties, additionalProperties
// (as a schema) and items only.
const nlohmann::json* schema_at(const nlohmann::json& schema, const nlohmann::json& instance,
                                const std::string& pointer) {
  const nlohmann::json* node = &schema;
  const nlohmann::json* value = &instance;
  std::string rest = pointer;
  while (!rest.empty()) {
    const auto next = rest.find('/', 1);
    const std::string token =
        unescaped_token(rest.substr(1, next == std::string::npos ? std::string::npos : next - 1));
    rest = next == std::string::npos ? "" : rest.substr(next);
    if (value->is_object() && node->contains("properties") &&
        (*node)["properties"].contains(token)) {
      node = &(*node)["properties"][token];
      value = &(*value)[token];
    } else if (value->is_object() && value->contains(token) &&
               node->contains("additionalProperties") &&
               (*node)["additionalProperties"].is_object()) {
      node = &(*node)["additionalProperties"];
      value = &(*value)[token];
    } else if (value->is_array() && node->contains("items") && (*node)["items"].is_object() &&
               index_of(token) && *index_of(token) < value->size()) {
      node = &(*node)["items"];
      value = &(*value)[*index_of(token)];
    } else {
      return nullptr;
    }
  }
  return node;
}

// A number as a person writes it: 1 rather than 1.000000 (valijson's std::to_string), and as an
// integer whenever it is whole.
std::string number_text(double value) {
  constexpr double kLargestExactInteger = 9007199254740992.0;  // 2^53
  if (value == static_cast<double>(static_cast<std::int64_t>(value)) &&
      value > -kLargestExactInteger && value < kLargestExactInteger) {
    return std::to_string(static_cast<std::int64_t>(value));
  }
  return util::json_text(value);
}

// valijson's message for a minimum or maximum it checked, and the comparison it stands for.
struct BoundMessage {
  std::string_view prefix;
  std::string_view comparison;  // as the model is told it
  const char* keyword;          // the schema keyword holding the bound in draft 7
  const char* draft4_keyword;   // ...and in draft 4 ("minimum" with "exclusiveMinimum": true)
};
constexpr BoundMessage kBoundMessages[] = {
    // Longer prefixes first: "greater than" starts "greater than or equal to".
    {"Expected number greater than or equal to ", "≥", "minimum", "minimum"},
    {"Expected number greater than ", ">", "exclusiveMinimum", "minimum"},
    {"Expected number less than or equal to ", "≤", "maximum", "maximum"},
    {"Expected number less than ", "<", "exclusiveMaximum", "maximum"},
};

// "must be ≥ 1, got 0" for valijson's report of a violated minimum or maximum, with the bound
// as the schema writes it (valijson's text has only six decimals); nullopt for any other message.
std::optional<std::string> bound_violation(const std::string& description,
                                           const nlohmann::json* subschema,
                                           const nlohmann::json* value) {
  for (const auto& bound : kBoundMessages) {
    if (!description.starts_with(bound.prefix)) continue;
    double limit = std::strtod(description.c_str() + bound.prefix.size(), nullptr);
    if (subschema != nullptr) {
      for (const char* keyword : {bound.keyword, bound.draft4_keyword}) {
        const auto it = subschema->find(keyword);
        if (it != subschema->end() && it->is_number()) {
          limit = it->get<double>();
          break;
        }
      }
    }
    std::string text = "must be " + std::string(bound.comparison) + " " + number_text(limit);
    if (value != nullptr && value->is_number()) text += ", got " + util::json_text(*value);
    return text;
  }
  return std::nullopt;
}

// "unknown property "colour" (allowed: path, limit)" for an object its schema closes
// (additionalProperties: false), naming every property the schema does not list. Nothing when
// the schema has patternProperties, which the names cannot be read off.
std::optional<std::string> unknown_properties(const nlohmann::json* subschema,
                                              const nlohmann::json* object) {
  if (subschema == nullptr || object == nullptr || !object->is_object() ||
      subschema->contains("patternProperties")) {
    return std::nullopt;
  }
  const auto listed = subschema->find("properties");
  const bool has_list = listed != subschema->end() && listed->is_object();
  std::string unknown;
  for (const auto& [name, value] : object->items()) {
    if (has_list && listed->contains(name)) continue;
    unknown += (unknown.empty() ? "" : ", ") + util::json_text(name);
  }
  if (unknown.empty()) return std::nullopt;
  std::string allowed;
  if (has_list) {
    for (const auto& [name, value] : listed->items())
      allowed += (allowed.empty() ? "" : ", ") + name;
  }
  return (unknown.find(", ") == std::string::npos ? "unknown property " : "unknown properties ") +
         unknown + " (allowed: " + (allowed.empty() ? "none" : allowed) + ")";
}

// "must be one of "a", "b"; got "c"" for a value its schema's enum does not list.
std::optional<std::string> enum_violation(const nlohmann::json* subschema,
                                          const nlohmann::json* value) {
  if (subschema == nullptr || !subschema->contains("enum") || !(*subschema)["enum"].is_array()) {
    return std::nullopt;
  }
  std::string allowed;
  for (const auto& entry : (*subschema)["enum"]) {
    allowed += (allowed.empty() ? "" : ", ") + util::json_text(entry);
  }
  std::string text = "must be one of " + allowed;
  if (value != nullptr) text += "; got " + util::json_text(*value);
  return text;
}

}  // namespace

struct CompiledSchema::Impl {
  nlohmann::json document;
  valijson::Schema schema;
};

CompiledSchema::CompiledSchema(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CompiledSchema::~CompiledSchema() = default;

util::Result<std::unique_ptr<CompiledSchema>> CompiledSchema::compile(
    const nlohmann::json& schema) {
  auto impl = std::make_unique<Impl>();
  impl->document = schema;
  try {
    valijson::SchemaParser parser;
    valijson::adapters::NlohmannJsonAdapter adapter(impl->document);
    parser.populateSchema(adapter, impl->schema);
  } catch (const std::exception& e) {
    return util::Result<std::unique_ptr<CompiledSchema>>::failure(e.what());
  }
  return std::unique_ptr<CompiledSchema>(new CompiledSchema(std::move(impl)));
}

std::vector<FieldError> CompiledSchema::validate(const nlohmann::json& instance) const {
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter adapter(instance);
  if (validator.validate(impl_->schema, adapter, &results)) return {};

  std::vector<FieldError> errors;
  for (const auto& error : results) {
    if (is_wrapper_message(error.description)) continue;
    FieldError field{pointer_of(error.context), error.description};
    const auto* subschema = schema_at(impl_->document, instance, field.path);
    const auto* value = value_at(instance, field.path);
    if (error.description.starts_with("Object contains a property that could not be validated")) {
      if (auto unknown = unknown_properties(subschema, value)) {
        // valijson reports the object once per unknown property; one line names them all.
        const bool said = std::any_of(errors.begin(), errors.end(), [&](const FieldError& other) {
          return other.path == field.path && other.message == *unknown;
        });
        if (said) continue;
        field.message = std::move(*unknown);
      }
    } else if (error.description.starts_with("Failed to match against any enum values")) {
      if (auto listed = enum_violation(subschema, value)) field.message = std::move(*listed);
    } else if (auto bound = bound_violation(error.description, subschema, value)) {
      field.message = std::move(*bound);
    } else if (error.description.find("'type' constraint") != std::string::npos) {
      // valijson does not say which type it wanted; the schema and the value do.
      if (subschema && value && subschema->contains("type")) {
        field.message =
            "expected " + util::json_text((*subschema)["type"]) + ", got " + json_type_name(*value);
      }
    }
    errors.push_back(std::move(field));
  }
  return errors;
}

}  // namespace nib::core
