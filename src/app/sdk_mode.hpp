#pragma once
// `nib --input-format stream-json --output-format stream-json`: the transport the Claude Agent
// SDK drives Claude Code with (pathToClaudeCodeExecutable pointed at nib), also how harnesses
// and orchestrators run an agent headless. Stdin carries user messages ({"type":"user",
// "message":{...}}) and control requests (initialize, interrupt, set_permission_mode,
// set_model, and the answers to nib's can_use_tool requests); stdout carries Claude Code's
// stream-json messages (sdk_messages.hpp): system/init, assistant, user tool results, and one
// result per user message. One session stays open across messages, each a run of the one run
// assembly; stdin is read while a run works, so an interrupt or a permission-mode change takes
// effect at once. With --permission-prompt-tool stdio, what the gate would ask a person goes to
// the SDK's canUseTool; otherwise such a call is refused, as in print mode. When stdin ends,
// the queued messages are answered and nib exits: 0, or 1 when the last result was a failure or
// the turn limit (as Claude Code does; an interrupt is neither).

#include <stop_token>

#include "app/cli.hpp"
#include "app/model_config.hpp"
#include "app/run_context.hpp"

namespace nib::app {

int run_sdk_mode(const CliOptions& options, const ModelConfig& model, const RunContext& context,
                 std::stop_token stop);

}  // namespace nib::app
