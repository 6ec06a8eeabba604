#pragma once
// How the front ends present tool calls they need know nothing about: each tool describes its
// own calls and results (core::Tool::describe_call, describe_result); a tool that says nothing,
// or a name no registry knows, gets the default: the tool's name and its compact arguments.
// One short line per call ("read src/app.cpp:120-180", "bash npm test"), for print mode's
// stderr and the interactive tool rows. Pure functions; thread-safe.

#include <cstddef>
#include <optional>
#include <string>

#include "core/events.hpp"
#include "core/tool_registry.hpp"

namespace nib::ui {

// Summaries are cut to this many characters: one terminal line.
inline constexpr std::size_t kSummaryWidth = 80;

class ToolPresenter {
 public:
  // `tools` (may be null: every call gets the default) must outlive the presenter.
  explicit ToolPresenter(const core::ToolRegistry* tools = nullptr) : tools_(tools) {}

  // The call's line: its name and what the tool says it acts on, or its compact arguments.
  // `arguments` is the call's raw argument text (it may not be valid JSON).
  std::string call(const std::string& name, const std::string& arguments) const;
  // What the tool shows in place of the result's first lines, if anything.
  std::optional<std::string> result(const std::string& name, const std::string& arguments,
                                    const core::ToolResult& result) const;

 private:
  const core::ToolRegistry* tools_;
};

// "850 ms", "1.2 s", "2 m 05 s".
std::string format_duration(std::chrono::milliseconds duration);

// "✓ read README.md (3 ms)" or "✗ bash make: exit 2 (1.2 s)": the line print mode writes when a
// call ends (✗ for an error result or a command that exited non-zero).
std::string outcome_line(const std::string& call_summary, const core::ToolOutcome& outcome);

}  // namespace nib::ui
