#pragma once
// How a model service's failures are described and classified, shared by every wire protocol:
// the service's own message from an error body, Retry-After, and the error kinds that retrying
// and compaction act on. Pure functions; thread-safe.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "core/messages.hpp"
#include "net/http_stream.hpp"

namespace nib::provider {

// How much of a service's error text goes into an error message.
inline constexpr std::size_t kErrorDetailBytes = 1000;

// `text` without trailing whitespace, cut to kErrorDetailBytes (util::cut_text), valid UTF-8.
std::string clip_detail(std::string_view text);

// The service's own explanation from an error body: `error.message` (OpenAI, Anthropic and most
// compatible servers), a string `error`, or `message` / `detail`; otherwise the raw text.
std::string error_detail(const std::string& body);

// The wait a reply asks for: `retry-after-ms`, else `retry-after` in seconds or as an HTTP date
// (measured from `now`). nullopt when absent or unreadable.
std::optional<std::chrono::milliseconds> retry_after_of(
    const net::HttpStreamResult& result,
    std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

// True when a service's error text says the request exceeds the model's context window, in the
// words of OpenAI, Anthropic, Ollama, llama.cpp, vLLM and similar servers.
bool mentions_context_overflow(std::string_view text);

// The kind of an HTTP error reply: 429 rate limited, 503/529 overloaded, other 5xx server,
// a context overflow by its text, otherwise kOther.
core::ErrorKind http_error_kind(long status, std::string_view detail);

// The kind of an error a service reports inside a stream, from its type or code and message
// together (e.g. "overloaded_error: Overloaded"): overloaded, rate limited, server error or
// context overflow when the words say so, otherwise kOther.
core::ErrorKind stream_error_kind(std::string_view type_and_message);

// Marks `message` as failed with `error` and `kind`; a context overflow's message says so first.
void fail_message(core::AssistantMessage& message, std::string error, core::ErrorKind kind);

}  // namespace nib::provider
