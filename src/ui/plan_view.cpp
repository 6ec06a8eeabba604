#include "ui/plan_view.hpp"

#include <algorithm>
#include <string>

namespace nib::ui {
namespace {

constexpr Style kDim{.dim = true};

StyledLine item_row(const core::PlanItem& item) {
  switch (item.status) {
    case core::PlanStatus::kPending:
      return styled("  ☐ " + item.content);
    case core::PlanStatus::kInProgress:
      return styled("  ▶ ", {.color = Color::kYellow})
          .add(item.content, {.color = Color::kYellow, .bold = true});
    case core::PlanStatus::kCompleted:
      break;
  }
  return styled("  ✔ ", {.color = Color::kGreen}).add(item.content, kDim);
}

}  // namespace

bool plan_finished(const core::Plan& plan) {
  return std::all_of(plan.begin(), plan.end(), [](const core::PlanItem& item) {
    return item.status == core::PlanStatus::kCompleted;
  });
}

StyledLines render_plan(const core::Plan& plan, std::size_t width) {
  StyledLines rows;
  if (plan.empty()) return rows;
  const auto done = std::count_if(plan.begin(), plan.end(), [](const core::PlanItem& item) {
    return item.status == core::PlanStatus::kCompleted;
  });
  rows.push_back(
      truncate(styled("Plan ", {.bold = true})
                   .add(std::to_string(done) + "/" + std::to_string(plan.size()) + " done", kDim),
               width));
  // The window starts one item before the first unfinished one, so the last step done shows.
  const auto unfinished = std::find_if(plan.begin(), plan.end(), [](const core::PlanItem& item) {
    return item.status != core::PlanStatus::kCompleted;
  });
  const std::size_t first_unfinished = static_cast<std::size_t>(unfinished - plan.begin());
  std::size_t first = first_unfinished > 0 ? first_unfinished - 1 : 0;
  if (plan.size() <= kPlanMaxRows) {
    first = 0;
  } else {
    first = std::min(first, plan.size() - kPlanMaxRows);
  }
  const std::size_t last = std::min(plan.size(), first + kPlanMaxRows);
  if (first > 0) rows.push_back(styled("  ↑ " + std::to_string(first) + " more", kDim));
  for (std::size_t i = first; i < last; ++i) rows.push_back(truncate(item_row(plan[i]), width));
  if (last < plan.size()) {
    rows.push_back(styled("  ↓ " + std::to_string(plan.size() - last) + " more", kDim));
  }
  return rows;
}

}  // namespace nib::ui
