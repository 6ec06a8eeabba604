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

// The first kMaxReportedFieldErrors ways `args` fails the tool's schema, or nothing when it
// passes.
std::optional<std::string> schema_issues(const RegisteredTool& registered,
                                         const nlohmann::json& args) {
  const auto errors = registered.schema->validate(args);
  if (errors.empty()) return std::nullopt;
  std::vector<std::string> issues;
  for (std::size_t i = 0; i < errors.size() && i < kMaxReportedFieldErrors; ++i) {
    const auto& error = errors[i];
    issues.push_back((error.path.empty() ? "(root)" : error.path) + ": " + error.message);
  }
  return join(issues, "; ");
}

}  // namespace

void append_text(Content& content, const std::string& text) {
  if (text.empty()) return;
  if (!content.empty()) {
    if (auto* last = std::get_if<TextBlock>(&content.back())) {
      last->text += (last->text.empty() ? "" : "\n\n") + text;
      return;
    }
  }
  content.push_back(TextBlock{text});
}

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

  if (auto issues = schema_issues(*registered, args)) {
    return error_result(call, "Error: invalid arguments for " + call.name + " — " + *issues +
                                  ". Fix the arguments and retry.");
  }
  return PreparedCall{registered->tool, std::move(args)};
}

std::optional<ToolResult> apply_gate(const Gate& gate, const ToolCall& call, PreparedCall& prepared,
                                     const ToolRegistry& registry, const ToolContext& context,
                                     std::stop_token stop) {
  if (!gate) return std::nullopt;
  GateDecision decision;
  try {
    const ToolSpec& spec = prepared.tool->spec();
    GateRequest request{call.id, call.name, &prepared.args, spec.read_only, spec.delegates};
    request.tool = prepared.tool.get();
    request.context = &context;
    decision = gate(request, std::move(stop));
  } catch (const std::exception& e) {
    decision = {true, std::string("the check failed: ") + e.what(), "on_tool_call hook"};
  } catch (...) {
    decision = {true, "the check failed", "on_tool_call hook"};
  }
  if (!decision.block && decision.updated_args) {
    const RegisteredTool* registered = registry.find(call.name);
    std::optional<std::string> issues;
    if (!decision.updated_args->is_object()) {
      issues =
          "they are " + std::string(decision.updated_args->type_name()) + ", not a JSON object";
    } else if (registered) {
      issues = schema_issues(*registered, *decision.updated_args);
    }
    if (issues) {
      const std::string source = decision.source.empty() ? "on_tool_call hook" : decision.source;
      return error_result(call, "Tool \"" + call.name + "\" blocked: " + source +
                                    " replaced its arguments with ones the tool does not accept (" +
                                    *issues +
                                    "), so the call did not run. Tell the user; the hook's "
                                    "updatedInput needs fixing.");
    }
    prepared.args = std::move(*decision.updated_args);
    prepared.args_updated = true;
  }
  if (!decision.block) {
    prepared.gate_context = std::move(decision.additional_context);
    return std::nullopt;
  }
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
    if (prepared.args_updated) {
      append_text(outcome.result.content,
                  "(A hook changed this call's arguments before it ran; it ran with " +
                      prepared.args.dump() + ".)");
    }
    append_text(outcome.result.content, prepared.gate_context);
  } catch (const std::exception& e) {
    outcome.result.content = text_content("Error: tool " + call.name + " threw: " + e.what());
    outcome.result.is_error = true;
  } catch (...) {
    outcome.result.content = text_content("Error: tool " + call.name + " threw: unknown exception");
    outcome.result.is_error = true;
  }
  return outcome;
}

void apply_after_tool(const AfterTool& after, const ToolCall& call, const PreparedCall& prepared,
                      ToolResult& result, std::stop_token stop) {
  if (!after) return;
  try {
    after(GateRequest{call.id, call.name, &prepared.args, {}}, result, std::move(stop));
  } catch (const std::exception& e) {
    append_text(result.content, std::string("(The after-tool check failed: ") + e.what() + ".)");
  } catch (...) {
    append_text(result.content, "(The after-tool check failed.)");
  }
}

}  // namespace nib::core
