#pragma once
// Builds the JSON body of an OpenAI Chat Completions streaming request from nib's history.
// Thread-safe.

#include <string>

#include "core/provider.hpp"
#include "provider/wire_history.hpp"

namespace nib::provider {

// Sent instead of an image when the model does not accept images (request only; the history
// keeps the image).
inline constexpr const char* kImageOmittedText =
    "[image omitted: the current model does not accept images]";

// Which request field carries the output-token limit. OpenAI deprecated `max_tokens` and its
// reasoning models reject it, while Ollama and older llama.cpp / vLLM builds only know
// `max_tokens` (they silently ignore the newer name, and sending both makes OpenAI's
// reasoning models fail). So the field follows the service; see token_limit_field_for().
enum class TokenLimitField { kMaxCompletionTokens, kMaxTokens };

// `kMaxCompletionTokens` for OpenAI's own service (api.openai.com, *.openai.azure.com),
// `kMaxTokens` for every other base URL (compatible servers).
TokenLimitField token_limit_field_for(const std::string& base_url);

// The request body: model, messages (system prompt first), tools, stream:true with usage, and
// the token limit when request.model.max_output_tokens > 0.
//
// Mapping: user text/images -> `user` content (a plain string when all parts are text);
// assistant text and tool calls -> one `assistant` message (thinking is not sent; a message
// with neither text nor tool calls is skipped); each tool result -> one `tool` message with
// its text; images from tool results, which `tool` messages cannot carry, follow in one
// `user` message after the batch's tool messages, each group introduced by a line naming its
// call. With a `cache`, messages serialised for an earlier request are not serialised again.
std::string build_chat_request(const core::ProviderRequest& request, TokenLimitField field,
                               WireHistory* cache = nullptr);

}  // namespace nib::provider
