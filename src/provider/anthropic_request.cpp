#include "provider/anthropic_request.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "provider/openai_chat_request.hpp"  // kImageOmittedText
#include "provider/wire_history.hpp"
#include "util/json_depth.hpp"
#include "util/json_text.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;

// Stands in for a tool result without any content: the service rejects an empty error result,
// and an empty one tells the model nothing.
constexpr const char* kEmptyResultText = "(no output)";

// Cache breakpoints on user turns: the latest and the one before it.
constexpr std::size_t kUserTurnBreakpoints = 2;

// The length of the hash suffix "_xxxxxxxx" of a rewritten tool-use id.
constexpr std::size_t kIdHashSuffixBytes = 9;

struct Version {
  int major = 0;
  int minor = 0;
};

// A version number part of a model id: one or two digits, optionally followed by "@<date>"
// (Vertex ids such as "claude-sonnet-4-5@20250929"). Dates ("20250514") are not versions.
std::optional<int> version_part(std::string_view token) {
  std::size_t digits = 0;
  while (digits < token.size() && token[digits] >= '0' && token[digits] <= '9') ++digits;
  if (digits == 0 || digits > 2) return std::nullopt;
  if (digits < token.size() && token[digits] != '@') return std::nullopt;
  int value = 0;
  for (std::size_t i = 0; i < digits; ++i) value = value * 10 + (token[i] - '0');
  return value;
}

// The Claude version in a model id: "claude-3-5-sonnet-20241022" -> 3.5, "claude-opus-4-1" ->
// 4.1, "claude-sonnet-4-20250514" -> 4.0, "us.anthropic.claude-haiku-4-5-20251001-v1:0" ->
// 4.5. nullopt for ids without "claude" or without a version.
std::optional<Version> claude_version(std::string_view id) {
  const std::size_t start = id.find("claude");
  if (start == std::string_view::npos) return std::nullopt;
  std::vector<std::string_view> tokens;
  std::string_view rest = id.substr(start);
  while (!rest.empty()) {
    const std::size_t dash = rest.find('-');
    tokens.push_back(rest.substr(0, dash));
    if (dash == std::string_view::npos) break;
    rest.remove_prefix(dash + 1);
  }
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::optional<int> major = version_part(tokens[i]);
    if (!major) continue;
    Version version{*major, 0};
    const bool dated_major = tokens[i].find('@') != std::string_view::npos;
    if (!dated_major && i + 1 < tokens.size()) {
      version.minor = version_part(tokens[i + 1]).value_or(0);
    }
    return version;
  }
  return std::nullopt;
}

bool is_blank(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
  });
}

json text_block(std::string text) {
  return {{"type", "text"}, {"text", std::move(text)}};
}

json image_block(const core::ImageBlock& image) {
  return {{"type", "image"},
          {"source",
           {{"type", "base64"}, {"media_type", image.mime_type}, {"data", image.data_base64}}}};
}

// Text and image blocks of `content`; blank text is dropped (the service rejects it) and an
// image becomes kImageOmittedText for a model without images.
json content_blocks(const core::Content& content, bool images_allowed) {
  json blocks = json::array();
  for (const auto& block : content) {
    if (const auto* text = std::get_if<core::TextBlock>(&block)) {
      if (!is_blank(text->text)) blocks.push_back(text_block(text->text));
    } else if (images_allowed) {
      blocks.push_back(image_block(std::get<core::ImageBlock>(block)));
    } else {
      blocks.push_back(text_block(kImageOmittedText));
    }
  }
  return blocks;
}

// The arguments as the JSON object `input` requires. Raw text that is not an object (a call
// cut short, say) becomes {}: its result already told the model the arguments were bad.
json tool_input(const std::string& arguments) {
  json input = util::parse_untrusted_json(arguments);
  return input.is_object() ? input : json::object();
}

// A thinking block is sent back only to the protocol that signed it, and only with its
// signature (a block cut off before its signature arrived cannot be verified).
bool replayable(const core::ThinkingBlock& thinking, const core::AssistantMessage& message) {
  return message.api == kAnthropicApi && !thinking.signature.empty();
}

