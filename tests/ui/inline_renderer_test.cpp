#include "ui/inline_renderer.hpp"

#include <gtest/gtest.h>

#include "support/virtual_screen.hpp"

namespace nib::ui {
namespace {

using testing::VirtualScreen;

class InlineRendererTest : public ::testing::Test {
 protected:
  InlineRendererTest()
      : screen_(40, 10),
        renderer_([this](std::string_view bytes) { screen_.feed(bytes); }, 40, 10) {}

  static StyledLines lines(std::initializer_list<const char*> texts) {
    StyledLines out;
    for (const char* text : texts) out.push_back(styled(text));
    return out;
  }

  void draw(std::initializer_list<const char*> live,
            std::initializer_list<const char*> committed = {},
            std::optional<CursorPosition> cursor = std::nullopt) {
    renderer_.update(lines(committed), LiveFrame{lines(live), cursor});
  }

  VirtualScreen screen_;
  InlineRenderer renderer_;
};

TEST_F(InlineRendererTest, DrawsTheLiveRowsFromTheCursorLine) {
  screen_.feed("$ nib\r\n");
  draw({"one", "two"}, {}, CursorPosition{1, 2});
  EXPECT_EQ(screen_.all_rows(), (std::vector<std::string>{"$ nib", "one", "two"}));
  EXPECT_EQ(screen_.cursor_row(), 2);
  EXPECT_EQ(screen_.cursor_column(), 2);
  EXPECT_TRUE(screen_.cursor_visible());
  EXPECT_TRUE(screen_.unknown_sequences().empty());
}

TEST_F(InlineRendererTest, AnUnchangedFrameWritesNoRows) {
  draw({"alpha", "beta"});
  screen_.clear_counters();
  draw({"alpha", "beta"});
  EXPECT_LT(screen_.bytes_fed(), 30u);  // only the synchronized-update and cursor codes
  EXPECT_EQ(screen_.all_rows(), (std::vector<std::string>{"alpha", "beta"}));
}

TEST_F(InlineRendererTest, RewritesFromTheFirstChangedRowOnly) {
  draw({"a row that stays the same", "a row that stays too", "old"});
  screen_.clear_counters();
  draw({"a row that stays the same", "a row that stays too", "new text"});
  EXPECT_EQ(screen_.all_rows(), (std::vector<std::string>{"a row that stays the same",
                                                          "a row that stays too", "new text"}));
  EXPECT_LT(screen_.bytes_fed(), 45u);
}

TEST_F(InlineRendererTest, ShorterFramesEraseWhatWasBelow) {
  draw({"1", "2", "3", "4"});
  draw({"1", "2"});
  EXPECT_EQ(screen_.all_rows(), (std::vector<std::string>{"1", "2"}));
  draw({});
  EXPECT_TRUE(screen_.all_rows().empty());
  draw({"back"});
  EXPECT_EQ(screen_.all_rows(), (std::vector<std::string>{"back"}));
}

TEST_F(InlineRendererTest, GrowingRowsAreAppendedBelow) {
  draw({"1"});
  draw({"1", "2", "3"});
  draw({"1", "2", "3", "4"});
  EXPECT_EQ(screen_.all_rows(), (std::vector<std::string>{"1", "2", "3", "4"}));
}

TEST_F(InlineRendererTest, CommittedRowsReachTheScrollbackOnceInOrder) {
  for (int i = 0; i < 30; ++i) {
    const std::string row = "committed " + std::to_string(i);
    renderer_.update({styled(row)}, LiveFrame{lines({"editor", "footer"}), CursorPosition{0, 0}});
  }
  std::vector<std::string> expected;
  for (int i = 0; i < 30; ++i) expected.push_back("committed " + std::to_string(i));
  expected.push_back("editor");
  expected.push_back("footer");
  EXPECT_EQ(screen_.all_rows(), expected);
  EXPECT_EQ(screen_.rows().back(), "footer");
}

TEST_F(InlineRendererTest, ALiveFrameTallerThanTheScreenShowsItsLastRows) {
  StyledLines tall;
  for (int i = 0; i < 15; ++i) tall.push_back(styled("row " + std::to_string(i)));
  renderer_.update({}, LiveFrame{tall, CursorPosition{14, 0}});
  EXPECT_EQ(screen_.rows().front(), "row 5");
  EXPECT_EQ(screen_.rows().back(), "row 14");
  EXPECT_EQ(screen_.cursor_row(), 9);
}

TEST_F(InlineRendererTest, RowsStopOneColumnShortOfTheEdge) {
  renderer_.update({}, LiveFrame{{styled(std::string(60, 'x'))}, std::nullopt});
  ASSERT_EQ(screen_.all_rows().size(), 1u);
  EXPECT_EQ(screen_.all_rows()[0], std::string(38, 'x') + "…");
  EXPECT_FALSE(screen_.cursor_visible());
}

TEST_F(InlineRendererTest, ResizeClearsTheScreenForAFullRedraw) {
  draw({"live"}, {"old history"});
  screen_.resize(30, 8);
  renderer_.resize(30, 8);
  EXPECT_EQ(screen_.full_clears(), 2);  // the screen and the scrollback
  draw({"live"}, {"history, reflowed"});
  EXPECT_EQ(screen_.all_rows(), (std::vector<std::string>{"history, reflowed", "live"}));
}

TEST_F(InlineRendererTest, StylesReachTheScreen) {
  StyledLine row;
  row.add("ok ", {.color = Color::kGreen, .bold = true}).add("plain");
  renderer_.update({}, LiveFrame{{row}, std::nullopt});
  EXPECT_EQ(screen_.style_at(0, 0).color, 32);
  EXPECT_TRUE(screen_.style_at(0, 0).bold);
  EXPECT_EQ(screen_.style_at(0, 3), testing::CellStyle{});
}

TEST_F(InlineRendererTest, FinishLeavesTheFrameAndMovesBelowIt) {
  draw({"transcript", "last"}, {}, CursorPosition{0, 0});
  renderer_.finish();
  EXPECT_EQ(screen_.cursor_row(), 2);
  EXPECT_EQ(screen_.cursor_column(), 0);
  EXPECT_TRUE(screen_.cursor_visible());
}

}  // namespace
}  // namespace nib::ui
