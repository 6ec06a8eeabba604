#include "app/command_shell.hpp"

#include <nlohmann/json.hpp>

#include "core/tool_registry.hpp"
#include "core/tool_scheduler.hpp"
#include "tools/builtin.hpp"

namespace nib::app {

util::Result<std::shared_ptr<const permissions::RuleSet>> command_grants(
    const extensions::CommandDefinition& command, const std::filesystem::path& project) {
  using Result = util::Result<std::shared_ptr<const permissions::RuleSet>>;
  if (command.allowed_tools.empty()) return std::shared_ptr<const permissions::RuleSet>();
  // The rules are read as an allow list of a settings file would be: one reader of rules.
  const nlohmann::json document = {{"permissions", {{"allow", command.allowed_tools}}}};
  auto rules = permissions::RuleSet::load({{command.file, document, project, ""}});
  if (!rules.ok()) {
    return Result::failure("/" + command.qualified_name() + ": allowed-tools (line " +
                           std::to_string(command.allowed_tools_line) + "): " + rules.error());
  }
  return std::make_shared<const permissions::RuleSet>(std::move(rules.value()));
}

util::Result<std::string> run_prompt_commands(const extensions::CommandPrompt& prompt,
                                              const std::string& name, RunGuard& guard,
                                              std::shared_ptr<const permissions::RuleSet> grants,
                                              std::stop_token stop) {
  using Result = util::Result<std::string>;
  if (prompt.commands.empty()) return prompt.text;
  auto bash = tools::select_tools(tools::builtin_tools(guard.tool_options()), {"bash"});
  if (!bash.ok()) return Result::failure(bash.error());
  auto registry = core::ToolRegistry::create(std::move(bash.value()), {});
  if (!registry.ok()) return Result::failure(registry.error());
  core::SchedulerOptions options;
  options.tools = registry.value().get();
  options.cwd = guard.working_tree();
  options.pre_tool = guard.pre_tool();
  options.gate = guard.gate({}, {}, std::move(grants));  // nobody to ask
  options.after_tool = guard.after_tool();
  core::ToolScheduler scheduler(options);
  std::vector<std::string> outputs;
  for (const extensions::PromptCommand& command : prompt.commands) {
    const core::ToolCall call{"command-" + std::to_string(outputs.size() + 1), "bash",
                              nlohmann::json{{"command", command.command}}.dump()};
    const core::ToolResult result = scheduler.execute_batch({call}, stop).results.at(0);
    std::string output = core::content_text(result.content);
    // A command that ran has its status; one without was refused, or never started.
    if (result.is_error && !result.exit_code) {
      return Result::failure("/" + name + ": !`" + command.command + "` was not run: " + output);
    }
    while (!output.empty() && output.back() == '\n') output.pop_back();
    outputs.push_back(std::move(output));
  }
  return extensions::with_command_outputs(prompt.text, prompt.commands, outputs);
}

PromptFinish command_finish(extensions::CommandPrompt prompt, std::string name, RunGuard& guard,
                            std::shared_ptr<const permissions::RuleSet> grants) {
  if (prompt.commands.empty()) return {};
  return [prompt = std::move(prompt), name = std::move(name), &guard,
          grants = std::move(grants)](std::stop_token stop) {
    return run_prompt_commands(prompt, name, guard, grants, stop);
  };
}

}  // namespace nib::app
