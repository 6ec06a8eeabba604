#include "core/history_edit.hpp"

#include <gtest/gtest.h>

namespace nib::core {
namespace {

std::vector<Message> numbered(int count) {
  std::vector<Message> history;
  for (int i = 0; i < count; ++i)
    history.emplace_back(UserMessage{text_content(std::to_string(i))});
  return history;
}

std::string text_at(const std::vector<Message>& history, std::size_t index) {
  return content_text(std::get<UserMessage>(history.at(index)).content);
}

TEST(HistoryEditTest, ACompactionReplacesTheOlderPartAndSaysWhatWasKept) {
  auto history = numbered(5);
  const auto event =
      apply_compaction(history, {3, UserMessage{text_content("summary of 0-2")}, "summary of 0-2"});
  ASSERT_EQ(history.size(), 3u);
  EXPECT_EQ(text_at(history, 0), "summary of 0-2");
  EXPECT_EQ(text_at(history, 1), "3");
  EXPECT_EQ(text_at(history, 2), "4");
  EXPECT_EQ(event.summary, "summary of 0-2");
  EXPECT_EQ(event.kept, 2u);
}

TEST(HistoryEditTest, ACutPastTheEndReplacesEverything) {
  auto history = numbered(2);
  const auto event = apply_compaction(history, {9, UserMessage{text_content("all")}, "all"});
  ASSERT_EQ(history.size(), 1u);
  EXPECT_EQ(event.kept, 0u);
}

}  // namespace
}  // namespace nib::core
