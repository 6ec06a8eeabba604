#include "provider/anthropic.hpp"

#include "provider/anthropic_stream.hpp"
#include "provider/sse_exchange.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;

std::string endpoint(std::string base_url) {
  while (!base_url.empty() && base_url.back() == '/') base_url.pop_back();
  if (base_url.ends_with("/v1")) return base_url + "/messages";
  return base_url + "/v1/messages";
}

}  // namespace

AnthropicProvider::AnthropicProvider(AnthropicConfig config)
    : config_(std::move(config)), url_(endpoint(config_.base_url)) {}

core::AssistantMessage AnthropicProvider::stream(const core::ProviderRequest& request,
                                                 std::stop_token stop,
                                                 const core::DeltaSink& on_delta) {
  HttpRequest http;
  http.url = url_;
  // Invalid UTF-8 in the history (say, from a tool's output) is replaced rather than thrown on.
  http.body = build_anthropic_request(request).dump(-1, ' ', false, json::error_handler_t::replace);
  http.headers.emplace_back("anthropic-version", kAnthropicVersion);
  if (!config_.api_key.empty()) http.headers.emplace_back("x-api-key", config_.api_key);
  http.headers.insert(http.headers.end(), config_.extra_headers.begin(),
                      config_.extra_headers.end());

  AnthropicStreamAssembler assembler(on_delta);
  core::AssistantMessage message = exchange_sse(http, stop, connections_, assembler);
  message.model = request.model.id;
  message.api = kAnthropicApi;
  return message;
}

}  // namespace nib::provider
