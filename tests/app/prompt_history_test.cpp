#include "app/prompt_history.hpp"

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

namespace nib::app {
namespace {

TEST(PromptHistory, KeepsMultiLinePromptsAsOneEntry) {
  testing::TempDir dir;
  const auto file = dir.path() / "nib" / "prompt-history.jsonl";
  EXPECT_TRUE(load_prompt_history(file).empty());
  append_prompt_history(file, "first");
  append_prompt_history(file, "two\nlines");
  EXPECT_EQ(load_prompt_history(file), (std::vector<std::string>{"first", "two\nlines"}));
}

TEST(PromptHistory, AHugePasteIsNotKeptAndCrowdsNothingOut) {
  testing::TempDir dir;
  const auto file = dir.path() / "prompt-history.jsonl";
  append_prompt_history(file, "small");
  append_prompt_history(file, std::string(kPromptHistoryMaxBytes + 1, 'x'));
  EXPECT_EQ(load_prompt_history(file), (std::vector<std::string>{"small"}));
}

TEST(PromptHistory, LivesBesideTheSessions) {
  const auto file = prompt_history_file({.data_home = "/data"});
  ASSERT_TRUE(file);
  EXPECT_EQ(*file, "/data/nib/prompt-history.jsonl");
}

TEST(PromptHistory, AGrownFileIsCutToItsNewestEntries) {
  testing::TempDir dir;
  const auto file = dir.path() / "prompt-history.jsonl";
  const std::string long_prompt(4096, 'x');
  const std::size_t count = kPromptHistoryMaxBytes / long_prompt.size() + 2;
  for (std::size_t i = 0; i < count; ++i) {
    append_prompt_history(file, std::to_string(i) + long_prompt);
  }
  EXPECT_LE(std::filesystem::file_size(file), kPromptHistoryMaxBytes);
  const auto kept = load_prompt_history(file);
  ASSERT_FALSE(kept.empty());
  EXPECT_EQ(kept.back(), std::to_string(count - 1) + long_prompt);
}

}  // namespace
}  // namespace nib::app
