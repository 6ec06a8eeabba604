#include "provider/openai_responses_request.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <optional>
#include <string>
#include <unordered_set>
#include <variant>

#include "provider/openai_chat_request.hpp"
#include "util/json_depth.hpp"
#include "util/json_text.hpp"
#include "util/utf8.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;

// Stands in a function_call_output for an image that travels in the user message after the
// batch.
constexpr const char* kImageInNextMessageText = "[image: see the next user message]";

json input_text(std::string text) {
  return {{"type", "input_text"}, {"text", std::move(text)}};
}

json input_image(const core::ImageBlock& image) {
  return {{"type", "input_image"},
          {"image_url", "data:" + image.mime_type + ";base64," + image.data_base64},
          {"detail", "auto"}};
}

json user_message(json parts) {
  return {{"type", "message"}, {"role", "user"}, {"content", std::move(parts)}};
}

json user_parts(const core::Content& content, bool images_allowed) {
  json parts = json::array();
  for (const auto& block : content) {
    if (const auto* text = std::get_if<core::TextBlock>(&block)) {
      parts.push_back(input_text(text->text));
    } else if (images_allowed) {
      parts.push_back(input_image(std::get<core::ImageBlock>(block)));
    } else {
      parts.push_back(input_text(kImageOmittedText));
    }
  }
  return parts;
}

// The ids of the history's custom (freeform) calls, whose results go back as custom outputs.
using FreeformCallIds = std::unordered_set<std::string>;

FreeformCallIds freeform_call_ids(const std::vector<core::Message>& messages) {
  FreeformCallIds ids;
  for (const auto& message : messages) {
    const auto* assistant = std::get_if<core::AssistantMessage>(&message);
    if (assistant == nullptr) continue;
    for (const auto& block : assistant->blocks) {
      const auto* call = std::get_if<core::ToolCall>(&block);
      if (call != nullptr && call->freeform) ids.insert(call->id);
    }
  }
  return ids;
}

// A custom call's raw input: the `input` string nib holds it under (core::ToolCall::freeform).
std::string freeform_input(const core::ToolCall& call) {
  const json arguments = util::parse_untrusted_json(call.arguments);
  if (!arguments.is_object()) return {};
  const auto input = arguments.find("input");
  return input != arguments.end() && input->is_string() ? input->get<std::string>() : "";
}

// True when a block after `position` becomes an input item of its own (text or a tool call).
bool followed_by_output(const std::vector<core::AssistantBlock>& blocks, std::size_t position) {
  return std::any_of(blocks.begin() + static_cast<std::ptrdiff_t>(position) + 1, blocks.end(),
                     [](const core::AssistantBlock& block) {
                       if (const auto* text = std::get_if<core::TextBlock>(&block)) {
                         return !text->text.empty();  // an empty text is not sent
                       }
                       if (const auto* search = std::get_if<core::WebSearchBlock>(&block)) {
                         return !search->replay.empty();
                       }
                       return std::holds_alternative<core::ToolCall>(block);
                     });
}

void add_assistant(const core::AssistantMessage& message, json& input) {
  const bool own_protocol = message.api == kOpenAIResponsesApi;
  for (std::size_t position = 0; position < message.blocks.size(); ++position) {
    const auto& block = message.blocks[position];
    if (const auto* text = std::get_if<core::TextBlock>(&block)) {
      if (text->text.empty()) continue;
      input.push_back(
          {{"type", "message"},
           {"role", "assistant"},
           {"content", json::array({{{"type", "output_text"}, {"text", text->text}}})}});
    } else if (const auto* call = std::get_if<core::ToolCall>(&block)) {
      if (call->freeform) {
        input.push_back({{"type", "custom_tool_call"},
                         {"call_id", openai_id(call->id)},
                         {"name", call->name},
                         {"input", freeform_input(*call)}});
      } else {
        input.push_back({{"type", "function_call"},
                         {"call_id", openai_id(call->id)},
                         {"name", call->name},
                         {"arguments", call->arguments}});
      }
    } else if (const auto* search = std::get_if<core::WebSearchBlock>(&block)) {
      json item = own_protocol ? util::parse_untrusted_json(search->replay) : json();
      if (item.is_object()) input.push_back(std::move(item));
    } else if (own_protocol && followed_by_output(message.blocks, position)) {
      json item = decode_reasoning_signature(std::get<core::ThinkingBlock>(block).signature);
      if (!item.is_null()) input.push_back(std::move(item));
    }
  }
}

void add_tool_results(const core::ToolResultMessage& message, bool images_allowed,
                      const FreeformCallIds& freeform_calls, json& input) {
  json image_parts = json::array();
  for (const auto& result : message.results) {
    const std::string call_id = openai_id(result.tool_call_id);
    const bool forward_images = images_allowed && core::has_image(result.content);
    // A custom call is answered with a custom output; the service refuses a mismatch.
    const bool freeform = freeform_calls.contains(result.tool_call_id);
    input.push_back(
        {{"type", freeform ? "custom_tool_call_output" : "function_call_output"},
         {"call_id", call_id},
         {"output", core::content_text(result.content, forward_images ? kImageInNextMessageText
                                                                      : kImageOmittedText)}});
    if (!forward_images) continue;
    image_parts.push_back(input_text("Images from the result of tool call " + call_id + " (" +
                                     result.tool_name + "):"));
    for (const auto& block : result.content) {
      if (const auto* image = std::get_if<core::ImageBlock>(&block)) {
        image_parts.push_back(input_image(*image));
      }
    }
  }
  // After all outputs, so that every call's output directly follows the calls, as in the
  // service's own transcripts.
  if (!image_parts.empty()) input.push_back(user_message(std::move(image_parts)));
}

