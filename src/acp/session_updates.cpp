#include "acp/session_updates.hpp"

#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "mcp/call_result.hpp"
#include "session/compaction.hpp"
#include "ui/tool_summary.hpp"
#include "util/json_text.hpp"

namespace nib::acp {
namespace {

using nlohmann::json;

json chunk(const char* kind, json content) {
  return {{"sessionUpdate", kind}, {"content", std::move(content)}};
}

json text_block(std::string text) {
  return {{"type", "text"}, {"text", std::move(text)}};
}

// The plan's statuses are named as ACP names them.
json plan_update(const core::Plan& plan) {
  json entries = json::array();
  for (const core::PlanItem& item : plan) {
    entries.push_back({{"content", item.content},
                       {"priority", "medium"},
                       {"status", core::plan_status_name(item.status)}});
  }
  return {{"sessionUpdate", "plan"}, {"entries", std::move(entries)}};
}

// The call's arguments as JSON, or nothing when they are not an object (the model's may be
// broken; the call then fails and says why).
std::optional<json> arguments_of(const std::string& text) {
  json parsed = json::parse(text, nullptr, false);
  if (!parsed.is_object()) return std::nullopt;
  return parsed;
}

// What the call touches as its tool resolves it; nothing when the tool cannot say.
std::optional<core::CallAccess> access_of(const core::ToolRegistry& tools, const std::string& name,
                                          const std::optional<json>& arguments,
                                          const std::filesystem::path& cwd) {
  const core::RegisteredTool* tool = tools.find(name);
  if (tool == nullptr || !arguments) return std::nullopt;
  try {
    core::ToolContext context;
    context.cwd = cwd;
    core::CallAccess access = tool->tool->access(*arguments, context);
    access.kind = tool->tool->spec().access;
    return access;
  } catch (...) {
    return std::nullopt;  // the tool will refuse the call and say why
  }
}

// The text of a file of at most kMaxDiffFileBytes; nothing when there is none (or it is bigger,
// or not a regular file).
std::optional<std::string> small_file_text(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return std::nullopt;
  const auto size = std::filesystem::file_size(path, error);
  if (error || size > kMaxDiffFileBytes) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

std::string tool_kind(const core::ToolRegistry& tools, const std::string& name) {
  const core::RegisteredTool* tool = tools.find(name);
  if (tool == nullptr) return "other";
  const core::ToolSpec& spec = tool->tool->spec();
  switch (spec.access) {
    case core::AccessKind::kRead:
      // A read tool that takes a pattern searches (grep, find); one that takes a path reads.
      return spec.parameters.contains("properties") &&
                     spec.parameters["properties"].contains("pattern")
                 ? "search"
                 : "read";
    case core::AccessKind::kWrite:
      return "edit";
    case core::AccessKind::kExecute:
      return "execute";
    case core::AccessKind::kNetwork:
      return "fetch";
    case core::AccessKind::kNone:
    case core::AccessKind::kDelegate:
      return "think";
    case core::AccessKind::kExternal:
    case core::AccessKind::kChange:
      break;
  }
  return "other";
}

json content_block(const core::ContentBlock& block) {
  return mcp::content_blocks({block}).at(0);
}

SessionUpdates::SessionUpdates(const core::ToolRegistry& tools, std::filesystem::path cwd,
                               std::int64_t context_window, UsageCost cost)
    : tools_(tools),
      cwd_(std::move(cwd)),
      context_window_(context_window),
      cost_(std::move(cost)) {}

std::vector<json> SessionUpdates::on_event(const core::Event& event) {
  if (const auto* text = std::get_if<core::TextDeltaEvent>(&event)) {
    return {chunk("agent_message_chunk", text_block(text->text))};
  }
  if (const auto* thinking = std::get_if<core::ThinkingDeltaEvent>(&event)) {
    return {chunk("agent_thought_chunk", text_block(thinking->text))};
  }
  if (const auto* start = std::get_if<core::ToolStartEvent>(&event)) {
    return {call_started(start->id, start->name, start->arguments, /*live=*/true)};
  }
  if (const auto* running = std::get_if<core::ToolRunningEvent>(&event)) {
    json update = {{"sessionUpdate", "tool_call_update"},
                   {"toolCallId", running->id},
                   {"status", "in_progress"}};
    if (running->arguments) {
      // A hook rewrote the arguments: the call runs with these.
      if (auto rewritten = arguments_of(*running->arguments)) update["rawInput"] = *rewritten;
    }
    return {update};
  }
  if (const auto* output = std::get_if<core::ToolOutputEvent>(&event)) {
    if (auto update = live_output(*output)) return {*update};
    return {};
  }
  if (const auto* end = std::get_if<core::ToolEndEvent>(&event)) {
    return {call_ended(end->outcome.result.tool_call_id, end->outcome.result)};
  }
  if (const auto* plan = std::get_if<core::PlanEvent>(&event)) return {plan_update(plan->items)};
  if (const auto* reply = std::get_if<core::MessageEndEvent>(&event)) {
    if (auto update = usage(reply->message.usage)) return {*update};
    return {};
  }
  if (const auto* nested = std::get_if<core::SubagentEvent>(&event)) {
    // A subagent's requests cost the session too; its own steps stay inside its task call.
    const core::NestedView view = core::innermost(*nested);
    if (const auto* reply = std::get_if<core::MessageEndEvent>(view.event)) {
      if (cost_) {
        if (const auto cost = cost_(reply->message.usage))
          spent_usd_ = spent_usd_.value_or(0) + *cost;
      }
    }
    return {};
  }
  if (const auto* compacted = std::get_if<core::HistoryCompactedEvent>(&event)) {
    return {chunk("agent_thought_chunk",
                  text_block("(The earlier conversation was summarised to fit the context; " +
                             std::to_string(compacted->kept) + " recent messages are kept.)\n"))};
  }
  return {};
}

std::vector<json> SessionUpdates::replay(const std::vector<core::Message>& history) {
  std::vector<json> updates;
  for (const core::Message& message : history) {
    if (const auto* user = std::get_if<core::UserMessage>(&message)) {
      for (const core::ContentBlock& block : user->content) {
        updates.push_back(chunk("user_message_chunk", content_block(block)));
      }
    } else if (const auto* reply = std::get_if<core::AssistantMessage>(&message)) {
      for (const core::AssistantBlock& block : reply->blocks) {
        if (const auto* text = std::get_if<core::TextBlock>(&block)) {
          updates.push_back(chunk("agent_message_chunk", text_block(text->text)));
        } else if (const auto* thinking = std::get_if<core::ThinkingBlock>(&block)) {
          if (!thinking->redacted) {
            updates.push_back(chunk("agent_thought_chunk", text_block(thinking->text)));
          }
        } else if (const auto* call = std::get_if<core::ToolCall>(&block)) {
          updates.push_back(call_started(call->id, call->name, call->arguments, /*live=*/false));
        }
      }
    } else {
      for (const core::ToolResult& result : std::get<core::ToolResultMessage>(message).results) {
        updates.push_back(call_ended(result.tool_call_id, result));
      }
    }
  }
  calls_.clear();
  return updates;
}

json SessionUpdates::call_started(const std::string& id, const std::string& name,
                                  const std::string& arguments, bool live) {
  const std::optional<json> parsed = arguments_of(arguments);
  json update = {{"sessionUpdate", "tool_call"},
                 {"toolCallId", id},
                 {"title", ui::ToolPresenter(&tools_).call(name, arguments)},
                 {"kind", tool_kind(tools_, name)},
                 {"status", live ? "pending" : "in_progress"},
                 {"rawInput", parsed.value_or(json::object())}};
  OpenCall call{name, arguments, {}};
  json locations = json::array();
  if (const auto access = access_of(tools_, name, parsed, cwd_)) {
    for (const core::PathAccess& path : access->paths) {
      json location = {{"path", path.path.string()}};
      if (path.line) location["line"] = *path.line;
      locations.push_back(std::move(location));
      if (live && access->kind == core::AccessKind::kWrite) {
        call.before.emplace_back(path.target, small_file_text(path.target));
      }
    }
  }
  if (!locations.empty()) update["locations"] = std::move(locations);
  calls_[id] = std::move(call);
  return update;
}

json SessionUpdates::call_ended(const std::string& id, const core::ToolResult& result) {
  json content = json::array();
  const auto open = calls_.find(id);
  if (open != calls_.end() && !result.is_error) {
    for (const auto& [path, before] : open->second.before) {
      const std::optional<std::string> after = small_file_text(path);
      if (!after || after == before) continue;
      content.push_back({{"type", "diff"},
                         {"path", path.string()},
                         {"oldText", before ? json(*before) : json(nullptr)},
                         {"newText", *after}});
    }
  }
  // What the terminal shows in place of the result, when the tool has a line for it (read:
  // "Read 61 lines"); else the result itself.
  std::optional<std::string> stand_in;
  if (open != calls_.end()) {
    stand_in = ui::ToolPresenter(&tools_).result(open->second.name, open->second.arguments, result);
  }
  if (stand_in) {
    content.push_back({{"type", "content"}, {"content", text_block(*stand_in)}});
  } else {
    for (const core::ContentBlock& block : result.content) {
      content.push_back({{"type", "content"}, {"content", content_block(block)}});
    }
  }
  if (open != calls_.end()) calls_.erase(open);
  json update = {{"sessionUpdate", "tool_call_update"},
                 {"toolCallId", id},
                 {"status", result.is_error ? "failed" : "completed"},
                 {"content", std::move(content)}};
  if (result.exit_code) update["rawOutput"] = {{"exitCode", *result.exit_code}};
  return update;
}

std::optional<json> SessionUpdates::live_output(const core::ToolOutputEvent& output) {
  const auto open = calls_.find(output.id);
  if (open == calls_.end()) return std::nullopt;
  OpenCall& call = open->second;
  call.live += output.text;
  if (call.live.size() > kLiveOutputTailBytes) {
    call.live.erase(0, call.live.size() - kLiveOutputTailBytes);
  }
  const auto now = std::chrono::steady_clock::now();
  if (call.live_sent && now - *call.live_sent < kLiveOutputInterval) return std::nullopt;
  call.live_sent = now;
  // What is held back now is shown with the result, which replaces it.
  return json{
      {"sessionUpdate", "tool_call_update"},
      {"toolCallId", output.id},
      {"content", json::array({{{"type", "content"}, {"content", text_block(call.live)}}})}};
}

std::optional<json> SessionUpdates::usage(const core::Usage& reply) {
  if (cost_) {
    if (const auto cost = cost_(reply)) spent_usd_ = spent_usd_.value_or(0) + *cost;
  }
  const std::int64_t used = session::reply_context_tokens(reply);
  if (used == 0) return std::nullopt;
  json update = {{"sessionUpdate", "usage_update"}, {"used", used}, {"size", context_window_}};
  if (spent_usd_) update["cost"] = {{"amount", *spent_usd_}, {"currency", "USD"}};
  return update;
}

}  // namespace nib::acp
