#include "ui/interactive_view.hpp"

#include <gtest/gtest.h>

#include "support/styled_rows.hpp"
#include "support/text_match.hpp"

namespace nib::ui {
namespace {

using testing::contains;
using testing::text_of;

class InteractiveViewTest : public ::testing::Test {
 protected:
  InteractiveViewTest() {
    state_.editor = &editor_;
    state_.footer.model = "mock-model";
    state_.footer.cwd = "/src";
  }

  // The live frame on a screen tall enough that nothing is committed early.
  LiveFrame frame() { return view_.update(transcript_, state_, 40, 100, now_).live; }

  Transcript transcript_;
  LineEditor editor_;
  ViewState state_;
  InteractiveView view_;
  UiClock::time_point now_ = UiClock::time_point(std::chrono::hours(1));
};

TEST_F(InteractiveViewTest, EditorBetweenRulesThenTheFooterWithTheCursorInTheEditor) {
  editor_.set_text("hi");
  const LiveFrame live = frame();
  ASSERT_EQ(live.rows.size(), 5u);
  EXPECT_EQ(live.rows[0].plain(), "");
  EXPECT_EQ(live.rows[1].width(), 40u);
  EXPECT_EQ(live.rows[2].plain(), "> hi");
  EXPECT_EQ(live.rows[3].width(), 40u);
  EXPECT_EQ(live.rows[4].plain(), "mock-model · /src");
  ASSERT_TRUE(live.cursor);
  EXPECT_EQ(live.cursor->row, 2u);
  EXPECT_EQ(live.cursor->column, 4u);
}

TEST_F(InteractiveViewTest, ATallInputSaysHowManyLinesAreOutOfView) {
  std::string text;
  for (int i = 0; i < 20; ++i) text += "line " + std::to_string(i) + "\n";
  editor_.set_text(text + "last");
  const std::string rows = text_of(frame().rows);
  EXPECT_TRUE(contains(rows, "── ↑ 9 more lines ─")) << rows;
  EXPECT_TRUE(contains(rows, "  last\n────")) << rows;
}

TEST_F(InteractiveViewTest, TheTranscriptsLiveRowsComeFirstAndShiftTheCursor) {
  transcript_.on_event(core::TextDeltaEvent{"streaming"}, now_);
  const LiveFrame live = frame();
  EXPECT_EQ(live.rows[0].plain(), "● streaming");
  EXPECT_EQ(live.cursor->row, 3u);
}

TEST_F(InteractiveViewTest, WorkingShowsASpinnerTheElapsedTimeAndQueuedMessages) {
  state_.working = true;
  state_.working_since = now_ - std::chrono::milliseconds(3200);
  state_.queued = {"also run the tests\nplease"};
  const std::string rows = text_of(frame().rows);
  EXPECT_TRUE(contains(rows, "Working… (3.2 s · esc to interrupt)")) << rows;
  EXPECT_TRUE(contains(rows, "↳ queued: also run the tests\n")) << rows;
}

TEST_F(InteractiveViewTest, ALongBashCallOffersCtrlBAndSaysWhenItMovesAllOfThem) {
  state_.working = true;
  state_.working_since = now_ - std::chrono::milliseconds(3200);
  const auto working_row = [this] {
    const std::string rows = text_of(view_.update(transcript_, state_, 120, 100, now_).live.rows);
    const std::size_t start = rows.find("Working");
    return rows.substr(start, rows.find('\n', start) - start);
  };
  EXPECT_EQ(working_row(), "Working… (3.2 s · esc to interrupt)")
      << "no offer before a call has run for a moment";
  state_.movable_commands = 1;
  EXPECT_EQ(working_row(), "Working… (3.2 s · esc to interrupt · ctrl+b to run in background)");
  state_.movable_commands = 3;
  EXPECT_EQ(working_row(),
            "Working… (3.2 s · esc to interrupt · ctrl+b to run all 3 in background)");
}

TEST_F(InteractiveViewTest, ThePlanIsAboveTheEditorUntilItIsFinishedAndTheRunEnded) {
  editor_.set_text("next");
  state_.plan = {{"Write the parser", core::PlanStatus::kInProgress}};
  std::string rows = text_of(frame().rows);
  EXPECT_TRUE(contains(rows, "Plan 0/1 done\n  ▶ Write the parser\n────")) << rows;
  state_.plan[0].status = core::PlanStatus::kCompleted;
  state_.working = true;
  EXPECT_TRUE(contains(text_of(frame().rows), "✔ Write the parser")) << text_of(frame().rows);
  state_.working = false;
  EXPECT_FALSE(contains(text_of(frame().rows), "Plan")) << text_of(frame().rows);
}

TEST_F(InteractiveViewTest, AnApprovalQuestionReplacesTheEditor) {
  editor_.set_text("draft");
  state_.approval = ApprovalView{"Allow bash rm -rf build?"};
  const LiveFrame live = frame();
  const std::string rows = text_of(live.rows);
  EXPECT_TRUE(contains(rows, "Allow bash rm -rf build?\n  [y]es  [n]o  [a]lways")) << rows;
  EXPECT_FALSE(contains(rows, "draft")) << rows;
  EXPECT_FALSE(live.cursor);
}

TEST_F(InteractiveViewTest, MenusShowAWindowAroundTheSelection) {
  state_.picker = PickerView{"Resume a session", {}, 10};
  for (int i = 0; i < 12; ++i) state_.picker->entries.push_back("session " + std::to_string(i));
  const std::string rows = text_of(frame().rows);
  EXPECT_TRUE(contains(rows, "› session 10\n")) << rows;
  EXPECT_FALSE(contains(rows, "session 1\n")) << rows;

  state_.picker.reset();
  state_.completions = {{"/model ", "/model [id]", "switch"}, {"/clear", "/clear", "new"}};
  state_.completion_selected = 1;
  const std::string menu = text_of(frame().rows);
  EXPECT_TRUE(contains(menu, "  /model [id]  switch\n› /clear       new\n")) << menu;
}

}  // namespace
}  // namespace nib::ui