// A reply's text block; its citations only go back to the protocol that made them.
json reply_text_block(const core::TextBlock& text, bool own) {
  json block = text_block(text.text);
  if (!own) return block;
  json citations = json::array();
  for (const core::Citation& citation : text.citations) {
    json kept = util::parse_untrusted_json(citation.replay);
    if (kept.is_object()) citations.push_back(std::move(kept));
  }
  if (!citations.empty()) block["citations"] = std::move(citations);
  return block;
}

// A hosted search's blocks as the service sent them: only the whole pair, and only to this
// protocol (the service rejects a server_tool_use without its result).
void append_search(const core::WebSearchBlock& search, bool own, json& blocks) {
  if (!own) return;
  json replay = util::parse_untrusted_json(search.replay);
  if (!replay.is_array() || replay.size() != 2) return;
  for (json& block : replay) blocks.push_back(std::move(block));
}

json assistant_blocks(const core::AssistantMessage& message) {
  const bool own = message.api == kAnthropicApi;
  json blocks = json::array();
  for (const auto& block : message.blocks) {
    if (const auto* text = std::get_if<core::TextBlock>(&block)) {
      if (!is_blank(text->text)) blocks.push_back(reply_text_block(*text, own));
    } else if (const auto* search = std::get_if<core::WebSearchBlock>(&block)) {
      append_search(*search, own, blocks);
    } else if (const auto* thinking = std::get_if<core::ThinkingBlock>(&block)) {
      if (!replayable(*thinking, message)) continue;
      if (thinking->redacted) {
        blocks.push_back({{"type", "redacted_thinking"}, {"data", thinking->signature}});
      } else {
        blocks.push_back({{"type", "thinking"},
                          {"thinking", thinking->text},
                          {"signature", thinking->signature}});
      }
    } else {
      const auto& call = std::get<core::ToolCall>(block);
      blocks.push_back({{"type", "tool_use"},
                        {"id", anthropic_tool_use_id(call.id)},
                        {"name", call.name},
                        {"input", tool_input(call.arguments)}});
    }
  }
  return blocks;
}

json tool_result_blocks(const core::ToolResultMessage& message, bool images_allowed) {
  json blocks = json::array();
  for (const auto& result : message.results) {
    json content = content_blocks(result.content, images_allowed);
    if (content.empty()) content.push_back(text_block(kEmptyResultText));
    blocks.push_back({{"type", "tool_result"},
                      {"tool_use_id", anthropic_tool_use_id(result.tool_call_id)},
                      {"content", std::move(content)},
                      {"is_error", result.is_error}});
  }
  return blocks;
}

// The content blocks of one history message (a user message's, a reply's, or a batch of tool
// results, which the service takes in a user message).
json history_blocks(const core::Message& message, bool images_allowed) {
  if (const auto* user = std::get_if<core::UserMessage>(&message)) {
    return content_blocks(user->content, images_allowed);
  }
  if (const auto* assistant = std::get_if<core::AssistantMessage>(&message)) {
    return assistant_blocks(*assistant);
  }
  return tool_result_blocks(std::get<core::ToolResultMessage>(message), images_allowed);
}

json cache_breakpoint() {
  return {{"type", "ephemeral"}};
}

// The text of the messages array, written as the history is visited: consecutive messages of
// one role are merged into one message (the service requires user and assistant turns to
// alternate), and the last block of each of the last `marked_turns` user messages carries a
// cache breakpoint (see build_anthropic_request).
class MessagesText {
 public:
  explicit MessagesText(std::size_t marked_turns) : marked_turns_(marked_turns) {}

