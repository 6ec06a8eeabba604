#include "app/run_assembly.hpp"

#include "app/mcp_setup.hpp"
#include "app/subagent_setup.hpp"
#include "app/system_prompt.hpp"
#include "tools/builtin.hpp"

namespace nib::app {

util::Result<RunResources> open_run(const CliOptions& options, const ModelConfig& model,
                                    const RunContext& context) {
  using Result = util::Result<RunResources>;
  const tools::BuiltinOptions tool_options{.withheld_environment = context.withheld_environment};
  auto tools = tools::builtin_tools(tool_options);
  SubagentSetup subagents = setup_subagents(context);
  if (subagents.environment->max_depth > 0) tools.push_back(subagents.task_tool);
  if (options.tools) {
    auto selected = tools::select_tools(std::move(tools), *options.tools);
    if (!selected.ok()) return Result::failure(selected.error());
    tools = std::move(selected.value());
  }
  auto registry = core::ToolRegistry::create(std::move(tools), {});
  if (!registry.ok()) return Result::failure(registry.error());
  std::vector<std::string> problems =
      offer_tools_to_subagents(*subagents.environment, registry.value()->names(), tool_options);
  auto session = RunSession::open(options, context.env, context.cwd, context.existing,
                                  model.provider, model.model.id);
  if (!session.ok()) return Result::failure(session.error());
  auto mcp = start_mcp_servers(options, context, *registry.value());
  if (!mcp.ok()) return Result::failure(mcp.error());
  return RunResources{std::move(registry.value()),    std::move(subagents.environment),
                      std::move(session.value()),     std::move(problems),
                      std::move(mcp.value().servers), std::move(mcp.value().notices)};
}

core::LoopOptions base_loop_options(const CliOptions& options, const ModelConfig& model,
                                    const RunContext& context, core::Provider& provider,
                                    const core::ToolRegistry& tools) {
  core::LoopOptions loop;
  loop.provider = &provider;
  loop.model = model.model;
  loop.thinking = model.thinking;
  loop.tools = &tools;
  loop.cwd = context.cwd;
  loop.system_prompt =
      build_system_prompt({tools.specs(), context.cwd, today(), context.instructions,
                           options.system_prompt, options.append_system_prompt.value_or("")});
  loop.max_turns = context.max_turns;
  return loop;
}

ui::CostFunction cost_function(const ModelConfig& model) {
  if (!model.prices) return {};
  return [prices = *model.prices](const core::Usage& usage) {
    return provider::cost_usd(usage, prices);
  };
}

}  // namespace nib::app
