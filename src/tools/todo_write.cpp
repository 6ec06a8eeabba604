#include "tools/todo_write.hpp"

#include <map>
#include <string>

#include "tools/limits.hpp"
#include "util/text_cut.hpp"

namespace nib::tools {
namespace {

using core::PlanItem;
using core::PlanStatus;
using nlohmann::json;

// An item too long to keep is named by this much of its start.
constexpr std::size_t kQuotedItemBytes = 40;

// When a plan is worth keeping is the system prompt's (app/system_prompt.cpp); this says how.
std::string description() {
  return "Replace the plan, a checklist the user watches, with the whole list. Mark an item "
         "in_progress before starting it (one at a time) and completed as soon as it is done; "
         "add and drop items as you learn more. An empty list clears the plan.";
}

json parameters() {
  return {
      {"type", "object"},
      {"properties",
       {{"items",
         {{"type", "array"},
          {"items",
           {{"type", "object"},
            {"properties",
             {{"content", {{"type", "string"}, {"minLength", 1}}},
              {"status", {{"type", "string"}, {"enum", {"pending", "in_progress", "completed"}}}}}},
            {"required", {"content", "status"}}}}}}}},
      {"required", {"items"}},
  };
}

// "item 2 (\"Add the parser\")": how a message names an item.
std::string item_name(std::size_t index, const std::string& content) {
  return "item " + std::to_string(index + 1) + " (\"" + content + "\")";
}

// "2 of 5 done", plus the step in progress.
std::string progress(const core::Plan& plan) {
  std::size_t done = 0;
  const PlanItem* current = nullptr;
  for (const PlanItem& item : plan) {
    if (item.status == PlanStatus::kCompleted) ++done;
    if (item.status == PlanStatus::kInProgress) current = &item;
  }
  std::string text = std::to_string(done) + " of " + std::to_string(plan.size()) + " done";
  if (current) text += "; now: " + current->content;
  return text;
}

class TodoWriteTool final : public core::Tool {
 public:
  explicit TodoWriteTool(std::shared_ptr<PlanBoard> board)
      // The plan is nib's own note, not the machine's: read-only mode keeps it too.
      : Tool({.name = std::string(kTodoWriteToolName),
              .description = description(),
              .parameters = parameters(),
              .access = core::AccessKind::kNone}),
        board_(std::move(board)) {}

  core::ToolOutput execute(const json& args, std::stop_token /*stop*/,
                           const core::ToolContext& context) override {
    auto plan = parse_plan(args);
    if (!plan.ok()) return core::ToolOutput::error(plan.error());
    board_->replace(plan.value());
    if (context.report) context.report(core::PlanEvent{plan.value()});
    if (plan.value().empty()) return {"Plan cleared."};
    return {"Plan updated (" + progress(plan.value()) +
            "). Keep it current: mark the next item in_progress when you start it and completed "
            "when it is done."};
  }

  std::string describe_call(const json& args) const override {
    const auto plan = parse_plan(args);
    return plan.ok() ? progress(plan.value()) : std::string();
  }

 private:
  std::shared_ptr<PlanBoard> board_;
};

}  // namespace

core::Plan PlanBoard::current() const {
  const std::lock_guard lock(mutex_);
  return plan_;
}

void PlanBoard::replace(core::Plan plan) {
  const std::lock_guard lock(mutex_);
  plan_ = std::move(plan);
}

util::Result<core::Plan> parse_plan(const json& args) {
  using Result = util::Result<core::Plan>;
  const auto items = args.is_object() ? args.find("items") : args.end();
  if (!args.is_object() || items == args.end() || !items->is_array()) {
    return Result::failure(
        "items must be a list of {\"content\": \"...\", \"status\": \"pending\"} objects; send "
        "the whole plan.");
  }
  if (items->size() > kMaxPlanItems) {
    return Result::failure("the plan has " + std::to_string(items->size()) +
                           " items; keep it to at most " + std::to_string(kMaxPlanItems) +
                           " by merging small steps.");
  }
  core::Plan plan;
  std::optional<std::size_t> in_progress;
  for (std::size_t i = 0; i < items->size(); ++i) {
    const json& item = (*items)[i];
    const auto content = item.is_object() ? item.find("content") : item.end();
    const auto status = item.is_object() ? item.find("status") : item.end();
    if (!item.is_object() || content == item.end() || !content->is_string() ||
        content->get<std::string>().find_first_not_of(" \t\r\n") == std::string::npos) {
      return Result::failure("item " + std::to_string(i + 1) +
                             " has no content; give each item a short description of its step.");
    }
    PlanItem parsed{content->get<std::string>(), PlanStatus::kPending};
    if (parsed.content.size() > kMaxPlanItemBytes) {
      return Result::failure(item_name(i, util::cut_text(parsed.content, kQuotedItemBytes)) +
                             " is " + std::to_string(parsed.content.size()) +
                             " bytes; keep each item to " + std::to_string(kMaxPlanItemBytes) +
                             " bytes, one line.");
    }
    const auto known = status != item.end() && status->is_string()
                           ? core::parse_plan_status(status->get<std::string>())
                           : std::nullopt;
    if (!known) {
      return Result::failure(item_name(i, parsed.content) +
                             " needs a status of pending, in_progress or completed.");
    }
    parsed.status = *known;
    if (parsed.status == PlanStatus::kInProgress) {
      if (in_progress) {
        return Result::failure(
            "at most one item may be in_progress, but " +
            item_name(*in_progress, plan[*in_progress].content) + " and " +
            item_name(i, parsed.content) +
            " both are. Keep in_progress for the step you are working on now and mark the "
            "others pending or completed, then call todo_write again.");
      }
      in_progress = i;
    }
    plan.push_back(std::move(parsed));
  }
  return plan;
}

std::optional<core::Plan> latest_plan(const std::vector<core::Message>& messages) {
  std::map<std::string, const std::string*> arguments;  // call id -> argument text
  std::optional<core::Plan> latest;
  for (const core::Message& message : messages) {
    if (const auto* assistant = std::get_if<core::AssistantMessage>(&message)) {
      for (const core::AssistantBlock& block : assistant->blocks) {
        const auto* call = std::get_if<core::ToolCall>(&block);
        if (call && call->name == kTodoWriteToolName) arguments[call->id] = &call->arguments;
      }
    } else if (const auto* results = std::get_if<core::ToolResultMessage>(&message)) {
      for (const core::ToolResult& result : results->results) {
        const auto call = arguments.find(result.tool_call_id);
        if (result.is_error || call == arguments.end()) continue;
        const json args = json::parse(*call->second, nullptr, /*allow_exceptions=*/false);
        if (auto plan = parse_plan(args); plan.ok()) latest = std::move(plan.value());
      }
    }
  }
  return latest;
}

core::ToolPtr make_todo_write_tool(std::shared_ptr<PlanBoard> board) {
  return std::make_shared<TodoWriteTool>(std::move(board));
}

}  // namespace nib::tools
