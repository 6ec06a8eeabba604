#pragma once
// Short builders of the messages and requests the request-builder tests feed each protocol.
// Plain values; thread-safe.

#include <string>
#include <utility>
#include <vector>

#include "core/provider.hpp"

namespace nib::testing {

// A request for `model_id` over `messages` (which must outlive it).
inline core::ProviderRequest request_over(const std::vector<core::Message>& messages,
                                          std::string model_id) {
  core::ProviderRequest request;
  request.model.id = std::move(model_id);
  request.messages = &messages;
  return request;
}

// A tiny image block (its data is not a whole PNG; the builders only pass it on).
inline core::ImageBlock sample_png() {
  return core::ImageBlock{"iVBORw0KGgo=", "image/png"};
}

// An assistant message of `blocks`, produced by the protocol `api` ("" when it does not matter).
inline core::AssistantMessage assistant_message(std::vector<core::AssistantBlock> blocks,
                                                std::string api = "") {
  core::AssistantMessage message;
  message.blocks = std::move(blocks);
  message.api = std::move(api);
  return message;
}

}  // namespace nib::testing
