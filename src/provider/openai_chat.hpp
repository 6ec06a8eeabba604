#pragma once
// The OpenAI Chat Completions streaming protocol (POST {base_url}/chat/completions with
// stream:true), as spoken by OpenAI and by compatible servers such as Ollama, llama.cpp and
// vLLM.
//
// Thread-safety: stream() may be called from several threads at once; the provider holds its
// immutable configuration and a thread-safe pool of open connections.

#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "core/provider.hpp"
#include "net/http_stream.hpp"
#include "provider/openai_chat_request.hpp"
#include "provider/wire_history.hpp"

namespace nib::provider {

// AssistantMessage::api of the replies this protocol produces.
inline constexpr const char* kOpenAIChatApi = "openai-chat";
inline constexpr const char* kOpenAIDefaultBaseUrl = "https://api.openai.com/v1";

struct OpenAIChatConfig {
  std::string base_url = kOpenAIDefaultBaseUrl;  // without the "/chat/completions" suffix
  std::string api_key;                           // may be empty: local servers usually need none
  std::vector<std::pair<std::string, std::string>> extra_headers;  // (name, value)
};

class OpenAIChatProvider : public core::Provider {
 public:
  explicit OpenAIChatProvider(OpenAIChatConfig config);

  // See core::Provider. Failures map to kError with a message naming the cause: "HTTP <status>
  // from <url>: <service message>", an error event in the stream, a non-JSON event, a
  // transport failure, or "stream ended before the reply was complete"; the blocks received
  // before a failure or an abort are kept. Does not retry.
  core::AssistantMessage stream(const core::ProviderRequest& request, std::stop_token stop,
                                const core::DeltaSink& on_delta) override;

  // The endpoint this provider posts to.
  const std::string& url() const { return url_; }

 private:
  OpenAIChatConfig config_;
  std::string url_;
  ChatDialect dialect_;
  net::ConnectionPool connections_;
  WireHistory wire_history_;  // the history as last sent: the next request reuses it
};

}  // namespace nib::provider
