#include "session/message_codec.hpp"

#include <array>
#include <cstdint>
#include <limits>

namespace nib::session {
namespace {

using nlohmann::json;

// Every value of the enums the codec names, so decoding maps a name back through the same
// naming functions that encoding uses and the two can never disagree.
constexpr std::array kStopReasons = {core::StopReason::kEndTurn, core::StopReason::kToolUse,
                                     core::StopReason::kMaxTokens, core::StopReason::kAborted,
                                     core::StopReason::kError};
constexpr std::array kErrorKinds = {core::ErrorKind::kNone,       core::ErrorKind::kRateLimited,
                                    core::ErrorKind::kOverloaded, core::ErrorKind::kServer,
                                    core::ErrorKind::kConnection, core::ErrorKind::kContextOverflow,
                                    core::ErrorKind::kOther};

// --- encoding ---

json content_json(const core::Content& content) {
  json out = json::array();
  for (const auto& block : content) {
    if (const auto* text = std::get_if<core::TextBlock>(&block)) {
      out.push_back({{"type", "text"}, {"text", text->text}});
    } else {
      const auto& image = std::get<core::ImageBlock>(block);
      out.push_back(
          {{"type", "image"}, {"mime_type", image.mime_type}, {"data", image.data_base64}});
    }
  }
  return out;
}

json text_block_json(const core::TextBlock& text) {
  json out = {{"type", "text"}, {"text", text.text}};
  if (text.glued) out["glued"] = true;
  if (text.citations.empty()) return out;
  json citations = json::array();
  for (const core::Citation& citation : text.citations) {
    json entry = {{"url", citation.url}, {"title", citation.title}};
    if (!citation.replay.empty()) entry["replay"] = citation.replay;
    citations.push_back(std::move(entry));
  }
  out["citations"] = std::move(citations);
  return out;
}

json web_search_json(const core::WebSearchBlock& search) {
  json results = json::array();
  for (const core::WebSearchResult& result : search.results) {
    results.push_back({{"title", result.title}, {"url", result.url}});
  }
  json out = {{"type", "web_search"},
              {"id", search.id},
              {"query", search.query},
              {"results", std::move(results)}};
  if (!search.error.empty()) out["error"] = search.error;
  if (!search.replay.empty()) out["replay"] = search.replay;
  return out;
}

json assistant_block_json(const core::AssistantBlock& block) {
  if (const auto* text = std::get_if<core::TextBlock>(&block)) return text_block_json(*text);
  if (const auto* search = std::get_if<core::WebSearchBlock>(&block)) {
    return web_search_json(*search);
  }
  if (const auto* thinking = std::get_if<core::ThinkingBlock>(&block)) {
    json out = {{"type", "thinking"}, {"text", thinking->text}, {"signature", thinking->signature}};
    if (thinking->redacted) out["redacted"] = true;
    return out;
  }
  const auto& call = std::get<core::ToolCall>(block);
  json out = {
      {"type", "tool_call"}, {"id", call.id}, {"name", call.name}, {"arguments", call.arguments}};
  if (call.freeform) out["freeform"] = true;
  return out;
}

json assistant_json(const core::AssistantMessage& message) {
  json blocks = json::array();
  for (const auto& block : message.blocks) blocks.push_back(assistant_block_json(block));
  json out = {{"role", "assistant"},
              {"content", std::move(blocks)},
              {"stop_reason", core::stop_reason_name(message.stop_reason)},
              {"usage",
               {{"input_tokens", message.usage.input_tokens},
                {"output_tokens", message.usage.output_tokens},
                {"cache_read_tokens", message.usage.cache_read_tokens},
                {"cache_write_tokens", message.usage.cache_write_tokens}}},
              {"model", message.model},
              {"api", message.api}};
  if (!message.error_message.empty()) out["error_message"] = message.error_message;
  if (message.error_kind != core::ErrorKind::kNone) {
    out["error_kind"] = core::error_kind_name(message.error_kind);
  }
  if (message.retry_after) out["retry_after_ms"] = message.retry_after->count();
  return out;
}

json tool_results_json(const core::ToolResultMessage& message) {
  json results = json::array();
  for (const auto& result : message.results) {
    json entry = {{"tool_call_id", result.tool_call_id},
                  {"tool_name", result.tool_name},
                  {"content", content_json(result.content)},
                  {"is_error", result.is_error}};
    if (result.exit_code) entry["exit_code"] = *result.exit_code;
    results.push_back(std::move(entry));
  }
  return {{"role", "tool_result"}, {"results", std::move(results)}};
}

// --- decoding ---

// Thrown inside this file only; decode_message turns it into a Result.
struct DecodeError {
  std::string message;
};

// One JSON object being decoded, with its position in the message ("content[1]") so that an
// error names the exact field.
class ObjectReader {
 public:
  ObjectReader(const json& value, std::string where) : object_(value), where_(std::move(where)) {
    if (!object_.is_object()) fail_at(where_, "expected an object");
  }

