#pragma once
// The built-in `todo_write` tool: the model keeps a short plan of a multi-step task, rewriting
// the whole checklist at each change (Claude Code's TodoWrite, Codex's update_plan). Each item
// is {content, status} with status pending, in_progress or completed, and at most one item is
// in progress. The plan lives in a PlanBoard the front end owns (one per session) and draws;
// each accepted call also reports a core::PlanEvent through its ToolContext, so every sink of
// the run (stream-json, print mode's stderr, the interactive view) sees the change in order.
// The session keeps the plan as the tool call itself: latest_plan() finds it again on resume.
// Not concurrency-safe (one plan, replaced whole); the board itself is thread-safe.

#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/messages.hpp"
#include "core/plan.hpp"
#include "core/tool.hpp"
#include "util/result.hpp"

namespace nib::tools {

inline constexpr std::string_view kTodoWriteToolName = "todo_write";

// The current plan of one session. Thread-safe: the tool writes it on a worker thread while
// the front end reads it to draw.
class PlanBoard {
 public:
  core::Plan current() const;
  void replace(core::Plan plan);

 private:
  mutable std::mutex mutex_;
  core::Plan plan_;  // guarded by mutex_
};

// The plan in todo_write's arguments, or what is wrong with them (written for the model): no
// `items` list, an item without content or with an unknown status, more than one in progress,
// more than kMaxPlanItems items or an item over kMaxPlanItemBytes. Other keys of an item
// (Claude Code's activeForm, id, priority) are ignored.
util::Result<core::Plan> parse_plan(const nlohmann::json& args);

// The plan the latest successful todo_write call in `messages` set; nullopt when none did.
std::optional<core::Plan> latest_plan(const std::vector<core::Message>& messages);

// A todo_write tool writing to `board`.
core::ToolPtr make_todo_write_tool(std::shared_ptr<PlanBoard> board);

}  // namespace nib::tools
