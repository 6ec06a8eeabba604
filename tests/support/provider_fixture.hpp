#pragma once
// The common ground of the provider tests: a mock server, a one-message history, a request
// for it, and the deltas a stream passed on. Each protocol's fixture derives from it and says
// how to build its provider. Not thread-safe (one test, one thread).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/provider.hpp"
#include "support/mock_model_server.hpp"

namespace nib::testing {

class ProviderFixture : public ::testing::Test {
 protected:
  explicit ProviderFixture(std::string model_id) {
    history_.emplace_back(std::in_place_type<core::UserMessage>, core::text_content("hello"));
    request_.model.id = std::move(model_id);
    request_.system_prompt = "Be brief.";
    request_.messages = &history_;
  }

  // Streams request_ through `provider`, recording every delta in deltas_.
  core::AssistantMessage stream_with(core::Provider& provider, std::stop_token stop = {}) {
    return provider.stream(request_, stop,
                           [this](const core::Event& event) { deltas_.push_back(event); });
  }

  // The text of every TextDeltaEvent, joined.
  std::string delta_text() const {
    std::string out;
    for (const auto& event : deltas_) {
      if (const auto* text = std::get_if<core::TextDeltaEvent>(&event)) out += text->text;
    }
    return out;
  }

  MockModelServer server_;
  std::vector<core::Message> history_;
  core::ProviderRequest request_;
  std::vector<core::Event> deltas_;
};

}  // namespace nib::testing