  // The path of field `name`, for messages and for nested readers.
  std::string path(const char* name) const {
    return where_.empty() ? std::string(name) : where_ + "." + name;
  }

  std::string required_string(const char* name) const {
    const json* value = find(name);
    if (value == nullptr) fail_at(path(name), "missing");
    return as_string(*value, name);
  }

  std::string optional_string(const char* name) const {
    const json* value = find(name);
    return value == nullptr ? std::string() : as_string(*value, name);
  }

  bool optional_bool(const char* name) const {
    const json* value = find(name);
    if (value == nullptr) return false;
    if (!value->is_boolean()) fail_at(path(name), "expected true or false");
    return value->get<bool>();
  }

  std::optional<std::int64_t> optional_integer(const char* name) const {
    const json* value = find(name);
    if (value == nullptr) return std::nullopt;
    // A number above int64's range is unsigned in nlohmann::json; it cannot be ours.
    if (!value->is_number_integer() ||
        (value->is_number_unsigned() &&
         value->get<std::uint64_t>() >
             static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))) {
      fail_at(path(name), "expected a whole number");
    }
    return value->get<std::int64_t>();
  }

  const json& required_array(const char* name) const {
    const json* value = find(name);
    if (value == nullptr) fail_at(path(name), "missing");
    if (!value->is_array()) fail_at(path(name), "expected an array");
    return *value;
  }

  // nullptr when absent.
  const json* optional_array(const char* name) const {
    const json* value = find(name);
    if (value != nullptr && !value->is_array()) fail_at(path(name), "expected an array");
    return value;
  }

  const json& required_object(const char* name) const {
    const json* value = find(name);
    if (value == nullptr) fail_at(path(name), "missing");
    return *value;  // the nested ObjectReader checks that it is an object
  }

  [[noreturn]] static void fail_at(const std::string& where, const std::string& problem) {
    throw DecodeError{(where.empty() ? std::string("message") : where) + ": " + problem};
  }

 private:
  const json* find(const char* name) const {
    const auto it = object_.find(name);
    return it == object_.end() ? nullptr : &*it;
  }

  std::string as_string(const json& value, const char* name) const {
    if (!value.is_string()) fail_at(path(name), "expected a string");
    return value.get<std::string>();
  }

