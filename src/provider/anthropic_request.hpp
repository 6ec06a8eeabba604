#pragma once
// Builds the JSON body of an Anthropic Messages streaming request (POST /v1/messages with
// stream:true) from nib's history: alternating user/assistant turns, prompt-cache breakpoints
// and the thinking parameter. Pure functions; thread-safe.

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "core/provider.hpp"
#include "provider/wire_history.hpp"

namespace nib::provider {

// AssistantMessage::api of the replies this protocol produces; their thinking blocks (with
// signatures) are the only ones sent back.
inline constexpr const char* kAnthropicApi = "anthropic-messages";

// The service requires max_tokens. When the model does not state its output limit, a default
// by generation, each no higher than what every model of that generation accepts (a higher
// value is rejected, not clamped):
inline constexpr int kClaudeCurrentMaxTokens = 32000;  // Claude 4 and later
inline constexpr int kClaude35MaxTokens = 8192;        // Claude 3.5 and 3.7
inline constexpr int kClaude3MaxTokens = 4096;         // the first Claude 3 models
inline constexpr int kUnknownModelMaxTokens = 8192;    // other servers speaking the protocol

// Thinking budgets (tokens) per ThinkingLevel, for models that take a fixed budget.
inline constexpr int kThinkingBudgetLow = 4096;
inline constexpr int kThinkingBudgetMedium = 10240;
inline constexpr int kThinkingBudgetHigh = 24576;
// The smallest budget the service accepts.
inline constexpr int kMinThinkingBudget = 1024;
// Thinking counts against max_tokens (and the budget must be below it): this much stays for
// the answer, so a budget is cut to max_tokens - kThinkingAnswerReserveTokens, and thinking is
// left off when that falls below kMinThinkingBudget.
inline constexpr int kThinkingAnswerReserveTokens = 4096;

// The service accepts at most this many cache_control breakpoints in one request.
inline constexpr std::size_t kMaxCacheBreakpoints = 4;
// The hosted web search server tool (offered when ProviderRequest::web_search is set), in the
// version the web search tool documentation names, and the most searches one request may run:
// enough for a question that needs a few angles, few enough that a runaway turn stays cheap
// (each search is billed).
inline constexpr const char* kAnthropicWebSearchToolType = "web_search_20250305";
inline constexpr const char* kAnthropicWebSearchToolName = "web_search";
inline constexpr int kAnthropicWebSearchMaxUses = 5;
// Tool-use ids must match ^[a-zA-Z0-9_-]+$ and are kept to this length.
inline constexpr std::size_t kMaxToolUseIdBytes = 64;

// How a model is asked to think: a fixed token budget (thinking {type: enabled,
// budget_tokens}), or, from Claude 4.6 on, where fixed budgets are deprecated or gone,
// thinking {type: adaptive} with output_config {effort}.
enum class ThinkingStyle { kBudget, kAdaptive };

// kAdaptive for Claude models of version 4.6 and later (read from the id, e.g.
// "claude-opus-4-6", "claude-sonnet-4-6@2026..."), kBudget for every other id.
ThinkingStyle thinking_style_for(const std::string& model_id);

// model.max_output_tokens when set, otherwise the default for the model's generation (see the
// constants above).
int anthropic_max_tokens(const core::ModelInfo& model);

// `id` when it is a valid tool-use id; otherwise its invalid characters replaced by '_', cut
// to fit, and a hash of the original appended so that distinct ids stay distinct. The same id
// always maps to the same result, so a call and its result still match.
std::string anthropic_tool_use_id(const std::string& id);

// One history message's content blocks as build_anthropic_request sends them (a reply's text,
// its own thinking and tool_use blocks; a batch's tool_result blocks; a prompt's text and
// images): also what front ends that speak Claude's message shapes show (the Agent SDK's
// transport).
nlohmann::json anthropic_content_blocks(const core::Message& message);

// The request body: model, max_tokens, stream:true, system (one text block), messages, tools
// and, for a reasoning model with request.thinking != kOff, the thinking parameter.
//
// Mapping: user text/images -> a user message of text and base64 image blocks; assistant
// text, tool calls (tool_use, `input` parsed from the arguments, {} when they are not a JSON
// object) and thinking -> an assistant message, thinking only from a reply of this protocol
// with a signature (redacted thinking as redacted_thinking {data}); tool results -> a user
// message of tool_result blocks (text and images). Consecutive messages of one role are merged
// (a prompt after tool results follows them in the same user message); messages left without
// content (an aborted empty reply, blank text) are skipped. Whitespace-only text is dropped:
// the service rejects it. A model without image support gets kImageOmittedText instead.
//
// Hosted web search: with request.web_search, the tools end with {type: web_search_20250305,
// name: web_search, max_uses: kAnthropicWebSearchMaxUses}. A WebSearchBlock of a reply of this
// protocol goes back as its replay (the server_tool_use and web_search_tool_result blocks,
// unchanged, as the service requires), and cited text with its citations (their
// encrypted_index included); from another protocol, neither (the text stays, plain).
//
// Prompt caching: breakpoints on the last tool, the system prompt, and the last block of the
// last two user messages (the latest turn, and the previous one, which the previous request
// wrote, so that a reply with many blocks cannot push it out of the service's lookback).
//
// Thinking with a fixed budget is left off for a request that continues a tool-use cycle whose
// first reply did not begin with replayable thinking (say, one from another protocol): the
// service rejects such a request.
//
// With a `cache`, messages serialised for an earlier request are not serialised again.
std::string build_anthropic_request(const core::ProviderRequest& request,
                                    WireHistory* cache = nullptr);

}  // namespace nib::provider
