#pragma once
// The OpenAI Responses API streaming protocol (POST {base_url}/responses with stream:true and
// store:false): the protocol of OpenAI's reasoning models, whose reasoning is carried between
// turns as encrypted reasoning items.
//
// Thread-safety: stream() may be called from several threads at once; the provider holds its
// immutable configuration and a thread-safe pool of open connections.

#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "core/provider.hpp"
#include "net/http_stream.hpp"
#include "provider/openai_chat.hpp"
#include "provider/openai_responses_request.hpp"  // kOpenAIResponsesApi
#include "provider/wire_history.hpp"

namespace nib::provider {

struct OpenAIResponsesConfig {
  std::string base_url = kOpenAIDefaultBaseUrl;  // without the "/responses" suffix
  std::string api_key;                           // sent as a bearer token when not empty
  std::vector<std::pair<std::string, std::string>> extra_headers;  // (name, value)
};

class OpenAIResponsesProvider : public core::Provider {
 public:
  explicit OpenAIResponsesProvider(OpenAIResponsesConfig config);

  // See core::Provider. Failures map to kError with a message naming the cause: "HTTP <status>
  // from <url>: <service message>", an `error` or `response.failed` event, a non-JSON event, a
  // transport failure, or "stream ended before the reply was complete"; the blocks received
  // before a failure or an abort are kept. Does not retry.
  core::AssistantMessage stream(const core::ProviderRequest& request, std::stop_token stop,
                                const core::DeltaSink& on_delta) override;

  // The endpoint this provider posts to.
  const std::string& url() const { return url_; }

 private:
  OpenAIResponsesConfig config_;
  std::string url_;
  net::ConnectionPool connections_;
  WireHistory wire_history_;  // the history as last sent: the next request reuses it
};

}  // namespace nib::provider
