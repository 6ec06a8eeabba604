#pragma once
// Conversation data: the content blocks, the three message kinds and a tool call's result.
// Plain values; no thread-safety concerns beyond those of std containers.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace nib::core {

// A source the service cited for a stretch of a reply's text (a hosted web search's result).
// `replay` is the protocol's own citation object, verbatim (Anthropic's
// web_search_result_location with its encrypted_index), sent back only to the protocol that
// produced the reply (AssistantMessage::api); empty when the protocol needs none back.
struct Citation {
  std::string url;
  std::string title;
  std::string replay;

  bool operator==(const Citation&) const = default;
};

struct TextBlock {
  std::string text;
  // Only in replies: the sources the service cited for this text.
  std::vector<Citation> citations = {};
  // Only in replies: the text continues the text block before it without a paragraph break
  // (a service that splits one sentence into blocks to cite parts of it). See assistant_text.
  bool glued = false;

  bool operator==(const TextBlock&) const = default;
};

// An image attachment: base64 data plus its MIME type ("image/png").
struct ImageBlock {
  std::string data_base64;
  std::string mime_type;

  bool operator==(const ImageBlock&) const = default;
};

using ContentBlock = std::variant<TextBlock, ImageBlock>;
using Content = std::vector<ContentBlock>;

// Model reasoning. `signature` is opaque data of the protocol that produced it (the block's
// AssistantMessage::api) and must be sent back verbatim to that protocol only: Anthropic's
// thinking signature (for a redacted block, its encrypted data), or the Responses API's
// reasoning item. Another protocol never receives it.
struct ThinkingBlock {
  std::string text;
  std::string signature;
  bool redacted = false;  // the service withheld the text; only `signature` carries it

  bool operator==(const ThinkingBlock&) const = default;
};

// One tool call as the model wrote it. `arguments` is the raw argument text: it may be
// incomplete or not JSON at all, which preparation reports back to the model.
struct ToolCall {
  std::string id;
  std::string name;
  std::string arguments;  // a JSON object's text
  // The service sent the call as a custom tool's free text (ToolSpec::grammar), held here as
  // `{"input": text}` like any call's arguments; it goes back to that service as it came.
  bool freeform = false;

  bool operator==(const ToolCall&) const = default;
};

// A page a hosted web search found.
struct WebSearchResult {
  std::string title;
  std::string url;

  bool operator==(const WebSearchResult&) const = default;
};

// A web search the service ran itself while it wrote the reply (Anthropic's web_search server
// tool, the Responses API's web_search tool): not a nib tool, nothing ran locally, and it has
// no result message of its own. `replay` holds the protocol's own blocks or items for it,
// verbatim, as one JSON array (Anthropic: the server_tool_use block and its
// web_search_tool_result, encrypted contents included; Responses: the web_search_call item),
// which go back unchanged to the protocol that produced the reply (AssistantMessage::api) and
// to no other.
struct WebSearchBlock {
  std::string id;          // the service's id of the search
  std::string query = {};  // what was searched; empty when the service did not say
  std::vector<WebSearchResult> results = {};
  std::string error = {};  // the service's error code when the search failed
  std::string replay = {};

  bool operator==(const WebSearchBlock&) const = default;
};

using AssistantBlock = std::variant<TextBlock, ThinkingBlock, ToolCall, WebSearchBlock>;

enum class StopReason {
  kEndTurn,    // the model finished its reply
  kToolUse,    // the reply asks for tool calls
  kMaxTokens,  // the reply was cut at the output-token limit
  kAborted,    // the user aborted while the reply streamed
  kError,      // the request or the stream failed; see error_message
};

struct Usage {
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
  std::int64_t cache_read_tokens = 0;
  std::int64_t cache_write_tokens = 0;

  Usage& operator+=(const Usage& other);
  friend Usage operator+(Usage a, const Usage& b) { return a += b; }

  bool operator==(const Usage&) const = default;
};

// Why a request failed, as far as retrying and recovery care.
enum class ErrorKind {
  kNone,
  kRateLimited,      // HTTP 429: wait (Retry-After) and retry
  kOverloaded,       // the service is busy (HTTP 503/529, an "overloaded" error event)
  kServer,           // another 5xx
  kConnection,       // the connection failed before any reply arrived
  kContextOverflow,  // the request is larger than the model's context window
  kOther,            // anything else: a bad request, authentication, a broken stream
};

// True for failures that may succeed when the same request is sent again later.
bool is_transient(ErrorKind kind);

struct UserMessage {
  Content content;

  bool operator==(const UserMessage&) const = default;
};

struct AssistantMessage {
  std::vector<AssistantBlock> blocks;
  StopReason stop_reason = StopReason::kEndTurn;
  Usage usage;
  std::string error_message;                // set when stop_reason is kError
  ErrorKind error_kind = ErrorKind::kNone;  // set when stop_reason is kError
  // How long the service asked to wait before retrying (Retry-After), when it said.
  std::optional<std::chrono::milliseconds> retry_after;
  std::string model;
  // The wire protocol that produced the message ("openai-chat", "anthropic-messages",
  // "openai-responses"): a provider sends thinking signatures back only to its own protocol.
  std::string api;

  bool operator==(const AssistantMessage&) const = default;
};

// The outcome of one tool call, as it enters history (no UI-only fields).
struct ToolResult {
  std::string tool_call_id;
  std::string tool_name;
  Content content;
  bool is_error = false;
  std::optional<int> exit_code;

  bool operator==(const ToolResult&) const = default;
};

// Exactly one result per tool call of the assistant message before it, in call order.
struct ToolResultMessage {
  std::vector<ToolResult> results;

  bool operator==(const ToolResultMessage&) const = default;
};

using Message = std::variant<UserMessage, AssistantMessage, ToolResultMessage>;

// Convenience constructors and accessors.
Content text_content(std::string text);
// The text of every text block, joined by newlines; images become "[image <mime>]" markers.
std::string content_text(const Content& content);
// The same, with `image_text` standing for each image.
std::string content_text(const Content& content, std::string_view image_text);
bool has_image(const Content& content);
std::vector<ToolCall> tool_calls_of(const AssistantMessage& message);
// Between the texts of two text blocks of one reply (the commentary and the answer of a
// Responses reply, the text on either side of a tool call): a blank line, so that they read as
// two paragraphs instead of one glued sentence. Assemblers put it into the streamed deltas too.
inline constexpr std::string_view kTextBlockSeparator = "\n\n";
// The text of the reply: its non-empty text blocks joined by kTextBlockSeparator (a glued
// block directly, without it).
std::string assistant_text(const AssistantMessage& message);
// True for a reply that ended normally (kEndTurn) with neither text (whitespace does not count)
// nor tool calls. The model said nothing, which is worth telling the user: often the service
// sent its answer in a form that was not understood.
bool is_empty_reply(const AssistantMessage& message);
// The reply's hosted web searches, in order.
std::vector<WebSearchBlock> web_searches_of(const AssistantMessage& message);
// The distinct sources the reply's text cites, in the order of their first citation.
std::vector<Citation> citations_of(const AssistantMessage& message);
const char* stop_reason_name(StopReason reason);
// "rate_limited", "overloaded", "server", "connection", "context_overflow", "other", "none".
const char* error_kind_name(ErrorKind kind);

}  // namespace nib::core
