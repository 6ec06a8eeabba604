#pragma once
// Builds the JSON body of an OpenAI Responses API streaming request (POST {base_url}/responses)
// from nib's history, and defines how a received reasoning item is kept in a ThinkingBlock's
// signature so that it can be sent back. Pure functions; thread-safe.

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "core/provider.hpp"
#include "provider/wire_history.hpp"

namespace nib::provider {

// AssistantMessage::api of the replies this protocol produces; their reasoning items and web
// searches are the only ones sent back.
inline constexpr const char* kOpenAIResponsesApi = "openai-responses";

// The body: model, instructions (the system prompt), input, tools, stream:true, store:false,
// prompt_cache_key (the request's cache_key, when it has one) and max_output_tokens when
// request.model.max_output_tokens > 0.
//
// Mapping of the history onto input items (no item ids are sent: with store:false the service
// keeps no items to refer to):
// - user text/images -> one user `message` of input_text / input_image (data URL) parts;
// - assistant blocks, in order: each text block -> an assistant `message` with one output_text
//   part; each tool call -> a `function_call` (arguments as the raw text); each thinking block
//   of a reply produced by this protocol (AssistantMessage::api == kOpenAIResponsesApi) -> its
//   reasoning item, decoded from the signature (see encode_reasoning_signature), when it holds
//   encrypted_content and another item of the reply follows it (the service rejects a
//   reasoning item without its following item). Thinking from other protocols is dropped;
// - each tool result -> a `function_call_output` with its text; images from tool results,
//   which that item cannot carry, follow in one user message after the batch's outputs, each
//   group introduced by a line naming its call.
// - each web search of a reply of this protocol -> its web_search_call item, as the service
//   sent it (core::WebSearchBlock::replay): the service requires it back with its id.
// Tool call ids go through openai_id() (openai_chat_request.hpp), the same for a call and its
// result.
// Non-vision models (supports_images == false) get kImageOmittedText instead of each image.
//
// With request.web_search, the tools end with the hosted {type: web_search}, and include asks
// for web_search_call.action.sources (the pages each search found, which nib shows).
//
// Reasoning models (request.model.reasoning) also get include:["reasoning.encrypted_content"]
// (store:false returns reasoning only that way, and replay needs it) and, unless thinking is
// kOff, reasoning:{effort: low|medium|high, summary:"auto"}. kOff sends no `reasoning` at all:
// no effort value switches reasoning off on every model ("none" is rejected before gpt-5.1,
// "minimal" by gpt-5.1 and later and by the o-series), so the model keeps its own default:
// none for gpt-5.1 and later, medium for earlier models.
//
// With a `cache`, messages serialised for an earlier request are not serialised again.
std::string build_responses_request(const core::ProviderRequest& request,
                                    WireHistory* cache = nullptr);

// The WebSearchBlock replay of a web_search_call output item: the compact JSON text of its
// `type`, `id`, `status` and `action` (the fields of the input item). Empty when `item` is not
// a web_search_call object.
std::string encode_web_search_replay(const nlohmann::json& item);

// The ThinkingBlock signature of a reasoning output item: the compact JSON text of the item's
// `type`, `id`, `summary` and `encrypted_content` (the fields replay needs; `status` and
// unknown fields are dropped). Empty when `item` is not a reasoning item object.
std::string encode_reasoning_signature(const nlohmann::json& item);

// The reasoning input item a signature holds, or null when it does not hold one that can be
// replayed (not JSON, not a reasoning item, or without encrypted_content).
nlohmann::json decode_reasoning_signature(const std::string& signature);

}  // namespace nib::provider
