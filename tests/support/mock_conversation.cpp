#include "support/mock_conversation.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;

// The text of a message's `content`: a string, or the text parts of a list of parts.
std::string content_text(const json& content) {
  if (content.is_string()) return content.get<std::string>();
  std::string text;
  if (!content.is_array()) return text;
  bool first = true;
  for (const json& part : content) {
    if (!part.is_object()) continue;
    const json type = part.value("type", json());
    const auto found = part.find("text");
    if ((type != "text" && type != "input_text") || found == part.end() || !found->is_string()) {
      continue;
    }
    if (!first) text += '\n';
    first = false;
    text += found->get<std::string>();
  }
  return text;
}

// The first item of `items` with role "user" (a Responses item may also carry "type":"message").
std::optional<std::string> first_user_item(const json& items) {
  if (!items.is_array()) return std::nullopt;
  for (const json& item : items) {
    if (item.is_object() && item.value("role", json()) == "user") {
      return content_text(item.value("content", json()));
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> first_user_text(const json& body) {
  if (!body.is_object()) return std::nullopt;
  if (const auto messages = body.find("messages"); messages != body.end()) {
    return first_user_item(*messages);
  }
  const auto input = body.find("input");
  if (input == body.end()) return std::nullopt;
  if (input->is_string()) return input->get<std::string>();
  return first_user_item(*input);
}

}  // namespace nib::testing
