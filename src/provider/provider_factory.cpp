#include "provider/provider_factory.hpp"

#include "provider/anthropic.hpp"
#include "provider/openai_chat.hpp"
#include "provider/openai_responses.hpp"

namespace nib::provider {
namespace {

std::unique_ptr<core::Provider> protocol_provider(const Endpoint& endpoint) {
  switch (endpoint.api) {
    case Api::kOpenAIChat:
      return std::make_unique<OpenAIChatProvider>(
          OpenAIChatConfig{endpoint.base_url, endpoint.api_key});
    case Api::kOpenAIResponses:
      return std::make_unique<OpenAIResponsesProvider>(
          OpenAIResponsesConfig{endpoint.base_url, endpoint.api_key});
    case Api::kAnthropicMessages:
      return std::make_unique<AnthropicProvider>(
          AnthropicConfig{endpoint.base_url, endpoint.api_key});
  }
  return nullptr;
}

}  // namespace

std::unique_ptr<core::Provider> make_provider(const Endpoint& endpoint, RetryPolicy retry) {
  return std::make_unique<RetryingProvider>(protocol_provider(endpoint), retry);
}

}  // namespace nib::provider
