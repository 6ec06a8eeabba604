#pragma once
// The seam between the loop and a model service. Implementations (one per wire protocol) live
// in src/provider; tests use scripted fakes.

#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "core/events.hpp"
#include "core/messages.hpp"
#include "core/tool.hpp"

namespace nib::core {

struct ModelInfo {
  std::string id;               // the model name sent to the service
  bool supports_images = true;  // false: image blocks are replaced by a text placeholder
  int max_output_tokens = 0;    // 0: let the service decide
  bool reasoning = false;       // the model can think before answering (see ThinkingLevel)
  int context_window = 0;       // tokens; 0 when unknown
  // The edit tools it is offered (ToolSpec::edit_style): apply_patch or edit and write.
  EditStyle edit_style = EditStyle::kReplace;
};

// How much the model should reason before answering; each protocol maps it onto its own
// parameter (a thinking token budget, a reasoning effort). Ignored for models without
// reasoning.
enum class ThinkingLevel { kOff, kLow, kMedium, kHigh };

// "off", "low", "medium" or "high": the names users type and the services' effort values use.
const char* thinking_level_name(ThinkingLevel level);
// The level named `name`; nullopt for any other text.
std::optional<ThinkingLevel> parse_thinking_level(std::string_view name);

struct ProviderRequest {
  ModelInfo model;
  std::string system_prompt;
  const std::vector<Message>* messages = nullptr;
  std::vector<ToolSpec> tools;
  ThinkingLevel thinking = ThinkingLevel::kOff;
  // Offer the service's hosted web search (a protocol without one ignores it): the service
  // searches while it writes the reply, which then holds WebSearchBlocks.
  bool web_search = false;
  // Names the conversation for the service's prompt cache (OpenAI's prompt_cache_key): requests
  // that share a key and a prefix are routed to where that prefix is cached. The same for every
  // request of a session; "" sends none.
  std::string cache_key;
};

// Receives stream deltas (TextDeltaEvent, ThinkingDeltaEvent, ToolCallDeltaEvent, RetryEvent,
// ReplyRestartEvent) on the calling thread, as they arrive.
using DeltaSink = std::function<void(const Event&)>;

class Provider {
 public:
  virtual ~Provider() = default;
  // Sends the request and streams the reply. Never throws for service failures: they come back
  // as stop_reason kError with error_message. Returns within 100 ms of `stop` being requested,
  // with stop_reason kAborted and whatever had arrived.
  virtual AssistantMessage stream(const ProviderRequest& request, std::stop_token stop,
                                  const DeltaSink& on_delta) = 0;
};

}  // namespace nib::core
