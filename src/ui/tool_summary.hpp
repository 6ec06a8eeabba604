#pragma once
// One short line describing a tool call ("read src/app.cpp:120-180", "bash npm test"), for
// print mode's stderr and the interactive tool rows. Pure functions.

#include <cstddef>
#include <string>

#include "core/events.hpp"

namespace nib::ui {

// Summaries are cut to this many characters: one terminal line.
inline constexpr std::size_t kSummaryWidth = 80;

// `arguments` is the call's raw argument text (it may not be valid JSON).
std::string summarize_call(const std::string& name, const std::string& arguments);

// "850 ms", "1.2 s", "2 m 05 s".
std::string format_duration(std::chrono::milliseconds duration);

// "✓ read README.md (3 ms)" or "✗ bash make: exit 2 (1.2 s)": the line print mode writes when a
// call ends (✗ for an error result or a command that exited non-zero).
std::string outcome_line(const std::string& call_summary, const core::ToolOutcome& outcome);

}  // namespace nib::ui
