#include "app/run_assembly.hpp"

#include "app/compaction_hooks.hpp"
#include "app/mcp_setup.hpp"
#include "app/subagent_setup.hpp"
#include "app/system_prompt.hpp"
#include "extensions/skill_tool.hpp"
#include "tools/builtin.hpp"

namespace nib::app {

util::Result<RunResources> open_run(const CliOptions& options, const ModelConfig& model,
                                    const RunContext& context) {
  using Result = util::Result<RunResources>;
  // Subagents get fresh tools from the same options, with a plan of their own.
  tools::BuiltinOptions tool_options = context.guard->tool_options();
  tool_options.jobs = context.jobs;
  tool_options.editor_files = context.editor_files;
  const auto plan = std::make_shared<tools::PlanBoard>();
  tools::BuiltinOptions run_tool_options = tool_options;
  run_tool_options.plan = plan;
  auto tools = tools::builtin_tools(run_tool_options);
  SubagentSetup subagents = setup_subagents(context);
  if (subagents.environment->max_depth > 0) tools.push_back(subagents.task_tool);
  if (!extensions::skill_listing(context.extensions.skills->skills).empty()) {
    tools.push_back(extensions::make_skill_tool(context.extensions.skills));
  }
  if (!options.disallowed_tools.empty()) {
    auto kept = tools::leave_out_tools(std::move(tools), options.disallowed_tools);
    if (!kept.ok()) return Result::failure(kept.error());
    tools = std::move(kept.value());
  }
  if (options.tools) {
    auto selected = tools::select_tools(std::move(tools), *options.tools);
    if (!selected.ok()) return Result::failure(selected.error());
    tools = std::move(selected.value());
  }
  auto registry = core::ToolRegistry::create(std::move(tools), {});
  if (!registry.ok()) return Result::failure(registry.error());
  std::vector<std::string> problems = offer_tools_to_subagents(
      *subagents.environment, registry.value()->names(), tool_options, model.web_search);
  auto session = RunSession::open(options, context.places, context.cwd, context.existing,
                                  model.provider, model.model.id, context.checkpoints);
  if (!session.ok()) return Result::failure(session.error());
  if (context.existing) {
    // The whole stored conversation, a compacted part included: the plan outlives a summary.
    if (auto restored = tools::latest_plan(context.existing->loaded.messages)) {
      plan->replace(std::move(*restored));
    }
  }
  for (std::string& problem : extension_problems(context.extensions)) {
    problems.push_back(std::move(problem));
  }
  auto mcp = start_mcp_servers(options, context, *registry.value());
  if (!mcp.ok()) return Result::failure(mcp.error());
  return RunResources{std::move(registry.value()),
                      std::move(subagents.environment),
                      std::move(session.value()),
                      plan,
                      std::move(problems),
                      context.guard->hooks(),
                      std::move(mcp.value().servers),
                      std::move(mcp.value().notices),
                      std::move(mcp.value().awaiting)};
}

core::LoopOptions base_loop_options(const CliOptions& options, const ModelConfig& model,
                                    const RunContext& context, core::Provider& provider,
                                    const core::ToolRegistry& tools) {
  core::LoopOptions loop;
  loop.provider = &provider;
  loop.model = model.model;
  loop.thinking = model.thinking;
  loop.web_search = model.web_search;
  loop.tools = &tools;
  loop.cwd = context.cwd;
  const bool offers_skills = tools.find(std::string(extensions::kSkillToolName)) != nullptr;
  loop.system_prompt = build_system_prompt(
      {tools.specs(model.model.edit_style), context.cwd, today(), context.instructions,
       offers_skills ? extensions::skills_prompt_section(*context.extensions.skills) : "",
       options.system_prompt, options.append_system_prompt.value_or("")});
  loop.max_turns = context.max_turns;
  loop.spend = context.spend;
  loop.notices = context.notices;
  return loop;
}

core::LoopOptions assemble_loop(const CliOptions& options, const ModelConfig& model,
                                const RunContext& context, core::Provider& provider,
                                const RunParts& parts, FrontEndWiring front_end) {
  core::LoopOptions loop = base_loop_options(options, model, context, provider, parts.tools);
  loop.cache_key = parts.session.id();
  loop.on_event = [&session = parts.session,
                   show = std::move(front_end.show)](const core::Event& event) {
    session.on_event(event);
    if (show) show(event);
  };
  loop.take_steering = std::move(front_end.take_steering);
  context.guard->guard(loop, std::move(front_end.ask), std::move(front_end.save_rules),
                       std::move(front_end.grants));
  install_compaction(loop, context.compaction,
                     compaction_work(context, parts, "auto", "", front_end.notice));
  lend_run_to_subagents(parts.subagents, loop, model, parts.session.file());
  install_stop_hooks(loop, parts.subagents, parts.hooks, front_end.notice);
  return loop;
}

CompactionWork compaction_work(const RunContext& context, const RunParts& parts,
                               const std::string& trigger, const std::string& instructions,
                               const HookNotice& notice) {
  return {.trigger = trigger,
          .instructions = instructions,
          .plan = [plan = parts.plan] { return plan ? plan->current() : core::Plan{}; },
          .cwd = context.cwd,
          .before = [hooks = parts.hooks, notice](
                        const nlohmann::json& input,
                        std::stop_token stop) { pre_compact_hooks(*hooks, input, stop, notice); },
          .spend = context.spend,
          .notice = notice};
}

ui::CostFunction cost_function(const ModelConfig& model) {
  if (!model.prices) return {};
  return [prices = *model.prices](const core::Usage& usage) {
    return provider::cost_usd(usage, prices);
  };
}

}  // namespace nib::app
