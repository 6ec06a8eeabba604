#pragma once
// The model's plan (todo_write) as rows above the interactive editor: a title with the count
// done, then one row per item, ☐ pending, ▶ in progress (bold), ✔ completed (dim). A long
// plan shows a window of kPlanMaxRows items around the first unfinished one, with the number
// of items above and below it. Pure functions; thread-safe.

#include <cstddef>

#include "core/plan.hpp"
#include "ui/styled_text.hpp"

namespace nib::ui {

// Items shown at once: the plan is a glance at the task, and the transcript needs the room.
inline constexpr std::size_t kPlanMaxRows = 8;

// The rows for `plan`, each cut to `width`; none for an empty plan.
StyledLines render_plan(const core::Plan& plan, std::size_t width);

// Whether every item is completed (a finished plan, which the screen stops showing once the run
// has ended).
bool plan_finished(const core::Plan& plan);

}  // namespace nib::ui
