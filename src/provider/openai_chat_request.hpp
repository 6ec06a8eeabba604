#pragma once
// Builds the JSON body of an OpenAI Chat Completions streaming request from nib's history.
// Thread-safe.

#include <cstddef>
#include <string>

#include "core/provider.hpp"
#include "provider/wire_history.hpp"

namespace nib::provider {

// Sent instead of an image when the model does not accept images (request only; the history
// keeps the image).
inline constexpr const char* kImageOmittedText =
    "[image omitted: the current model does not accept images]";

// What the service behind a base URL accepts beyond the common protocol. OpenAI's own service
// takes `max_completion_tokens` (it deprecated `max_tokens`, and its reasoning models reject it)
// and `prompt_cache_key`. Ollama and older llama.cpp / vLLM builds only know `max_tokens` (they
// silently ignore the newer name, and sending both makes OpenAI's reasoning models fail), and
// some compatible servers refuse fields they do not know. So both follow the service.
enum class ChatDialect { kOpenAI, kCompatible };

// The services reject an identifier (a call_id, a prompt_cache_key) longer than this many
// characters ("string_above_max_length").
inline constexpr std::size_t kMaxOpenAIIdLength = 64;

// The identifier sent for `id`: `id` itself when it has at most kMaxOpenAIIdLength characters,
// otherwise its first characters plus a hash of the whole, kMaxOpenAIIdLength bytes in all
// (deterministic, so a call and its result, or a session's requests, still match).
std::string openai_id(const std::string& id);

// `kOpenAI` for OpenAI's own service (api.openai.com, *.openai.azure.com), `kCompatible` for
// every other base URL.
ChatDialect chat_dialect_for(const std::string& base_url);

// The request body: model, messages (system prompt first), tools, stream:true with usage, the
// token limit when request.model.max_output_tokens > 0, and for kOpenAI the request's
// cache_key as prompt_cache_key.
//
// Mapping: user text/images -> `user` content (a plain string when all parts are text);
// assistant text and tool calls -> one `assistant` message (thinking is not sent; a message
// with neither text nor tool calls is skipped); each tool result -> one `tool` message with
// its text; images from tool results, which `tool` messages cannot carry, follow in one
// `user` message after the batch's tool messages, each group introduced by a line naming its
// call. With a `cache`, messages serialised for an earlier request are not serialised again.
std::string build_chat_request(const core::ProviderRequest& request, ChatDialect dialect,
                               WireHistory* cache = nullptr);

}  // namespace nib::provider
