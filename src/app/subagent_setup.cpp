#include "app/subagent_setup.hpp"

#include <algorithm>
#include "app/extension_setup.hpp"
#include "app/settings.hpp"
#include "app/system_prompt.hpp"

#include "agent/task_tool.hpp"
#include "extensions/agent_catalog.hpp"
#include "tools/builtin.hpp"

namespace nib::app {
namespace {

namespace fs = std::filesystem;

}  // namespace

SubagentSetup setup_subagents(const RunContext& context) {
  auto environment = std::make_shared<agent::SubagentEnvironment>();
  environment->agents =
      std::make_shared<extensions::AgentCatalog>(extensions::load_agent_definitions(extension_roots(
          context.places, context.cwd, context.user_config_dir, context.extensions.plugins.get())));
  environment->system_prompt = [cwd = context.cwd, instructions = context.instructions](
                                   const extensions::AgentDefinition& definition,
                                   const std::vector<core::ToolSpec>& tools) {
    return build_system_prompt({tools, cwd, today(), instructions, "",
                                definition.system_prompt.empty()
                                    ? std::nullopt
                                    : std::optional<std::string>(definition.system_prompt),
                                ""});
  };
  if (context.configuration != nullptr) {
    environment->max_depth = context.configuration->settings.subagent_max_depth.value_or(
        agent::kDefaultMaxSubagentDepth);
    environment->resolve_model = [configuration = context.configuration](
                                     const std::string& provider_name,
                                     const std::string& name) -> std::optional<core::ModelInfo> {
      const provider::ProviderEntry* entry = configuration->find_provider(provider_name);
      const provider::ModelEntry* model = entry != nullptr ? model_named(*entry, name) : nullptr;
      return model != nullptr ? std::optional(provider::model_info(*model)) : std::nullopt;
    };
  }
  return {environment, agent::make_task_tool(environment, 0, std::nullopt)};
}

std::vector<std::string> offer_tools_to_subagents(agent::SubagentEnvironment& environment,
                                                  const std::vector<std::string>& tool_names,
                                                  const tools::BuiltinOptions& tool_options,
                                                  bool hosted_web_search) {
  std::vector<std::string> names = tool_names;
  std::erase(names, std::string(extensions::kTaskToolName));
  environment.make_tools = [tool_options, names] {
    std::vector<core::ToolPtr> tools;
    for (auto& tool : tools::builtin_tools(tool_options)) {
      if (std::find(names.begin(), names.end(), tool->name()) != names.end()) {
        tools.push_back(std::move(tool));
      }
    }
    return tools;
  };
  std::vector<std::string> problems;
  const auto report = [&](const extensions::Problem& problem) {
    problems.push_back("an agent definition was left out or changed: " + problem.text());
  };
  for (const auto& problem : environment.agents->problems) report(problem);
  for (const auto& definition : environment.agents->agents) {
    for (const auto& problem : extensions::validate_agent_tools(definition, tool_names)) {
      report(problem);
    }
  }
  if (std::string notice =
          extensions::claude_tools_nib_lacks_notice(environment.agents->agents, hosted_web_search);
      !notice.empty()) {
    problems.push_back(std::move(notice));
  }
  return problems;
}

fs::path subagent_transcript_dir(const fs::path& session_file) {
  if (session_file.empty()) return {};
  fs::path directory = session_file;
  directory.replace_extension();
  return directory / "subagents";
}

void lend_run_to_subagents(agent::SubagentEnvironment& environment, const core::LoopOptions& loop,
                           const ModelConfig& model, const fs::path& session_file) {
  environment.inherited = agent::inherit_from(loop, model.provider);
  environment.transcript_dir = subagent_transcript_dir(session_file);
}

}  // namespace nib::app