  const json& object_;
  std::string where_;
};

std::string element_path(const std::string& array_path, std::size_t index) {
  return array_path + "[" + std::to_string(index) + "]";
}

core::Content decode_content(const ObjectReader& parent, const char* name) {
  const json& array = parent.required_array(name);
  core::Content content;
  for (std::size_t i = 0; i < array.size(); ++i) {
    const ObjectReader block(array[i], element_path(parent.path(name), i));
    const std::string type = block.required_string("type");
    if (type == "text") {
      content.emplace_back(core::TextBlock{block.required_string("text")});
    } else if (type == "image") {
      content.emplace_back(
          core::ImageBlock{block.required_string("data"), block.required_string("mime_type")});
    } else {
      ObjectReader::fail_at(block.path("type"), "unknown content block type \"" + type + "\"");
    }
  }
  return content;
}

// The objects of the optional array `name`, each read by `read`.
template <typename Read>
void for_each_object(const ObjectReader& parent, const char* name, const Read& read) {
  const json* array = parent.optional_array(name);
  if (array == nullptr) return;
  for (std::size_t i = 0; i < array->size(); ++i) {
    read(ObjectReader((*array)[i], element_path(parent.path(name), i)));
  }
}

core::TextBlock decode_text_block(const ObjectReader& block) {
  core::TextBlock text{block.required_string("text")};
  text.glued = block.optional_bool("glued");
  for_each_object(block, "citations", [&text](const ObjectReader& citation) {
    text.citations.push_back({citation.required_string("url"), citation.optional_string("title"),
                              citation.optional_string("replay")});
  });
  return text;
}

core::WebSearchBlock decode_web_search(const ObjectReader& block) {
  core::WebSearchBlock search;
  search.id = block.optional_string("id");
  search.query = block.optional_string("query");
  search.error = block.optional_string("error");
  search.replay = block.optional_string("replay");
  for_each_object(block, "results", [&search](const ObjectReader& result) {
    search.results.push_back({result.optional_string("title"), result.required_string("url")});
  });
  return search;
}

core::AssistantBlock decode_assistant_block(const ObjectReader& block) {
  const std::string type = block.required_string("type");
  if (type == "text") return decode_text_block(block);
  if (type == "web_search") return decode_web_search(block);
  if (type == "thinking") {
    return core::ThinkingBlock{block.optional_string("text"), block.optional_string("signature"),
                               block.optional_bool("redacted")};
  }
  if (type == "tool_call") {
    core::ToolCall call{block.required_string("id"), block.required_string("name"),
                        block.optional_string("arguments")};
    call.freeform = block.optional_bool("freeform");
    return call;
  }
  ObjectReader::fail_at(block.path("type"), "unknown assistant block type \"" + type + "\"");
}

template <typename Enum, std::size_t N>
Enum enum_named(const std::array<Enum, N>& values, const char* (*name_of)(Enum),
                const std::string& name, const std::string& where) {
  for (const Enum value : values) {
    if (name == name_of(value)) return value;
  }
  ObjectReader::fail_at(where, "unknown value \"" + name + "\"");
}

core::Usage decode_usage(const ObjectReader& usage) {
  core::Usage out;
  out.input_tokens = usage.optional_integer("input_tokens").value_or(0);
  out.output_tokens = usage.optional_integer("output_tokens").value_or(0);
  out.cache_read_tokens = usage.optional_integer("cache_read_tokens").value_or(0);
  out.cache_write_tokens = usage.optional_integer("cache_write_tokens").value_or(0);
  return out;
}

core::AssistantMessage decode_assistant(const ObjectReader& message) {
  core::AssistantMessage out;
  const json& blocks = message.required_array("content");
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    out.blocks.push_back(
        decode_assistant_block(ObjectReader(blocks[i], element_path(message.path("content"), i))));
  }
  out.stop_reason = enum_named(kStopReasons, core::stop_reason_name,
                               message.required_string("stop_reason"), message.path("stop_reason"));
  out.usage = decode_usage(ObjectReader(message.required_object("usage"), message.path("usage")));
  out.error_message = message.optional_string("error_message");
  const std::string kind = message.optional_string("error_kind");
  if (!kind.empty()) {
    out.error_kind =
        enum_named(kErrorKinds, core::error_kind_name, kind, message.path("error_kind"));
  }
  if (const auto retry_after = message.optional_integer("retry_after_ms")) {
    out.retry_after = std::chrono::milliseconds(*retry_after);
  }
  out.model = message.optional_string("model");
  out.api = message.optional_string("api");
  return out;
}

core::ToolResultMessage decode_tool_results(const ObjectReader& message) {
  core::ToolResultMessage out;
  const json& results = message.required_array("results");
  for (std::size_t i = 0; i < results.size(); ++i) {
    const ObjectReader result(results[i], element_path(message.path("results"), i));
    core::ToolResult decoded;
    decoded.tool_call_id = result.required_string("tool_call_id");
    decoded.tool_name = result.optional_string("tool_name");
    decoded.content = decode_content(result, "content");
    decoded.is_error = result.optional_bool("is_error");
    if (const auto exit_code = result.optional_integer("exit_code")) {
      if (*exit_code < std::numeric_limits<int>::min() ||
          *exit_code > std::numeric_limits<int>::max()) {
        ObjectReader::fail_at(result.path("exit_code"), "out of range");
      }
      decoded.exit_code = static_cast<int>(*exit_code);
    }
    out.results.push_back(std::move(decoded));
  }
  return out;
}

}  // namespace

nlohmann::json encode_message(const core::Message& message) {
  if (const auto* user = std::get_if<core::UserMessage>(&message)) {
    return {{"role", "user"}, {"content", content_json(user->content)}};
  }
  if (const auto* assistant = std::get_if<core::AssistantMessage>(&message)) {
    return assistant_json(*assistant);
  }
  return tool_results_json(std::get<core::ToolResultMessage>(message));
}

util::Result<core::Message> decode_message(const nlohmann::json& json) {
  try {
    const ObjectReader message(json, "");
    const std::string role = message.required_string("role");
    if (role == "user") return core::Message(core::UserMessage{decode_content(message, "content")});
    if (role == "assistant") return core::Message(decode_assistant(message));
    if (role == "tool_result") return core::Message(decode_tool_results(message));
    ObjectReader::fail_at("role", "unknown role \"" + role + "\"");
  } catch (const DecodeError& error) {
    return util::Result<core::Message>::failure(error.message);
  } catch (const std::exception& error) {
    // Not expected (every access is checked first), but a decoder must not throw out.
    return util::Result<core::Message>::failure(std::string("message: ") + error.what());
  }
}

}  // namespace nib::session
