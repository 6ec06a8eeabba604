#include "provider/openai_responses.hpp"

#include "provider/openai_responses_request.hpp"
#include "provider/openai_responses_stream.hpp"
#include "provider/sse_exchange.hpp"

namespace nib::provider {
OpenAIResponsesProvider::OpenAIResponsesProvider(OpenAIResponsesConfig config)
    : config_(std::move(config)), url_(endpoint_url(config_.base_url, "/responses")) {}

core::AssistantMessage OpenAIResponsesProvider::stream(const core::ProviderRequest& request,
                                                       std::stop_token stop,
                                                       const core::DeltaSink& on_delta) {
  const net::HttpRequest http{url_, build_responses_request(request, &wire_history_),
                              config_.api_key, config_.extra_headers};
  ResponsesStreamAssembler assembler(on_delta);
  return exchange_sse(http, {request.model.id, kOpenAIResponsesApi}, stop, connections_, assembler);
}

}  // namespace nib::provider