  void add(const core::Message& message, const WireItems& blocks) {
    if (blocks.empty()) return;
    const bool assistant = std::holds_alternative<core::AssistantMessage>(message);
    const std::string_view role = assistant ? "assistant" : "user";
    if (open_role_ != role) {
      close_message();
      if (text_.size() > 1) text_ += ',';
      text_ += R"({"role":")";
      text_ += role;
      text_ += R"(","content":[)";
      open_role_ = role;
    } else {
      text_ += ',';
    }
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      if (i > 0) text_ += ',';
      text_ += blocks[i];
    }
    last_block_end_ = text_.size();
  }

  // The array's text, with the breakpoints.
  std::string take() {
    close_message();
    text_ += ']';
    const std::string breakpoint = R"("cache_control":)" + util::json_text(cache_breakpoint());
    const std::size_t count = std::min(marked_turns_, user_block_ends_.size());
    // From the back, so that the offsets before each insertion stay valid.
    for (std::size_t i = user_block_ends_.size(); i-- > user_block_ends_.size() - count;) {
      // The block object's closing brace (a user turn's blocks are objects nib wrote).
      const std::size_t brace = user_block_ends_[i] - 1;
      if (text_[brace] != '}') continue;
      const bool empty_object = text_[brace - 1] == '{';
      text_.insert(brace, empty_object ? breakpoint : "," + breakpoint);
    }
    return std::move(text_);
  }

 private:
  void close_message() {
    if (open_role_.empty()) return;
    text_ += "]}";
    if (open_role_ == "user") user_block_ends_.push_back(last_block_end_);
    open_role_ = {};
  }

  std::size_t marked_turns_;
  std::string text_ = "[";
  std::string_view open_role_;                // the role of the message being written, if any
  std::size_t last_block_end_ = 0;            // where its last block ends in text_
  std::vector<std::size_t> user_block_ends_;  // the same, for each user message written
};

json tool_specs(const std::vector<core::ToolSpec>& tools) {
  // The service requires an object schema even for a tool without parameters.
  static const json kNoParameters = {{"type", "object"}, {"properties", json::object()}};
  json out = json::array();
  for (const auto& tool : tools) {
    out.push_back({{"name", tool.name},
                   {"description", tool.description},
                   {"input_schema", tool.parameters.is_null() ? kNoParameters : tool.parameters}});
  }
  return out;
}

// False when the request continues a tool-use cycle (its last user message holds tool
// results, perhaps followed by a prompt merged into it) whose first reply does not begin with
// a thinking block that is sent back: with a fixed thinking budget the service requires that
// reply to start with its thinking.
bool cycle_allows_budget_thinking(const std::vector<core::Message>& history) {
  auto message = history.rbegin();
  while (message != history.rend() && std::holds_alternative<core::UserMessage>(*message)) {
    ++message;
  }
  if (message == history.rend() || !std::holds_alternative<core::ToolResultMessage>(*message)) {
    return true;
  }
  const core::AssistantMessage* first_reply = nullptr;
  for (; message != history.rend(); ++message) {
    if (std::holds_alternative<core::UserMessage>(*message)) break;
    if (const auto* assistant = std::get_if<core::AssistantMessage>(&*message)) {
      first_reply = assistant;
    }
  }
  if (first_reply == nullptr || first_reply->blocks.empty()) return false;
  const auto* thinking = std::get_if<core::ThinkingBlock>(&first_reply->blocks.front());
  return thinking != nullptr && replayable(*thinking, *first_reply);
}

int thinking_budget(core::ThinkingLevel level) {
  switch (level) {
    case core::ThinkingLevel::kLow:
      return kThinkingBudgetLow;
    case core::ThinkingLevel::kMedium:
      return kThinkingBudgetMedium;
    case core::ThinkingLevel::kHigh:
      return kThinkingBudgetHigh;
    case core::ThinkingLevel::kOff:
      break;
  }
  return 0;
}

