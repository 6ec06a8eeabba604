#include "core/messages.hpp"

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

std::string content_text(const Content& content) {
  std::string out;
  for (const auto& block : content) {
    if (!out.empty()) out += '\n';
    if (const auto* text = std::get_if<TextBlock>(&block)) {
      out += text->text;
    } else {
      out += "[image " + std::get<ImageBlock>(block).mime_type + "]";
    }
  }
  return out;
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
  for (const auto& block : message.blocks) {
    if (const auto* text = std::get_if<TextBlock>(&block)) out += text->text;
  }
  return out;
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
