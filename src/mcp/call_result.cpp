#include "mcp/call_result.hpp"

#include <algorithm>

#include "mcp/limits.hpp"
#include "util/fd_io.hpp"
#include "util/json_text.hpp"
#include "util/text_cut.hpp"
#include "util/utf8.hpp"

namespace nib::mcp {
namespace {

constexpr std::size_t kMaxResultBytes = kMaxResultTokens * kBytesPerToken;

std::string field(const nlohmann::json& object, const char* name) {
  const auto found = object.find(name);
  return found != object.end() && found->is_string() ? found->get<std::string>() : std::string();
}

std::string resource_link(const nlohmann::json& block) {
  std::string text = "[resource link: " + field(block, "uri");
  if (const std::string name = field(block, "name"); !name.empty()) text += " \"" + name + "\"";
  if (const std::string mime = field(block, "mimeType"); !mime.empty()) text += " (" + mime + ")";
  if (const std::string about = field(block, "description"); !about.empty()) text += ": " + about;
  return text + "]";
}

void add_embedded(const nlohmann::json& block, core::Content& content) {
  const nlohmann::json resource = block.value("resource", nlohmann::json::object());
  const std::string uri = field(resource, "uri");
  const std::string mime = field(resource, "mimeType");
  if (resource.contains("text")) {
    content.push_back(core::TextBlock{"[resource " + uri + (mime.empty() ? "" : " (" + mime + ")") +
                                      "]\n" + field(resource, "text")});
    return;
  }
  const std::string blob = field(resource, "blob");
  if (mime.starts_with("image/") && !blob.empty()) {
    content.push_back(core::ImageBlock{blob, mime});
    return;
  }
  content.push_back(core::TextBlock{
      "[resource " + uri + ": binary" + (mime.empty() ? "" : " " + mime) + ", " +
      std::to_string(blob.size() * 3 / 4) + " bytes, not shown: nib passes only text and images]"});
}

void add_block(const nlohmann::json& block, core::Content& content) {
  const std::string type = field(block, "type");
  if (type == "text") {
    content.push_back(core::TextBlock{field(block, "text")});
  } else if (type == "image") {
    const std::string data = field(block, "data");
    const std::string mime = field(block, "mimeType");
    if (data.empty() || !mime.starts_with("image/")) {
      content.push_back(core::TextBlock{"[an image block without data or image type, left out]"});
    } else {
      content.push_back(core::ImageBlock{data, mime});
    }
  } else if (type == "audio") {
    content.push_back(core::TextBlock{"[audio (" + field(block, "mimeType") + ", " +
                                      std::to_string(field(block, "data").size() * 3 / 4) +
                                      " bytes) not shown: nib cannot pass audio to the model]"});
  } else if (type == "resource_link") {
    content.push_back(core::TextBlock{resource_link(block)});
  } else if (type == "resource") {
    add_embedded(block, content);
  } else {
    content.push_back(
        core::TextBlock{"[a content block of unknown type \"" + type + "\", left out]"});
  }
}

std::size_t text_bytes(const core::Content& content) {
  std::size_t bytes = 0;
  for (const core::ContentBlock& block : content) {
    if (const auto* text = std::get_if<core::TextBlock>(&block)) bytes += text->text.size();
  }
  return bytes;
}

// Saves every text block to a log and keeps the first kMaxResultBytes of them, with a note.
void cut_long_result(core::Content& content, const CreateLog& create_log) {
  const std::size_t total = text_bytes(content);
  if (total <= kMaxResultBytes) return;
  std::string whole;
  for (const core::ContentBlock& block : content) {
    if (const auto* text = std::get_if<core::TextBlock>(&block)) whole += text->text + "\n";
  }
  std::string where = "it could not be saved";
  if (auto log = create_log("mcp-result"); log.ok()) {
    if (util::write_all(log.value().fd.get(), whole)) {
      where = "the whole result is in " + log.value().path.string() +
              "; read it with read (offset and limit) or search it with grep";
    }
  }
  std::size_t room = kMaxResultBytes;
  core::Content kept;
  for (core::ContentBlock& block : content) {
    auto* text = std::get_if<core::TextBlock>(&block);
    if (!text) {
      kept.push_back(std::move(block));
      continue;
    }
    if (room == 0) continue;
    if (text->text.size() > room) {
      text->text.resize(util::utf8_prefix_length(text->text, room));
    }
    room -= text->text.size();
    kept.push_back(std::move(block));
  }
  const std::size_t shown = kMaxResultBytes - room;
  kept.push_back(core::TextBlock{
      util::cut_marker(total - shown, "it is about " + std::to_string(total / kBytesPerToken) +
                                          " tokens, more than the " +
                                          std::to_string(kMaxResultTokens) + " shown; " + where)});
  content = std::move(kept);
}

}  // namespace

core::ToolOutput map_call_result(const nlohmann::json& result, const CreateLog& create_log) {
  core::ToolOutput output;
  if (!result.is_object()) return core::ToolOutput::error("the server's result is not an object");
  output.is_error = result.value("isError", false);
  core::Content content;
  if (const auto blocks = result.find("content"); blocks != result.end() && blocks->is_array()) {
    for (const nlohmann::json& block : *blocks) {
      if (block.is_object()) add_block(block, content);
    }
  }
  const bool has_text = std::any_of(content.begin(), content.end(), [](const auto& block) {
    return std::holds_alternative<core::TextBlock>(block);
  });
  if (const auto structured = result.find("structuredContent");
      structured != result.end() && !has_text) {
    content.push_back(core::TextBlock{util::json_text(*structured, 2)});
  }
  if (content.empty()) content.push_back(core::TextBlock{"(the tool returned no content)"});
  cut_long_result(content, create_log);
  output.content = std::move(content);
  return output;
}

nlohmann::json content_blocks(const core::Content& content) {
  nlohmann::json blocks = nlohmann::json::array();
  for (const core::ContentBlock& block : content) {
    if (const auto* text = std::get_if<core::TextBlock>(&block)) {
      blocks.push_back({{"type", "text"}, {"text", text->text}});
    } else {
      const auto& image = std::get<core::ImageBlock>(block);
      blocks.push_back(
          {{"type", "image"}, {"data", image.data_base64}, {"mimeType", image.mime_type}});
    }
  }
  return blocks;
}

}  // namespace nib::mcp