void add_thinking(const core::ProviderRequest& request, const std::vector<core::Message>& history,
                  json& body) {
  if (!request.model.reasoning || request.thinking == core::ThinkingLevel::kOff) return;
  if (thinking_style_for(request.model.id) == ThinkingStyle::kAdaptive) {
    body["thinking"] = {{"type", "adaptive"}};
    // The service's efforts bear the same names as the levels (off never gets here).
    body["output_config"] = {{"effort", core::thinking_level_name(request.thinking)}};
    return;
  }
  const int max_tokens = body["max_tokens"].get<int>();
  const int budget =
      std::min(thinking_budget(request.thinking), max_tokens - kThinkingAnswerReserveTokens);
  if (budget < kMinThinkingBudget || !cycle_allows_budget_thinking(history)) return;
  body["thinking"] = {{"type", "enabled"}, {"budget_tokens", budget}};
}

}  // namespace

json anthropic_content_blocks(const core::Message& message) {
  return history_blocks(message, /*images_allowed=*/true);
}

ThinkingStyle thinking_style_for(const std::string& model_id) {
  const std::optional<Version> version = claude_version(model_id);
  const bool adaptive =
      version && (version->major > 4 || (version->major == 4 && version->minor >= 6));
  return adaptive ? ThinkingStyle::kAdaptive : ThinkingStyle::kBudget;
}

int anthropic_max_tokens(const core::ModelInfo& model) {
  if (model.max_output_tokens > 0) return model.max_output_tokens;
  const std::optional<Version> version = claude_version(model.id);
  if (!version) {
    // A Claude id without a version number is a current alias or preview.
    const bool claude = model.id.find("claude") != std::string::npos;
    return claude ? kClaudeCurrentMaxTokens : kUnknownModelMaxTokens;
  }
  if (version->major >= 4) return kClaudeCurrentMaxTokens;
  if (version->major == 3 && version->minor >= 5) return kClaude35MaxTokens;
  return kClaude3MaxTokens;
}

std::string anthropic_tool_use_id(const std::string& id) {
  const auto allowed = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  };
  if (!id.empty() && id.size() <= kMaxToolUseIdBytes &&
      std::all_of(id.begin(), id.end(), allowed)) {
    return id;
  }
  std::string out;
  for (const char c : id) {
    if (out.size() == kMaxToolUseIdBytes - kIdHashSuffixBytes) break;
    out += allowed(c) ? c : '_';
  }
  // FNV-1a over the original id.
  std::uint32_t hash = 2166136261u;
  for (const char c : id) {
    hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
  }
  char suffix[kIdHashSuffixBytes + 1];
  std::snprintf(suffix, sizeof suffix, "_%08x", hash);
  return out + suffix;
}

std::string build_anthropic_request(const core::ProviderRequest& request, WireHistory* cache) {
  static const std::vector<core::Message> kNoMessages;
  const std::vector<core::Message>& history =
      request.messages != nullptr ? *request.messages : kNoMessages;
  json body = {{"model", request.model.id},
               {"max_tokens", anthropic_max_tokens(request.model)},
               {"stream", true}};

  std::size_t breakpoints = 0;
  if (!request.system_prompt.empty()) {
    json system = text_block(request.system_prompt);
    system["cache_control"] = cache_breakpoint();
    ++breakpoints;
    body["system"] = json::array({std::move(system)});
  }
  if (!request.tools.empty() || request.web_search) {
    json tools = tool_specs(request.tools);
    if (request.web_search) {
      tools.push_back({{"type", kAnthropicWebSearchToolType},
                       {"name", kAnthropicWebSearchToolName},
                       {"max_uses", kAnthropicWebSearchMaxUses}});
    }
    tools.back()["cache_control"] = cache_breakpoint();
    ++breakpoints;
    body["tools"] = std::move(tools);
  }
  const bool images_allowed = request.model.supports_images;
  MessagesText messages(std::min(kUserTurnBreakpoints, kMaxCacheBreakpoints - breakpoints));
  WireHistory::visit(
      cache, history, images_allowed ? "anthropic, images" : "anthropic, no images",
      [images_allowed](const core::Message& message) {
        return wire_items(history_blocks(message, images_allowed));
      },
      [&messages](const core::Message& message, const WireItems& blocks) {
        messages.add(message, blocks);
      });
  add_thinking(request, history, body);
  return with_first_member(util::json_text(body), "messages", messages.take());
}

}  // namespace nib::provider