// The input items of one history message.
json history_items(const core::Message& message, bool images_allowed,
                   const FreeformCallIds& freeform_calls) {
  json input = json::array();
  if (const auto* user = std::get_if<core::UserMessage>(&message)) {
    input.push_back(user_message(user_parts(user->content, images_allowed)));
  } else if (const auto* assistant = std::get_if<core::AssistantMessage>(&message)) {
    add_assistant(*assistant, input);
  } else {
    add_tool_results(std::get<core::ToolResultMessage>(message), images_allowed, freeform_calls,
                     input);
  }
  return input;
}

json tool_specs(const std::vector<core::ToolSpec>& tools) {
  // The service requires an object schema even for a tool without parameters.
  static const json kNoParameters = {{"type", "object"}, {"properties", json::object()}};
  json out = json::array();
  for (const auto& tool : tools) {
    if (!tool.grammar.empty()) {
      // A freeform tool: the model writes its input as raw text in the tool's grammar.
      out.push_back(
          {{"type", "custom"},
           {"name", tool.name},
           {"description", tool.description},
           {"format", {{"type", "grammar"}, {"syntax", "lark"}, {"definition", tool.grammar}}}});
      continue;
    }
    // strict:false: nib's schemas are not written to the strict subset (every property
    // required, no additional properties), and arguments are validated locally anyway.
    out.push_back({{"type", "function"},
                   {"name", tool.name},
                   {"description", tool.description},
                   {"parameters", tool.parameters.is_null() ? kNoParameters : tool.parameters},
                   {"strict", false}});
  }
  return out;
}

std::optional<const char*> reasoning_effort(core::ThinkingLevel level) {
  // See build_responses_request: no value means off on every model.
  if (level == core::ThinkingLevel::kOff) return std::nullopt;
  return core::thinking_level_name(level);  // the service's efforts bear the same names
}

// 64-bit FNV-1a: a stable, dependency-free hash; collisions only matter within one history.
// The output item's type and the named fields it has (null ones left out); null when `item`
// is not an object of that type.
json item_fields(const json& item, const char* type, std::initializer_list<const char*> names) {
  if (!item.is_object() || item.value("type", json()) != type) return nullptr;
  json kept = {{"type", type}};
  for (const char* name : names) {
    if (const auto field = item.find(name); field != item.end() && !field->is_null()) {
      kept[name] = *field;
    }
  }
  return kept;
}

}  // namespace

std::string encode_web_search_replay(const json& item) {
  const json kept = item_fields(item, "web_search_call", {"id", "status", "action"});
  return kept.is_null() ? std::string() : util::json_text(kept);
}

std::string encode_reasoning_signature(const json& item) {
  json kept = item_fields(item, "reasoning", {"id", "summary", "encrypted_content"});
  if (kept.is_null()) return {};
  if (!kept.contains("summary")) kept["summary"] = json::array();  // required on input
  return util::json_text(kept);
}

json decode_reasoning_signature(const std::string& signature) {
  json item = json::parse(signature, nullptr, /*allow_exceptions=*/false);
  if (!item.is_object() || item.value("type", json()) != "reasoning") return nullptr;
  // Without the encrypted content the service would look the item up by id, and with
  // store:false it keeps none ("Item with id 'rs_...' not found").
  const auto encrypted = item.find("encrypted_content");
  if (encrypted == item.end() || !encrypted->is_string() ||
      encrypted->get_ref<const std::string&>().empty()) {
    return nullptr;
  }
  return item;
}

std::string build_responses_request(const core::ProviderRequest& request, WireHistory* cache) {
  const bool images_allowed = request.model.supports_images;
  const FreeformCallIds freeform_calls = freeform_call_ids(*request.messages);
  const std::string input = WireHistory::array(
      cache, request.messages, images_allowed ? "responses, images" : "responses, no images",
      [images_allowed, &freeform_calls](const core::Message& message) {
        return wire_items(history_items(message, images_allowed, freeform_calls));
      });
  json body = {{"model", request.model.id},
               {"stream", true},
               // nib keeps the history itself and sends it whole each turn.
               {"store", false}};
  if (!request.system_prompt.empty()) body["instructions"] = request.system_prompt;
  json include = json::array();
  if (!request.tools.empty() || request.web_search) body["tools"] = tool_specs(request.tools);
  if (request.web_search) {
    body["tools"].push_back({{"type", "web_search"}});
    include.push_back("web_search_call.action.sources");
  }
  if (!request.cache_key.empty()) body["prompt_cache_key"] = openai_id(request.cache_key);
  if (request.model.max_output_tokens > 0) {
    body["max_output_tokens"] = request.model.max_output_tokens;
  }
  if (request.model.reasoning) include.push_back("reasoning.encrypted_content");
  if (!include.empty()) body["include"] = std::move(include);
  if (request.model.reasoning) {
    if (const auto effort = reasoning_effort(request.thinking)) {
      body["reasoning"] = {{"effort", *effort}, {"summary", "auto"}};
    }
  }
  return with_first_member(util::json_text(body), "input", input);
}

}  // namespace nib::provider
