#include "provider/anthropic.hpp"

#include "provider/anthropic_stream.hpp"
#include "provider/sse_exchange.hpp"

namespace nib::provider {
namespace {

// A base written with "/v1" (a common way of writing it) does not get a second one.
std::string endpoint(const std::string& base_url) {
  const std::string base = endpoint_url(base_url, "");
  return endpoint_url(base, base.ends_with("/v1") ? "/messages" : "/v1/messages");
}

}  // namespace

AnthropicProvider::AnthropicProvider(AnthropicConfig config)
    : config_(std::move(config)), url_(endpoint(config_.base_url)) {}

core::AssistantMessage AnthropicProvider::stream(const core::ProviderRequest& request,
                                                 std::stop_token stop,
                                                 const core::DeltaSink& on_delta) {
  net::HttpRequest http{url_, build_anthropic_request(request, &wire_history_)};
  http.headers.emplace_back("anthropic-version", kAnthropicVersion);
  if (!config_.api_key.empty()) http.headers.emplace_back("x-api-key", config_.api_key);
  http.headers.insert(http.headers.end(), config_.extra_headers.begin(),
                      config_.extra_headers.end());
  AnthropicStreamAssembler assembler(on_delta);
  return exchange_sse(http, {request.model.id, kAnthropicApi}, stop, connections_, assembler);
}

}  // namespace nib::provider
