#include "session/compaction.hpp"

#include <algorithm>

#include "util/text_cut.hpp"

namespace nib::session {
namespace {

// A tool result longer than this is cut in the text given to the summariser: the summary needs
// what a result showed, not all of it, and the summarising request must itself fit.
constexpr std::size_t kMaxSerializedResultBytes = 2000;

constexpr const char* kSummaryPrefix =
    "[The earlier part of this conversation was summarised to save context. Summary:]\n\n";

constexpr const char* kSummarizerPrompt =
    "You summarise a coding agent's conversation so that the work can continue from the "
    "summary alone, without the original messages. Write a structured summary: the user's "
    "goal and constraints; what has been done, with the files read or changed and the commands "
    "run and what they showed; decisions made and why; the current state, including anything "
    "unfinished or failing; the next steps. Keep exact file paths, names, error messages and "
    "values. Do not call tools.";

std::int64_t content_tokens(const core::Content& content) {
  std::int64_t tokens = 0;
  for (const auto& block : content) {
    if (const auto* text = std::get_if<core::TextBlock>(&block)) {
      tokens += static_cast<std::int64_t>(text->text.size()) / kBytesPerToken;
    } else {
      tokens += kTokensPerImage;
    }
  }
  return tokens;
}

}  // namespace

std::int64_t estimate_tokens(const core::Message& message) {
  if (const auto* user = std::get_if<core::UserMessage>(&message)) {
    return content_tokens(user->content);
  }
  if (const auto* assistant = std::get_if<core::AssistantMessage>(&message)) {
    std::int64_t bytes = 0;
    for (const auto& block : assistant->blocks) {
      if (const auto* text = std::get_if<core::TextBlock>(&block)) {
        bytes += static_cast<std::int64_t>(text->text.size());
      } else if (const auto* thinking = std::get_if<core::ThinkingBlock>(&block)) {
        bytes += static_cast<std::int64_t>(thinking->text.size() + thinking->signature.size());
      } else if (const auto* search = std::get_if<core::WebSearchBlock>(&block)) {
        // What goes back to the service: the replay holds the query and the results.
        bytes += static_cast<std::int64_t>(search->replay.size());
      } else {
        const auto& call = std::get<core::ToolCall>(block);
        bytes += static_cast<std::int64_t>(call.name.size() + call.arguments.size());
      }
    }
    return bytes / kBytesPerToken;
  }
  std::int64_t tokens = 0;
  for (const auto& result : std::get<core::ToolResultMessage>(message).results) {
    tokens += content_tokens(result.content);
  }
  return tokens;
}

std::int64_t reply_context_tokens(const core::Usage& usage) {
  return usage.input_tokens + usage.cache_read_tokens + usage.cache_write_tokens +
         usage.output_tokens;
}

std::int64_t estimate_context_tokens(const std::vector<core::Message>& history) {
  std::int64_t after = 0;
  for (auto message = history.rbegin(); message != history.rend(); ++message) {
    if (const auto* assistant = std::get_if<core::AssistantMessage>(&*message)) {
      const std::int64_t counted = reply_context_tokens(assistant->usage);
      if (counted > 0) return counted + after;
    }
    after += estimate_tokens(*message);
  }
  return after;
}

bool should_compact(std::int64_t context_tokens, std::int64_t context_window,
                    const CompactionSettings& settings) {
  if (!settings.enabled || context_window <= 0) return false;
  if (settings.threshold) {
    return static_cast<double>(context_tokens) >
           *settings.threshold * static_cast<double>(context_window);
  }
  return context_tokens > context_window - settings.reserve_tokens;
}

std::size_t find_cut_point(const std::vector<core::Message>& history,
                           std::int64_t keep_recent_tokens) {
  if (history.empty()) return 0;
  std::size_t start = history.size() - 1;
  std::int64_t kept = estimate_tokens(history[start]);
  while (start > 0) {
    const std::int64_t next = estimate_tokens(history[start - 1]);
    if (kept + next > keep_recent_tokens) break;
    kept += next;
    --start;
  }
  while (start > 0 && std::holds_alternative<core::ToolResultMessage>(history[start])) --start;
  return start;
}

std::string serialize_for_summary(const std::vector<core::Message>& messages) {
  std::string text;
  for (const auto& message : messages) {
    if (const auto* user = std::get_if<core::UserMessage>(&message)) {
      text += "[user]\n" + core::content_text(user->content) + "\n\n";
    } else if (const auto* assistant = std::get_if<core::AssistantMessage>(&message)) {
      text += "[assistant]\n";
      for (const auto& block : assistant->blocks) {
        if (const auto* part = std::get_if<core::TextBlock>(&block)) {
          text += part->text + "\n";
        } else if (const auto* call = std::get_if<core::ToolCall>(&block)) {
          text += "(calls " + call->name + " " + call->arguments + ")\n";
        }
      }
      text += "\n";
    } else {
      for (const auto& result : std::get<core::ToolResultMessage>(message).results) {
        text += "[result of " + result.tool_name + (result.is_error ? ", an error" : "") + "]\n" +
                util::cut_text(core::content_text(result.content), kMaxSerializedResultBytes) +
                "\n\n";
      }
    }
  }
  return text;
}

util::Result<std::string> summarize(core::Provider& provider, const core::ModelInfo& model,
                                    const std::vector<core::Message>& messages,
                                    const std::string& instructions, std::stop_token stop,
                                    core::Usage* usage) {
  using Result = util::Result<std::string>;
  std::string prompt =
      "<conversation>\n" + serialize_for_summary(messages) + "</conversation>\n\n" +
      "Summarise the conversation above (it may begin with the summary of an earlier "
      "part; fold that in).";
  if (!instructions.empty()) prompt += " Also: " + instructions;
  const std::vector<core::Message> request_messages{
      core::UserMessage{core::text_content(std::move(prompt))}};
  core::ProviderRequest request;
  request.model = model;
  request.system_prompt = kSummarizerPrompt;
  request.messages = &request_messages;
  core::AssistantMessage reply = provider.stream(request, stop, [](const core::Event&) {});
  if (usage != nullptr) *usage += reply.usage;
  if (reply.stop_reason == core::StopReason::kAborted) {
    return Result::failure("compaction was aborted");
  }
  if (reply.stop_reason == core::StopReason::kError) {
    return Result::failure("the summary request failed: " + reply.error_message);
  }
  std::string summary = core::assistant_text(reply);
  if (summary.find_first_not_of(" \n\t") == std::string::npos) {
    return Result::failure("the model returned an empty summary");
  }
  return summary;
}

core::Message summary_message(const std::string& summary) {
  return core::UserMessage{core::text_content(kSummaryPrefix + summary)};
}

bool is_summary_message(const core::Message& message) {
  const auto* user = std::get_if<core::UserMessage>(&message);
  return user != nullptr && core::content_text(user->content).starts_with(kSummaryPrefix);
}

}  // namespace nib::session
