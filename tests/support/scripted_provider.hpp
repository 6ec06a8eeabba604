#pragma once
// A Provider that replays scripted replies, for loop tests without HTTP. Each reply may be a
// message or a function of the stop token (to block like a slow stream). Thread-safe enough for
// one loop: stream() runs on the loop's thread; the test reads requests after the run.

#include <deque>
#include <functional>
#include <mutex>
#include <vector>

#include "core/provider.hpp"

namespace nib::testing {

class ScriptedProvider final : public core::Provider {
 public:
  using Reply = std::function<core::AssistantMessage(std::stop_token)>;

  void push(core::AssistantMessage message);
  void push(Reply reply);

  core::AssistantMessage stream(const core::ProviderRequest& request, std::stop_token stop,
                                const core::DeltaSink& on_delta) override;

  // The history each request carried.
  std::vector<std::vector<core::Message>> requests();
  // The tool names and the system prompt each request carried.
  std::vector<std::vector<std::string>> request_tool_names();
  std::vector<std::string> system_prompts();

 private:
  std::mutex mutex_;
  std::deque<Reply> replies_;
  std::vector<std::vector<core::Message>> requests_;
  std::vector<std::vector<std::string>> tool_names_;
  std::vector<std::string> system_prompts_;
};

// Builders for replies.
core::AssistantMessage text_reply(std::string text);
core::AssistantMessage tool_reply(std::vector<core::ToolCall> calls,
                                  core::StopReason reason = core::StopReason::kToolUse);

}  // namespace nib::testing
