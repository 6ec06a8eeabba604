#include "provider/openai_responses.hpp"

#include "provider/openai_responses_request.hpp"
#include "provider/openai_responses_stream.hpp"
#include "provider/sse_exchange.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;

std::string endpoint(std::string base_url) {
  while (!base_url.empty() && base_url.back() == '/') base_url.pop_back();
  return base_url + "/responses";
}

}  // namespace

OpenAIResponsesProvider::OpenAIResponsesProvider(OpenAIResponsesConfig config)
    : config_(std::move(config)), url_(endpoint(config_.base_url)) {}

core::AssistantMessage OpenAIResponsesProvider::stream(const core::ProviderRequest& request,
                                                       std::stop_token stop,
                                                       const core::DeltaSink& on_delta) {
  HttpRequest http;
  http.url = url_;
  // Invalid UTF-8 in the history (say, from a tool's output) is replaced rather than thrown on.
  http.body = build_responses_request(request).dump(-1, ' ', false, json::error_handler_t::replace);
  http.bearer_token = config_.api_key;
  http.headers = config_.extra_headers;

  ResponsesStreamAssembler assembler(on_delta);
  core::AssistantMessage message = exchange_sse(http, stop, connections_, assembler);
  message.model = request.model.id;
  message.api = kOpenAIResponsesApi;
  return message;
}

}  // namespace nib::provider
