#include "agent/subagent_run.hpp"

#include <atomic>
#include <cctype>
#include <optional>

#include "core/agent_loop.hpp"
#include "session/session_file.hpp"
#include "session/session_recorder.hpp"

namespace nib::agent {
namespace {

namespace fs = std::filesystem;

// "explore-1", "explore-2", ...: unique among the subagents of this process.
std::string next_agent_id(const std::string& name) {
  static std::atomic<int> started{0};
  return name + "-" + std::to_string(++started);
}

// A file name made of the call id's safe characters.
std::string transcript_name(const std::string& tool_call_id) {
  std::string name;
  for (const char c : tool_call_id) {
    name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  }
  return name.empty() ? "task" : name;
}

// The subagent's own session file beside its parent's, or none (not wanted, or not writable:
// losing the record must not lose the work).
std::optional<session::SessionRecorder> open_transcript(const SubagentEnvironment& environment,
                                                        const core::ModelInfo& model,
                                                        const std::string& tool_call_id) {
  if (environment.transcript_dir.empty()) return std::nullopt;
  std::error_code error;
  fs::create_directories(environment.transcript_dir, error);
  const auto header =
      session::make_header(environment.inherited.cwd.string(), model.id,
                           environment.inherited.provider_name, std::chrono::system_clock::now());
  const std::string base = transcript_name(tool_call_id);
  for (int attempt = 1; attempt <= 9; ++attempt) {
    const fs::path file = environment.transcript_dir /
                          (base + (attempt == 1 ? "" : "-" + std::to_string(attempt)) + ".jsonl");
    if (fs::exists(file, error)) continue;
    auto writer = session::SessionWriter::create(file, header);
    if (!writer.ok()) return std::nullopt;
    return session::SessionRecorder(std::move(writer.value()), 0);
  }
  return std::nullopt;
}

}  // namespace

SubagentSummary run_subagent(const SubagentEnvironment& environment, const SubagentRequest& request,
                             std::stop_token stop, const core::ToolContext& context) {
  const extensions::AgentDefinition& definition = *request.definition;
  const InheritedRun& parent = environment.inherited;
  const core::ToolRegistry& registry = *request.tools;

  SubagentSummary summary;
  summary.agent_name = definition.name;
  summary.agent_id = next_agent_id(definition.name);

  core::LoopOptions loop;
  loop.provider = parent.provider;
  loop.model = parent.model;
  if (definition.model && environment.resolve_model) {
    if (auto named = environment.resolve_model(parent.provider_name, *definition.model)) {
      loop.model = std::move(*named);
    }
  }
  loop.thinking = definition.thinking.value_or(parent.thinking);
  loop.web_search = parent.web_search && extensions::agent_searches_web(definition);
  loop.system_prompt = environment.system_prompt(definition, registry.specs(loop.model.edit_style));
  loop.tools = &registry;
  loop.pre_tool = parent.pre_tool;
  loop.gate = parent.gate;
  loop.after_tool = parent.after_tool;
  loop.before_done = parent.subagent_done;
  loop.max_turns = definition.max_turns.value_or(parent.max_turns);
  loop.spend = parent.spend;
  // Each agent has a system prompt and tools of its own: a key of its own keeps its requests
  // together where its prefix is cached, apart from the parent's.
  if (!parent.cache_key.empty()) loop.cache_key = parent.cache_key + "/" + definition.name;
  loop.cwd = parent.cwd;
  loop.abort_grace = parent.abort_grace / kAbortGraceDivisor;
  loop.slots = parent.slots;
  loop.requests = parent.requests;
  loop.claims = parent.claims;

  std::optional<session::SessionRecorder> transcript =
      open_transcript(environment, loop.model, context.tool_call_id);
  loop.on_event = [&](const core::Event& event) {
    if (transcript) transcript->on_event(event);
    if (std::holds_alternative<core::ToolStartEvent>(event)) ++summary.tool_calls;
    if (context.report) {
      context.report(
          core::SubagentEvent{context.tool_call_id, summary.agent_id, summary.agent_name,
                              std::make_shared<core::NestedEvent>(core::NestedEvent{event})});
    }
  };

  std::vector<core::Message> history;
  core::UserMessage prompt{core::text_content(request.prompt)};
  history.emplace_back(prompt);
  if (transcript) transcript->on_event(core::UserMessageEvent{std::move(prompt)});

  const auto started = std::chrono::steady_clock::now();
  core::AgentLoop agent(std::move(loop));
  summary.end = agent.run(history, stop);
  summary.duration = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - started);
  summary.answer = final_answer(history);
  return summary;
}

}  // namespace nib::agent
