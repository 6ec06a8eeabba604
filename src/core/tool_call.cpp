#include "core/tool_call.hpp"

#include "util/json_depth.hpp"
#include "util/json_text.hpp"

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

namespace {

// What the call touches, as the tool says, with the kind stamped from its spec; the reason it
// cannot say otherwise (a tool's access() that throws refuses its call).
std::variant<std::shared_ptr<const CallAccess>, std::string> access_of(const Tool& tool,
                                                                       const nlohmann::json& args,
                                                                       const ToolContext& context) {
  try {
    CallAccess access = tool.access(args, context);
    access.kind = tool.spec().access;
    return std::make_shared<const CallAccess>(std::move(access));
  } catch (const std::exception& e) {
    return std::string(e.what());
  } catch (...) {
    return std::string("unknown exception");
  }
}

// `args` against the tool's schema ("invalid arguments for NAME — ..."), then what the call
// touches: the prepared call, or the error text without the "Error: " it is framed with.
std::variant<PreparedCall, std::string> checked_call(const RegisteredTool& registered,
                                                     nlohmann::json args,
                                                     const ToolContext& context) {
  const std::string& name = registered.tool->name();
  if (auto issues = schema_issues(registered, args)) {
    return "invalid arguments for " + name + " — " + *issues;
  }
  auto access = access_of(*registered.tool, args, context);
  if (auto* failure = std::get_if<std::string>(&access)) {
    return "nib could not work out what this call of " + name + " would touch (" + *failure + ")";
  }
  return PreparedCall{registered.tool, std::move(args),
                      std::get<std::shared_ptr<const CallAccess>>(std::move(access))};
}

}  // namespace

