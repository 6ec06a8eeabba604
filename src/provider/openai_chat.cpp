#include "provider/openai_chat.hpp"

#include "net/http_stream.hpp"
#include "provider/openai_chat_stream.hpp"
#include "provider/sse_exchange.hpp"

namespace nib::provider {
OpenAIChatProvider::OpenAIChatProvider(OpenAIChatConfig config)
    : config_(std::move(config)),
      url_(endpoint_url(config_.base_url, "/chat/completions")),
      token_limit_field_(token_limit_field_for(config_.base_url)) {}

core::AssistantMessage OpenAIChatProvider::stream(const core::ProviderRequest& request,
                                                  std::stop_token stop,
                                                  const core::DeltaSink& on_delta) {
  net::HttpRequest http;
  http.url = url_;
  http.body = build_chat_request(request, token_limit_field_, &wire_history_);
  http.bearer_token = config_.api_key;
  http.headers = config_.extra_headers;

  ChatStreamAssembler assembler(on_delta);
  core::AssistantMessage message = exchange_sse(http, stop, connections_, assembler);
  message.model = request.model.id;
  message.api = kOpenAIChatApi;
  return message;
}

}  // namespace nib::provider
