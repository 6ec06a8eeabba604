#pragma once
// Keeping a conversation inside the model's context window: estimating how many tokens the next
// request will carry, deciding when to compact, choosing which older messages a summary
// replaces (never separating a tool call from its result), and asking the model for that
// summary. Pure functions apart from summarize(), which makes one model request; thread-safe.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/provider.hpp"
#include "util/result.hpp"

namespace nib::session {

// Roughly how many bytes of text make one token, for messages the service has not counted.
inline constexpr std::int64_t kBytesPerToken = 4;
// What an image is assumed to cost; services count images by their pixels, ~1,000-1,600 tokens
// for the sizes the read tool attaches.
inline constexpr std::int64_t kTokensPerImage = 1600;

struct CompactionSettings {
  bool enabled = true;
  // Room left for the model's reply (and the tool definitions): compaction starts once the
  // context passes the window minus this.
  std::int64_t reserve_tokens = 16384;
  // The most recent messages worth about this many tokens stay verbatim.
  std::int64_t keep_recent_tokens = 20000;
  // "threshold": compaction starts once the context passes this fraction of the window
  // instead (0 < threshold <= 1); unset: the window minus reserve_tokens.
  std::optional<double> threshold;
};

// A byte-based estimate of one message's tokens.
std::int64_t estimate_tokens(const core::Message& message);

// The context a reply leaves the conversation filling, by the service's count: its whole prompt
// (cached or not) plus its output.
std::int64_t reply_context_tokens(const core::Usage& usage);

// The tokens the next request will carry: the service's own count for the last assistant reply
// that has usage (its whole prompt plus its output) plus estimates of the messages after it;
// estimates alone when no reply has usage.
std::int64_t estimate_context_tokens(const std::vector<core::Message>& history);

// True when a request with `context_tokens` passes settings.threshold of a window of
// `context_window` tokens, or without a threshold would not leave settings.reserve_tokens in it
// (0: unknown window, never).
bool should_compact(std::int64_t context_tokens, std::int64_t context_window,
                    const CompactionSettings& settings);

// Where the verbatim part begins. Walking back from the end, messages are kept while they fit
// in keep_recent_tokens (the last message always is); the start then moves back past tool
// results to the assistant message that made the calls, so no call is separated from its
// result. 0 means there is nothing older to summarise.
std::size_t find_cut_point(const std::vector<core::Message>& history,
                           std::int64_t keep_recent_tokens);

// The conversation as plain text for the summarising request: each message with its role, tool
// calls with their arguments, tool results (long ones cut), images as markers.
std::string serialize_for_summary(const std::vector<core::Message>& messages);

// Asks the model behind `provider` to summarise `messages` (which begin with the summary of an
// earlier compaction, if there was one), following the user's extra `instructions` (e.g. from
// /compact), so that the work can go on from the summary alone. A failure when the request
// fails or is aborted, or the summary is empty. The request's usage is added to `usage` when
// given, whatever the outcome (it is paid for).
util::Result<std::string> summarize(core::Provider& provider, const core::ModelInfo& model,
                                    const std::vector<core::Message>& messages,
                                    const std::string& instructions, std::stop_token stop,
                                    core::Usage* usage = nullptr);

// The message that stands for the summarised part of a conversation.
core::Message summary_message(const std::string& summary);
// True when `message` is one that summary_message made.
bool is_summary_message(const core::Message& message);

}  // namespace nib::session
