#include "app/prompt_input.hpp"

#include <iterator>

#include "app/command_shell.hpp"
#include "app/mcp_prompts.hpp"
#include "app/slash_prompt.hpp"
#include "ui/slash_commands.hpp"

namespace nib::app {

std::variant<PromptInput, PromptFailure> resolve_prompt(const std::string& prompt,
                                                        const ModelConfig& model,
                                                        const RunContext& context,
                                                        mcp::ServerSet* servers,
                                                        std::stop_token stop) {
  PromptInput input{prompt, {}, model, {}};
  if (const auto command = ui::parse_command(prompt); command && names_mcp_prompt(command->name)) {
    if (servers != nullptr) servers->await_server_of(command->name, stop);
    const auto call = prepare_mcp_prompt(servers, *command);
    if (!call.ok()) return PromptFailure{call.error() + " (nib mcp list shows the servers)", true};
    auto turn = get_mcp_prompt(call.value(), stop);
    if (!turn.ok()) return PromptFailure{turn.error(), false};
    input.text = std::move(turn.value().text);
    input.media = std::move(turn.value().media);
    return input;
  }
  auto expanded = expand_slash_prompt(prompt, context.extensions, context.cwd);
  if (!expanded.ok()) return PromptFailure{expanded.error(), true};
  if (!expanded.value()) return input;
  const SlashPrompt& slash = *expanded.value();
  input.text = slash.prompt.text;
  input.grants = slash.grants;
  input.finish = command_finish(slash.prompt, slash.name, *context.guard, slash.grants);
  if (slash.model && context.configuration != nullptr) {
    auto named = with_named_model(model, *context.configuration, *slash.model);
    if (named.ok()) {
      input.model = std::move(named.value());
    } else {
      input.warnings.push_back("/" + slash.name + " asks for a model " + named.error() +
                               "; using " + model.model.id);
    }
  }
  return input;
}

std::optional<std::string> admit_prompt(hooks::HookSet& hooks, RunSession& session,
                                        const std::string& text, PromptBlocks blocks,
                                        const std::string& session_start,
                                        core::PendingNotices* notices, std::stop_token stop,
                                        const HookNotice& notice, const PromptFinish& finish) {
  CheckedPrompt checked = check_prompt(hooks, text, session_start, stop, notice);
  if (!checked.message) return checked.refusal;
  core::Content& content = checked.message->content;
  if (finish) {
    auto finished = finish(stop);
    if (!finished.ok()) return finished.error();
    std::get<core::TextBlock>(content.at(checked.prompt_block)).text = std::move(finished.value());
  }
  content.insert(content.begin(), std::make_move_iterator(blocks.before.begin()),
                 std::make_move_iterator(blocks.before.end()));
  for (core::ContentBlock& block : blocks.after) content.push_back(std::move(block));
  session.add_prompt(std::move(*checked.message), notices);
  if (const std::string checkpoints = session.take_checkpoint_notice(); !checkpoints.empty()) {
    notice(checkpoints, true);
  }
  return std::nullopt;
}

}  // namespace nib::app
