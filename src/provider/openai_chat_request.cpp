#include "provider/openai_chat_request.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <variant>

#include <nlohmann/json.hpp>

#include "util/json_text.hpp"
#include "util/utf8.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;

// Stands in a tool message for an image that travels in the user message after the batch.
constexpr const char* kImageInNextMessageText = "[image: see the next user message]";

json text_part(std::string text) {
  return {{"type", "text"}, {"text", std::move(text)}};
}

json image_part(const core::ImageBlock& image) {
  return {{"type", "image_url"},
          {"image_url", {{"url", "data:" + image.mime_type + ";base64," + image.data_base64}}}};
}

// A plain string when there is no image to send (the form every compatible server accepts),
// otherwise an array of text and image_url parts.
json user_content(const core::Content& content, bool images_allowed) {
  if (!images_allowed || !core::has_image(content))
    return core::content_text(content, kImageOmittedText);
  json parts = json::array();
  for (const auto& block : content) {
    if (const auto* text = std::get_if<core::TextBlock>(&block)) {
      parts.push_back(text_part(text->text));
    } else {
      parts.push_back(image_part(std::get<core::ImageBlock>(block)));
    }
  }
  return parts;
}

void add_assistant(const core::AssistantMessage& message, json& messages) {
  std::string text;
  bool has_text = false;
  json calls = json::array();
  for (const auto& block : message.blocks) {
    if (const auto* part = std::get_if<core::TextBlock>(&block)) {
      if (has_text && !part->glued) text += '\n';  // a glued block continues the sentence
      text += part->text;
      has_text = true;
    } else if (const auto* call = std::get_if<core::ToolCall>(&block)) {
      calls.push_back({{"id", call->id},
                       {"type", "function"},
                       {"function", {{"name", call->name}, {"arguments", call->arguments}}}});
    }
    // Thinking blocks stay local: Chat Completions has no field to send them back in.
  }
  if (!has_text && calls.empty()) return;  // e.g. an aborted reply that produced nothing
  json out = {{"role", "assistant"}, {"content", has_text ? json(text) : json(nullptr)}};
  if (!calls.empty()) out["tool_calls"] = std::move(calls);
  messages.push_back(std::move(out));
}

void add_tool_results(const core::ToolResultMessage& message, bool images_allowed, json& messages) {
  json image_parts = json::array();
  for (const auto& result : message.results) {
    const bool forward_images = images_allowed && core::has_image(result.content);
    messages.push_back(
        {{"role", "tool"},
         {"tool_call_id", result.tool_call_id},
         {"content", core::content_text(result.content, forward_images ? kImageInNextMessageText
                                                                       : kImageOmittedText)}});
    if (!forward_images) continue;
    image_parts.push_back(text_part("Images from the result of tool call " + result.tool_call_id +
                                    " (" + result.tool_name + "):"));
    for (const auto& block : result.content) {
      if (const auto* image = std::get_if<core::ImageBlock>(&block)) {
        image_parts.push_back(image_part(*image));
      }
    }
  }
  // After all tool messages: the service requires them to follow their assistant message
  // without anything in between.
  if (!image_parts.empty()) {
    messages.push_back({{"role", "user"}, {"content", std::move(image_parts)}});
  }
}

// The Chat Completions messages of one history message.
json history_messages(const core::Message& message, bool images_allowed) {
  json messages = json::array();
  if (const auto* user = std::get_if<core::UserMessage>(&message)) {
    messages.push_back(
        {{"role", "user"}, {"content", user_content(user->content, images_allowed)}});
  } else if (const auto* assistant = std::get_if<core::AssistantMessage>(&message)) {
    add_assistant(*assistant, messages);
  } else {
    add_tool_results(std::get<core::ToolResultMessage>(message), images_allowed, messages);
  }
  return messages;
}

json tool_specs(const std::vector<core::ToolSpec>& tools) {
  // The service requires an object schema even for a tool without parameters.
  static const json kNoParameters = {{"type", "object"}, {"properties", json::object()}};
  json out = json::array();
  for (const auto& tool : tools) {
    out.push_back(
        {{"type", "function"},
         {"function",
          {{"name", tool.name},
           {"description", tool.description},
           {"parameters", tool.parameters.is_null() ? kNoParameters : tool.parameters}}}});
  }
  return out;
}

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

}  // namespace

std::string openai_id(const std::string& id) {
  if (id.size() <= kMaxOpenAIIdLength) return id;
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a(id)));
  const std::size_t keep = util::utf8_prefix_length(id, kMaxOpenAIIdLength - 17);
  return id.substr(0, keep) + "_" + hash;
}

ChatDialect chat_dialect_for(const std::string& base_url) {
  std::string_view host = base_url;
  if (const std::size_t scheme = host.find("://"); scheme != std::string_view::npos) {
    host.remove_prefix(scheme + 3);
  }
  host = host.substr(0, host.find_first_of(":/"));
  const bool openai = host == "api.openai.com" || host.ends_with(".openai.azure.com");
  return openai ? ChatDialect::kOpenAI : ChatDialect::kCompatible;
}

std::string build_chat_request(const core::ProviderRequest& request, ChatDialect dialect,
                               WireHistory* cache) {
  const bool images_allowed = request.model.supports_images;
  WireItems system;
  if (!request.system_prompt.empty()) {
    system.push_back(util::json_text({{"role", "system"}, {"content", request.system_prompt}}));
  }
  const std::string messages = WireHistory::array(
      cache, request.messages, images_allowed ? "chat, images" : "chat, no images",
      [images_allowed](const core::Message& message) {
        return wire_items(history_messages(message, images_allowed));
      },
      system);
  json body = {
      {"model", request.model.id}, {"stream", true}, {"stream_options", {{"include_usage", true}}}};
  if (!request.tools.empty()) body["tools"] = tool_specs(request.tools);
  if (request.model.max_output_tokens > 0) {
    const char* name = dialect == ChatDialect::kOpenAI ? "max_completion_tokens" : "max_tokens";
    body[name] = request.model.max_output_tokens;
  }
  if (dialect == ChatDialect::kOpenAI && !request.cache_key.empty()) {
    body["prompt_cache_key"] = openai_id(request.cache_key);
  }
  return with_first_member(util::json_text(body), "messages", messages);
}

}  // namespace nib::provider
