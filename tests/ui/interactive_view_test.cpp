#include "ui/interactive_view.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "support/styled_rows.hpp"
#include "support/text_match.hpp"
#include "support/virtual_screen.hpp"

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

TEST_F(InteractiveViewTest, APickersDetailsAreBetweenItsTitleAndItsEntries) {
  state_.picker = PickerView{"Start the MCP server repo?",
                             {"Yes", "No"},
                             0,
                             {"stdio: python3 server.py", "from /p/.mcp.json"}};
  const LiveFrame live = frame();
  const std::string rows = text_of(live.rows);
  EXPECT_TRUE(contains(rows,
                       "Start the MCP server repo?\n  stdio: python3 server.py\n  from "
                       "/p/.mcp.json\n› Yes\n  No\n"))
      << rows;
  EXPECT_FALSE(live.cursor);
}

ApprovalView edit_question(std::size_t changed_lines, std::size_t omitted_by_tool = 0) {
  std::string diff = "--- app.py\n+++ app.py\n@@ -1 +1 @@\n";
  for (std::size_t i = 0; i < changed_lines; ++i) diff += "-old " + std::to_string(i) + "\n";
  for (std::size_t i = 0; i < changed_lines; ++i) diff += "+new " + std::to_string(i) + "\n";
  ApprovalView approval{"Allow edit app.py?"};
  approval.preview = core::ChangePreview{"", diff, omitted_by_tool, ""};
  return approval;
}

TEST_F(InteractiveViewTest, AnApprovalShowsTheChangeAsTheTranscriptShowsADiff) {
  state_.approval = edit_question(1);
  const LiveFrame live = frame();
  const std::string rows = text_of(live.rows);
  EXPECT_TRUE(contains(rows,
                       "Allow edit app.py?\n"
                       "  ⎿ --- app.py\n"
                       "    +++ app.py\n"
                       "    @@ -1 +1 @@\n"
                       "    -old 0\n"
                       "    +new 0\n"
                       "  [y]es  [n]o  [a]lways"))
      << rows;
  const auto row_of = [&](const std::string& text) {
    return *std::find_if(live.rows.begin(), live.rows.end(),
                         [&](const StyledLine& row) { return row.plain() == text; });
  };
  EXPECT_EQ(row_of("    -old 0").spans.back().style.color, Color::kRed);
  EXPECT_EQ(row_of("    +new 0").spans.back().style.color, Color::kGreen);
  EXPECT_EQ(row_of("    @@ -1 +1 @@").spans.back().style.color, Color::kCyan);
}

TEST_F(InteractiveViewTest, AnApprovalsDiffIsCutToTheScreenCountingWhatTheToolLeftOut) {
  state_.approval = edit_question(20, /*omitted_by_tool=*/7);
  // 30 rows: the rest of the frame takes 6 (blank, rule, question, keys, rule, footer) and one
  // stays free, so the diff gets 23 rows: 22 of its 43 lines and a count of the other 21 and
  // the tool's 7.
  const LiveFrame live = view_.update(transcript_, state_, 40, 30, now_).live;
  EXPECT_EQ(live.rows.size(), 29u);
  const std::string rows = text_of(live.rows);
  EXPECT_TRUE(contains(rows, "    -old 18\n    … +28 lines\n  [y]es")) << rows;

  // A tiny screen still shows the start of the change.
  const LiveFrame tiny = view_.update(transcript_, state_, 40, 8, now_).live;
  EXPECT_TRUE(contains(text_of(tiny.rows), "    -old 1\n    … +45 lines\n")) << text_of(tiny.rows);
}

TEST_F(InteractiveViewTest, AnApprovalForACallThatWouldFailSaysWhyInsteadOfADiff) {
  state_.approval = ApprovalView{"Allow edit app.py?"};
  state_.approval->preview =
      core::ChangePreview{.failure = "Could not edit app.py: oldText was not found."};
  const LiveFrame live = frame();
  const std::string rows = text_of(live.rows);
  EXPECT_TRUE(
      contains(rows, "Allow edit app.py?\n  This call would fail: Could not edit\n  app.py: "))
      << rows;
  EXPECT_FALSE(contains(rows, "⎿")) << rows;

  // A long reason (the region most like the text looked for) is cut to the screen.
  std::string region;
  for (int i = 1; i <= 30; ++i) region += "\n" + std::to_string(i) + "\tline";
  state_.approval->preview->failure = "oldText was not found. The most similar part:" + region;
  const std::string cut = text_of(view_.update(transcript_, state_, 40, 20, now_).live.rows);
  // 20 rows: the rest of the frame takes 6, the reason's first line 2, and one row stays free,
  // leaving 11: 10 lines and a count of the other 20.
  EXPECT_TRUE(contains(cut, "  10  line\n  … 20 more lines\n  [y]es")) << cut;
}

TEST_F(InteractiveViewTest, OnAScreenTheApprovalsDiffIsColouredAndItsKeysStayInView) {
  testing::VirtualScreen screen(40, 14);
  InlineRenderer renderer([&screen](std::string_view bytes) { screen.feed(bytes); }, 40, 14);
  state_.approval = edit_question(10);
  const ScreenUpdate update = view_.update(transcript_, state_, 40, 14, now_);
  renderer.update(update.committed, update.live);
  const std::vector<std::string> rows = screen.rows();
  const auto at = [&](const std::string& text) {
    return static_cast<int>(std::find(rows.begin(), rows.end(), text) - rows.begin());
  };
  ASSERT_LT(at("    -old 0"), 14) << screen.text();
  EXPECT_EQ(screen.style_at(at("    -old 0"), 5).color, 31);
  EXPECT_EQ(screen.style_at(at("    -old 1"), 5).color, 31);
  EXPECT_LT(at("    … +17 lines"), 14) << screen.text();
  EXPECT_TRUE(contains(screen.text(), "[y]es  [n]o  [a]lways")) << screen.text();
  EXPECT_TRUE(contains(screen.text(), "mock-model · /src")) << screen.text();
  EXPECT_TRUE(screen.unknown_sequences().empty());
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
