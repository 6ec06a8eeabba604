// Tests of the plan's rows above the editor: marks per status, the count done, the window of a
// long plan.

#include "ui/plan_view.hpp"

#include <gtest/gtest.h>

#include "support/styled_rows.hpp"

namespace nib::ui {
namespace {

using core::PlanStatus;
using testing::text_of;

TEST(PlanViewTest, OneRowPerItemMarkedByStatusUnderATitle) {
  EXPECT_TRUE(render_plan({}, 40).empty());
  const core::Plan plan{{"Read the parser", PlanStatus::kCompleted},
                        {"Add tests", PlanStatus::kInProgress},
                        {"Update the README", PlanStatus::kPending}};
  const StyledLines rows = render_plan(plan, 40);
  EXPECT_EQ(text_of(rows),
            "Plan 1/3 done\n  ✔ Read the parser\n  ▶ Add tests\n  ☐ Update the README\n");
  EXPECT_TRUE(rows[2].spans.back().style.bold);
  EXPECT_TRUE(rows[1].spans.back().style.dim);
  EXPECT_EQ(render_plan(plan, 8)[3].plain(), "  ☐ Upd…");
}

TEST(PlanViewTest, ALongPlanShowsAWindowFromTheLastDoneStep) {
  core::Plan plan;
  for (int i = 1; i <= 20; ++i) {
    plan.push_back({"step " + std::to_string(i),
                    i < 10 ? PlanStatus::kCompleted
                           : (i == 10 ? PlanStatus::kInProgress : PlanStatus::kPending)});
  }
  const std::string rows = text_of(render_plan(plan, 40));
  EXPECT_EQ(rows,
            "Plan 9/20 done\n  ↑ 8 more\n  ✔ step 9\n  ▶ step 10\n  ☐ step 11\n  ☐ step 12\n"
            "  ☐ step 13\n  ☐ step 14\n  ☐ step 15\n  ☐ step 16\n  ↓ 4 more\n");
}

TEST(PlanViewTest, FinishedWhenEveryItemIsCompleted) {
  EXPECT_TRUE(plan_finished({{"a", PlanStatus::kCompleted}}));
  EXPECT_FALSE(plan_finished({{"a", PlanStatus::kCompleted}, {"b", PlanStatus::kPending}}));
}

}  // namespace
}  // namespace nib::ui
