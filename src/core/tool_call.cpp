#include "core/tool_call.hpp"

#include "util/json_depth.hpp"

namespace nib::core {
namespace {

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

}  // namespace

ToolResult error_result(const ToolCall& call, std::string text) {
  return ToolResult{call.id, call.name, text_content(std::move(text)), true, std::nullopt};
}

std::variant<PreparedCall, ToolResult> prepare_tool_call(const ToolCall& call,
                                                         const ToolRegistry& registry) {
  const RegisteredTool* registered = registry.find_or_await(call.name);
  if (!registered) {
    return error_result(call, "Error: unknown tool \"" + call.name +
                                  "\". Available tools: " + join(registry.names(), ", ") + ".");
  }

  if (util::json_nests_deeper_than(call.arguments, util::kMaxJsonDepth)) {
    return error_result(call, "Error: the arguments for " + call.name + " nest deeper than " +
                                  std::to_string(util::kMaxJsonDepth) +
                                  " levels, which nib refuses. Send a flat JSON object matching "
                                  "the tool's parameters.");
  }
  nlohmann::json args = util::parse_untrusted_json(call.arguments);
  if (args.is_discarded()) {
    return error_result(call, "Error: the arguments for " + call.name +
                                  " are not valid JSON. Send the arguments as one JSON object "
                                  "matching the tool's parameters and retry.");
  }
  if (!args.is_object()) {
    return error_result(call, "Error: the arguments for " + call.name +
                                  " must be a JSON object, not " + std::string(args.type_name()) +
                                  ". Fix the arguments and retry.");
  }

  const auto errors = registered->schema->validate(args);
  if (!errors.empty()) {
    std::vector<std::string> issues;
    for (std::size_t i = 0; i < errors.size() && i < kMaxReportedFieldErrors; ++i) {
      const auto& error = errors[i];
      issues.push_back((error.path.empty() ? "(root)" : error.path) + ": " + error.message);
    }
    return error_result(call, "Error: invalid arguments for " + call.name + " — " +
                                  join(issues, "; ") + ". Fix the arguments and retry.");
  }
  return PreparedCall{registered->tool, std::move(args)};
}

std::optional<ToolResult> apply_gate(const Gate& gate, const ToolCall& call,
                                     const PreparedCall& prepared, std::stop_token stop) {
  if (!gate) return std::nullopt;
  GateDecision decision;
  try {
    decision = gate(GateRequest{call.id, call.name, &prepared.args}, std::move(stop));
  } catch (const std::exception& e) {
    decision = {true, std::string("the check failed: ") + e.what(), "on_tool_call hook"};
  } catch (...) {
    decision = {true, "the check failed", "on_tool_call hook"};
  }
  if (!decision.block) return std::nullopt;
  const std::string source = decision.source.empty() ? "on_tool_call hook" : decision.source;
  const std::string reason = decision.reason.empty() ? "no reason given" : decision.reason;
  return error_result(call, "Tool \"" + call.name + "\" blocked by " + source + ": " + reason);
}

ToolOutcome run_tool(const ToolCall& call, const PreparedCall& prepared, std::stop_token stop,
                     const ToolContext& context) {
  ToolOutcome outcome;
  outcome.result.tool_call_id = call.id;
  outcome.result.tool_name = call.name;
  try {
    ToolOutput output = prepared.tool->execute(prepared.args, std::move(stop), context);
    outcome.result.content =
        output.content ? std::move(*output.content) : text_content(std::move(output.output));
    outcome.result.is_error = output.is_error;
    outcome.result.exit_code = output.exit_code;
    outcome.display = std::move(output.display);
  } catch (const std::exception& e) {
    outcome.result.content = text_content("Error: tool " + call.name + " threw: " + e.what());
    outcome.result.is_error = true;
  } catch (...) {
    outcome.result.content = text_content("Error: tool " + call.name + " threw: unknown exception");
    outcome.result.is_error = true;
  }
  return outcome;
}

}  // namespace nib::core
