#include "support/scripted_provider.hpp"

namespace nib::testing {

void ScriptedProvider::push(core::AssistantMessage message) {
  push([message](std::stop_token) { return message; });
}

void ScriptedProvider::push(Reply reply) {
  std::lock_guard lock(mutex_);
  replies_.push_back(std::move(reply));
}

core::AssistantMessage ScriptedProvider::stream(const core::ProviderRequest& request,
                                                std::stop_token stop,
                                                const core::DeltaSink& on_delta) {
  Reply reply;
  {
    std::lock_guard lock(mutex_);
    requests_.push_back(*request.messages);
    std::vector<std::string> names;
    for (const core::ToolSpec& spec : request.tools) names.push_back(spec.name);
    tool_names_.push_back(std::move(names));
    system_prompts_.push_back(request.system_prompt);
    if (replies_.empty()) {
      core::AssistantMessage error;
      error.stop_reason = core::StopReason::kError;
      error.error_message = "scripted provider: no reply left";
      return error;
    }
    reply = std::move(replies_.front());
    replies_.pop_front();
  }
  core::AssistantMessage message = reply(stop);
  const std::string text = core::assistant_text(message);
  if (!text.empty()) on_delta(core::TextDeltaEvent{text});
  return message;
}

std::vector<std::vector<core::Message>> ScriptedProvider::requests() {
  std::lock_guard lock(mutex_);
  return requests_;
}

std::vector<std::vector<std::string>> ScriptedProvider::request_tool_names() {
  std::lock_guard lock(mutex_);
  return tool_names_;
}

std::vector<std::string> ScriptedProvider::system_prompts() {
  std::lock_guard lock(mutex_);
  return system_prompts_;
}

core::AssistantMessage text_reply(std::string text) {
  core::AssistantMessage message;
  message.blocks.push_back(core::TextBlock{std::move(text)});
  message.usage.input_tokens = 10;
  message.usage.output_tokens = 5;
  return message;
}

core::AssistantMessage tool_reply(std::vector<core::ToolCall> calls, core::StopReason reason) {
  core::AssistantMessage message;
  for (auto& call : calls) message.blocks.push_back(std::move(call));
  message.stop_reason = reason;
  message.usage.input_tokens = 10;
  message.usage.output_tokens = 5;
  return message;
}

}  // namespace nib::testing