std::variant<PreparedCall, ToolResult> prepare_tool_call(const ToolCall& call,
                                                         const ToolRegistry& registry,
                                                         const ToolContext& context,
                                                         EditStyle model_style) {
  const RegisteredTool* registered = registry.find_or_await(call.name);
  if (!registered || !offered_to(registered->tool->spec(), model_style)) {
    return error_result(call, "Error: unknown tool \"" + call.name + "\". Available tools: " +
                                  join(registry.names(model_style), ", ") + ".");
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
  auto checked = checked_call(*registered, std::move(args), context);
  if (auto* failure = std::get_if<std::string>(&checked)) {
    return error_result(call, "Error: " + *failure + ". Fix the arguments and retry.");
  }
  return std::get<PreparedCall>(std::move(checked));
}

namespace {

// Asks `check`, turning a throw into a block: a check that fails never lets a call through.
template <typename Decision, typename Check>
Decision ask_check(const Check& check, const GateRequest& request, std::stop_token stop,
                   Decision on_failure) {
  try {
    return check(request, std::move(stop));
  } catch (const std::exception& e) {
    on_failure.reason = std::string("the check failed: ") + e.what();
  } catch (...) {
    on_failure.reason = "the check failed";
  }
  return on_failure;
}

ToolResult blocked_result(const ToolCall& call, const std::string& source,
                          const std::string& reason) {
  return error_result(call, "Tool \"" + call.name + "\" blocked by " +
                                (source.empty() ? "on_tool_call hook" : source) + ": " +
                                (reason.empty() ? "no reason given" : reason));
}

}  // namespace

std::optional<ToolResult> apply_gate(const PreToolCheck& pre_tool, const Gate& gate,
                                     const ToolCall& call, PreparedCall& prepared,
                                     const ToolRegistry& registry, const ToolContext& context,
                                     std::stop_token stop) {
  GateRequest request{call.id, call.name, &prepared.args, prepared.access.get()};
  request.tool = prepared.tool.get();
  request.context = &context;
  if (pre_tool) {
    using Kind = PreToolVerdict::Kind;
    const PreToolVerdict verdict =
        ask_check(pre_tool, request, stop, PreToolVerdict{Kind::kBlock, "", "a PreToolUse hook"});
    if (verdict.kind == Kind::kBlock) return blocked_result(call, verdict.source, verdict.reason);
    if (verdict.updated_args) {
      const RegisteredTool* registered = registry.find(call.name);
      std::variant<std::shared_ptr<const CallAccess>, std::string> checked =
          std::string("the tool is no longer registered");
      if (!verdict.updated_args->is_object()) {
        checked =
            "they are " + std::string(verdict.updated_args->type_name()) + ", not a JSON object";
      } else if (registered) {
        if (auto issues = schema_issues(*registered, *verdict.updated_args)) {
          checked = *issues;
        } else {
          checked = access_of(*registered->tool, *verdict.updated_args, context);
          if (auto* failure = std::get_if<std::string>(&checked)) {
            *failure = "nib could not work out what the call would touch: " + *failure;
          }
        }
      }
      if (auto* failure = std::get_if<std::string>(&checked)) {
        const std::string source = verdict.source.empty() ? "a PreToolUse hook" : verdict.source;
        return error_result(call, "Tool \"" + call.name + "\" blocked: " + source +
                                      " replaced its arguments with ones the tool does not "
                                      "accept (" +
                                      *failure +
                                      "), so the call did not run. Tell the user; the hook's "
                                      "updatedInput needs fixing.");
      }
      prepared.args = *verdict.updated_args;
      prepared.access = std::get<std::shared_ptr<const CallAccess>>(std::move(checked));
      prepared.args_updated = true;
      request.args = &prepared.args;
      request.access = prepared.access.get();
    }
    request.hook_allows = verdict.kind == Kind::kAllow;
    if (verdict.kind == Kind::kAsk) {
      request.hook_asks = verdict.reason.empty() ? "no reason given" : verdict.reason;
      if (!gate) {
        return blocked_result(call, verdict.source,
                              "Not run: the hook asks for the user's approval of this call (" +
                                  request.hook_asks +
                                  "), and nobody can be asked here. Do without it, or tell the "
                                  "user what you would have run.");
      }
    }
    prepared.gate_context = verdict.additional_context;
  }
  if (!gate) return std::nullopt;
  const GateDecision decision =
      ask_check(gate, request, std::move(stop), GateDecision{true, "", "on_tool_call hook"});
  if (!decision.block) return std::nullopt;
  return blocked_result(call, decision.source, decision.reason);
}

std::function<std::optional<std::string>(const nlohmann::json&, std::stop_token)> follow_up_checker(
    PreToolCheck pre_tool, Gate gate, ToolCall call, const ToolRegistry& registry,
    ToolContext context) {
  context.check_follow_up = nullptr;  // the checker must not keep itself alive through it
  context.report = nullptr;
  return [pre_tool = std::move(pre_tool), gate = std::move(gate), call = std::move(call), &registry,
          context = std::move(context)](const nlohmann::json& args,
                                        std::stop_token stop) -> std::optional<std::string> {
    // An abandoned call (the run aborted) may outlive the registry and the gate: it must not
    // reach them once stopped.
    if (stop.stop_requested()) return "Not followed: the run was interrupted.";
    ToolCall follow_up = call;
    follow_up.arguments = util::json_text(args);
    auto prepared = prepare_tool_call(follow_up, registry, context);
    if (auto* refused = std::get_if<ToolResult>(&prepared)) return content_text(refused->content);
    if (auto blocked = apply_gate(pre_tool, gate, follow_up, std::get<PreparedCall>(prepared),
                                  registry, context, std::move(stop))) {
      return content_text(blocked->content);
    }
    return std::nullopt;
  };
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
                      util::json_text(prepared.args) + ".)");
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
    after(GateRequest{call.id, call.name, &prepared.args, prepared.access.get()}, result,
          std::move(stop));
  } catch (const std::exception& e) {
    append_text(result.content, std::string("(The after-tool check failed: ") + e.what() + ".)");
  } catch (...) {
    append_text(result.content, "(The after-tool check failed.)");
  }
}

}  // namespace nib::core
