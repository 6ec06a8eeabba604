#pragma once
// The model's plan: a short checklist it keeps for a multi-step task with the todo_write tool
// (Claude Code's TodoWrite, Codex's update_plan). The value every layer shares: the tool writes
// it, events carry it to front ends (PlanEvent), the session restores it. Plain values;
// thread-safe as values are.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nib::core {

enum class PlanStatus { kPending, kInProgress, kCompleted };

// "pending", "in_progress", "completed": the names the model writes and stream-json shows.
const char* plan_status_name(PlanStatus status);
std::optional<PlanStatus> parse_plan_status(std::string_view name);

struct PlanItem {
  std::string content;  // "Add the parser", as the model wrote it
  PlanStatus status = PlanStatus::kPending;

  friend bool operator==(const PlanItem&, const PlanItem&) = default;
};

using Plan = std::vector<PlanItem>;

}  // namespace nib::core
