#include "core/messages.hpp"

#include <algorithm>

namespace nib::core {

Usage& Usage::operator+=(const Usage& other) {
  input_tokens += other.input_tokens;
  output_tokens += other.output_tokens;
  cache_read_tokens += other.cache_read_tokens;
  cache_write_tokens += other.cache_write_tokens;
  return *this;
}

Content text_content(std::string text) {
  return Content{TextBlock{std::move(text)}};
}

namespace {

// Joins the text blocks with newlines; each image contributes `image_text(image)`.
template <typename ImageText>
std::string joined(const Content& content, const ImageText& image_text) {
  std::string out;
  bool first = true;
  for (const auto& block : content) {
    if (!first) out += '\n';
    first = false;
    if (const auto* text = std::get_if<TextBlock>(&block)) {
      out += text->text;
    } else {
      out += image_text(std::get<ImageBlock>(block));
    }
  }
  return out;
}

}  // namespace

std::string content_text(const Content& content) {
  return joined(content, [](const ImageBlock& image) { return "[image " + image.mime_type + "]"; });
}

std::string content_text(const Content& content, std::string_view image_text) {
  return joined(content, [image_text](const ImageBlock&) { return image_text; });
}

bool has_image(const Content& content) {
  return std::any_of(content.begin(), content.end(), [](const ContentBlock& block) {
    return std::holds_alternative<ImageBlock>(block);
  });
}

std::vector<ToolCall> tool_calls_of(const AssistantMessage& message) {
  std::vector<ToolCall> calls;
  for (const auto& block : message.blocks) {
    if (const auto* call = std::get_if<ToolCall>(&block)) calls.push_back(*call);
  }
  return calls;
}

std::string assistant_text(const AssistantMessage& message) {
  std::string out;
  bool first = true;
  for (const auto& block : message.blocks) {
    const auto* text = std::get_if<TextBlock>(&block);
    if (text == nullptr || text->text.empty()) continue;
    if (!first && !text->glued) out += kTextBlockSeparator;
    first = false;
    out += text->text;
  }
  return out;
}

std::vector<WebSearchBlock> web_searches_of(const AssistantMessage& message) {
  std::vector<WebSearchBlock> searches;
  for (const auto& block : message.blocks) {
    if (const auto* search = std::get_if<WebSearchBlock>(&block)) searches.push_back(*search);
  }
  return searches;
}

std::vector<Citation> citations_of(const AssistantMessage& message) {
  std::vector<Citation> out;
  for (const auto& block : message.blocks) {
    const auto* text = std::get_if<TextBlock>(&block);
    if (text == nullptr) continue;
    for (const Citation& citation : text->citations) {
      const bool known = std::any_of(
          out.begin(), out.end(), [&](const Citation& seen) { return seen.url == citation.url; });
      if (!known && !citation.url.empty()) out.push_back(citation);
    }
  }
  return out;
}

bool is_empty_reply(const AssistantMessage& message) {
  if (message.stop_reason != StopReason::kEndTurn) return false;
  return std::none_of(message.blocks.begin(), message.blocks.end(),
                      [](const AssistantBlock& block) {
                        if (const auto* text = std::get_if<TextBlock>(&block)) {
                          return text->text.find_first_not_of(" \t\r\n") != std::string::npos;
                        }
                        return std::holds_alternative<ToolCall>(block);
                      });
}

bool is_transient(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kRateLimited:
    case ErrorKind::kOverloaded:
    case ErrorKind::kServer:
    case ErrorKind::kConnection:
      return true;
    case ErrorKind::kNone:
    case ErrorKind::kContextOverflow:
    case ErrorKind::kOther:
      return false;
  }
  return false;
}

const char* error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kNone:
      return "none";
    case ErrorKind::kRateLimited:
      return "rate_limited";
    case ErrorKind::kOverloaded:
      return "overloaded";
    case ErrorKind::kServer:
      return "server";
    case ErrorKind::kConnection:
      return "connection";
    case ErrorKind::kContextOverflow:
      return "context_overflow";
    case ErrorKind::kOther:
      return "other";
  }
  return "other";
}

const char* stop_reason_name(StopReason reason) {
  switch (reason) {
    case StopReason::kEndTurn:
      return "end_turn";
    case StopReason::kToolUse:
      return "tool_use";
    case StopReason::kMaxTokens:
      return "max_tokens";
    case StopReason::kAborted:
      return "aborted";
    case StopReason::kError:
      return "error";
  }
  return "unknown";
}

}  // namespace nib::core
