#include "provider/openai_chat.hpp"

#include "net/http_stream.hpp"
#include "provider/openai_chat_stream.hpp"
#include "provider/sse_exchange.hpp"

namespace nib::provider {
OpenAIChatProvider::OpenAIChatProvider(OpenAIChatConfig config)
    : config_(std::move(config)),
      url_(endpoint_url(config_.base_url, "/chat/completions")),
      dialect_(chat_dialect_for(config_.base_url)) {}

core::AssistantMessage OpenAIChatProvider::stream(const core::ProviderRequest& request,
                                                  std::stop_token stop,
                                                  const core::DeltaSink& on_delta) {
  const net::HttpRequest http{url_, build_chat_request(request, dialect_, &wire_history_),
                              config_.api_key, config_.extra_headers};
  ChatStreamAssembler assembler(on_delta);
  return exchange_sse(http, {request.model.id, kOpenAIChatApi}, stop, connections_, assembler);
}

}  // namespace nib::provider
