#pragma once
// Builds the provider for a wire protocol, wrapped in the retry policy, so callers name a
// protocol and an endpoint and never a concrete class.

#include <memory>
#include <string>

#include "core/provider.hpp"
#include "provider/model_registry.hpp"
#include "provider/retrying_provider.hpp"

namespace nib::provider {

struct Endpoint {
  Api api = Api::kOpenAIChat;
  std::string base_url;  // as the protocol's provider expects it
  std::string api_key;   // may be empty
};

// The provider speaking `endpoint.api` to `endpoint.base_url`, retrying passing failures.
std::unique_ptr<core::Provider> make_provider(const Endpoint& endpoint, RetryPolicy retry = {});

}  // namespace nib::provider
