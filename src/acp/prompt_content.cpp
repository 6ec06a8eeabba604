#include "acp/prompt_content.hpp"

#include <string>

#include <nlohmann/json.hpp>

namespace nib::acp {

using nlohmann::json;

util::Result<core::Content> prompt_content(const json& prompt) {
  using Result = util::Result<core::Content>;
  if (!prompt.is_array()) return Result::failure("prompt must be an array of content blocks");
  core::Content content;
  for (std::size_t i = 0; i < prompt.size(); ++i) {
    const json& block = prompt[i];
    const std::string where = "prompt[" + std::to_string(i) + "]";
    if (!block.is_object() || !block.contains("type") || !block["type"].is_string()) {
      return Result::failure(where + " is not a content block");
    }
    const std::string type = block["type"];
    const auto text_of = [&](const json& holder, const char* field) -> std::optional<std::string> {
      const auto found = holder.find(field);
      if (found == holder.end() || !found->is_string()) return std::nullopt;
      return found->get<std::string>();
    };
    if (type == "text") {
      const auto text = text_of(block, "text");
      if (!text) return Result::failure(where + ": a text block needs a string text");
      content.push_back(core::TextBlock{*text});
    } else if (type == "image") {
      const auto data = text_of(block, "data");
      const auto mime = text_of(block, "mimeType");
      if (!data || !mime) return Result::failure(where + ": an image needs data and mimeType");
      content.push_back(core::ImageBlock{*data, *mime});
    } else if (type == "resource") {
      const json resource = block.value("resource", json());
      if (!resource.is_object()) return Result::failure(where + ": a resource needs resource");
      const std::string uri = text_of(resource, "uri").value_or("");
      if (const auto text = text_of(resource, "text")) {
        content.push_back(
            core::TextBlock{"<context ref=\"" + uri + "\">\n" + *text + "\n</context>"});
      } else {
        // A binary resource: nib's models read files themselves.
        content.push_back(core::TextBlock{"(attached: " + uri + ")"});
      }
    } else if (type == "resource_link") {
      const auto uri = text_of(block, "uri");
      if (!uri) return Result::failure(where + ": a resource link needs a uri");
      content.push_back(core::TextBlock{"(see " + *uri + ")"});
    } else {
      return Result::failure(where + ": nib does not take " + type + " content");
    }
  }
  return content;
}

}  // namespace nib::acp
