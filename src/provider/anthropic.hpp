#pragma once
// The Anthropic Messages streaming protocol (POST {base_url}/v1/messages with stream:true), as
// spoken by Anthropic's API and by compatible gateways.
//
// Thread-safety: stream() may be called from several threads at once; the provider holds its
// immutable configuration and a thread-safe pool of open connections.

#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "core/provider.hpp"
#include "net/http_stream.hpp"
#include "provider/anthropic_request.hpp"  // kAnthropicApi
#include "provider/wire_history.hpp"

namespace nib::provider {

inline constexpr const char* kAnthropicDefaultBaseUrl = "https://api.anthropic.com";
// The API version every request names (the anthropic-version header).
inline constexpr const char* kAnthropicVersion = "2023-06-01";

struct AnthropicConfig {
  // Without "/v1": the provider appends "/v1/messages" (or "/messages" to a base ending in
  // "/v1", a common way of writing it).
  std::string base_url = kAnthropicDefaultBaseUrl;
  std::string api_key;  // sent as x-api-key; may be empty for a gateway that needs none
  std::vector<std::pair<std::string, std::string>> extra_headers;  // (name, value)
};

class AnthropicProvider : public core::Provider {
 public:
  explicit AnthropicProvider(AnthropicConfig config);

  // See core::Provider. Failures map to kError with a message naming the cause: "HTTP <status>
  // from <url>: <service message>", an error event in the stream (e.g. overloaded_error, kind
  // kOverloaded), a non-JSON event, a transport failure, or "stream ended before the reply was
  // complete"; the blocks received before a failure or an abort are kept. Does not retry.
  core::AssistantMessage stream(const core::ProviderRequest& request, std::stop_token stop,
                                const core::DeltaSink& on_delta) override;

  // The endpoint this provider posts to.
  const std::string& url() const { return url_; }

 private:
  AnthropicConfig config_;
  std::string url_;
  net::ConnectionPool connections_;
  WireHistory wire_history_;  // the history as last sent: the next request reuses it
};

}  // namespace nib::provider
