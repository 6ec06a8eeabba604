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
  net::HttpRequest http;
  http.url = url_;
  http.body = build_responses_request(request, &wire_history_);
  http.bearer_token = config_.api_key;
  http.headers = config_.extra_headers;

  ResponsesStreamAssembler assembler(on_delta);
  core::AssistantMessage message = exchange_sse(http, stop, connections_, assembler);
  message.model = request.model.id;
  message.api = kOpenAIResponsesApi;
  return message;
}

}  // namespace nib::provider
