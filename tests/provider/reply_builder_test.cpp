#include "provider/reply_builder.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "support/text_match.hpp"

namespace nib::provider {
namespace {

using testing::contains;

class ReplyBuilderTest : public ::testing::Test {
 protected:
  explicit ReplyBuilderTest(std::size_t max_bytes = kMaxReplyBytes)
      : reply_([this](const core::Event& event) { events_.push_back(event); }, max_bytes) {}

  std::string text_deltas() const {
    std::string out;
    for (const auto& event : events_) {
      if (const auto* text = std::get_if<core::TextDeltaEvent>(&event)) out += text->text;
    }
    return out;
  }

  std::vector<core::Event> events_;
  ReplyBuilder reply_;
};

TEST_F(ReplyBuilderTest, TextBlocksAreSetApartInTheDeltasAsInTheMessage) {
  const std::size_t first = reply_.start_text();
  reply_.append_text(first, "Commentary.");
  const std::size_t thinking = reply_.start_thinking();
  reply_.append_thinking(thinking, "hmm");
  const std::size_t empty = reply_.start_text();  // never receives text: no separator for it
  const std::size_t second = reply_.start_text();
  reply_.append_text(second, "The ");
  reply_.append_text(second, "answer.");
  reply_.append_text(empty, "");

  core::AssistantMessage message;
  message.blocks = reply_.take_blocks();
  ASSERT_EQ(message.blocks.size(), 3u);  // the empty text block is dropped
  EXPECT_EQ(core::assistant_text(message), "Commentary.\n\nThe answer.");
  EXPECT_EQ(text_deltas(), core::assistant_text(message));
}

TEST_F(ReplyBuilderTest, ToolCallsAnnounceThemselvesAndStreamTheirArguments) {
  EXPECT_EQ(reply_.start_call("call_1", "read", R"({"pa)"), 0u);
  EXPECT_EQ(reply_.start_call("", "", ""), 1u);
  reply_.append_arguments(0, R"(th":"a"})");
  reply_.name_call(1, "call_2", "ls");
  reply_.name_call(1, "ignored", "ignored");  // only what is missing is filled in
  ASSERT_EQ(events_.size(), 4u);
  const auto& first = std::get<core::ToolCallDeltaEvent>(events_[0]);
  EXPECT_EQ(first.id, "call_1");
  EXPECT_EQ(first.name, "read");
  EXPECT_EQ(first.fragment, R"({"pa)");
  const auto& named = std::get<core::ToolCallDeltaEvent>(events_[3]);  // the late name
  EXPECT_EQ(named.index, 1);
  EXPECT_EQ(named.id, "call_2");
  EXPECT_EQ(named.name, "ls");
  EXPECT_EQ(named.fragment, "");
  const auto blocks = reply_.take_blocks();
  EXPECT_EQ(std::get<core::ToolCall>(blocks[0]).arguments, R"({"path":"a"})");
  EXPECT_EQ(std::get<core::ToolCall>(blocks[1]).id, "call_2");
  EXPECT_EQ(std::get<core::ToolCall>(blocks[1]).arguments, "{}");  // complete_tool_calls
}

TEST_F(ReplyBuilderTest, SettlingPassesOnAMissingTailOrReplacesADisagreement) {
  const std::size_t block = reply_.start_text();
  reply_.append_text(block, "Hel");
  reply_.settle_text(block, "Hello");  // continues the deltas: the tail is passed on
  EXPECT_EQ(text_deltas(), "Hello");
  reply_.settle_text(block, "Howdy");  // differs: the final text wins, nothing to pass on
  reply_.settle_text(block, "");       // says nothing: changes nothing
  EXPECT_EQ(std::get<core::TextBlock>(reply_.block(block)).text, "Howdy");
  EXPECT_EQ(text_deltas(), "Hello");

  reply_.start_call("c", "f", "");
  reply_.append_arguments(0, "{\"a\"");
  reply_.settle_arguments(0, "{\"a\":1}");
  EXPECT_EQ(reply_.call(0).arguments, "{\"a\":1}");
  reply_.settle_arguments(0, "{\"b\":2}");
  EXPECT_EQ(reply_.call(0).arguments, "{\"b\":2}");
}

TEST_F(ReplyBuilderTest, RestartDropsEverythingAndTellsSinksOnlyWhenTheySawSomething) {
  reply_.restart();  // nothing was passed on yet
  EXPECT_TRUE(events_.empty());
  const std::size_t block = reply_.start_text();
  reply_.append_text(block, "abandoned");
  reply_.restart();
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<core::ReplyRestartEvent>(events_[1]));
  EXPECT_EQ(reply_.size(), 0u);
  // The first text after a restart is the first again: no separator.
  reply_.append_text(reply_.start_text(), "fresh");
  EXPECT_EQ(std::get<core::TextDeltaEvent>(events_[2]).text, "fresh");
}

// Room for two blocks and 16 bytes of content.
class SmallReplyBuilderTest : public ReplyBuilderTest {
 protected:
  SmallReplyBuilderTest() : ReplyBuilderTest(16 + 2 * kBlockCostBytes) {}
};

TEST_F(SmallReplyBuilderTest, AdditionsPastTheLimitAreDroppedAndFlagged) {
  const std::size_t block = reply_.start_text();
  reply_.append_text(block, "0123456789");
  reply_.start_call("id", "ls", "{}");  // 6 bytes: 16 in all, still within
  EXPECT_FALSE(reply_.over_limit());
  reply_.append_text(block, "x");
  EXPECT_TRUE(reply_.over_limit());
  reply_.append_arguments(0, "");  // nothing added, and nothing accepted any more either
  reply_.append_thinking(reply_.start_thinking(), "y");
  EXPECT_EQ(std::get<core::TextBlock>(reply_.block(block)).text, "0123456789");
  EXPECT_TRUE(contains(reply_.limit_error(), "528 bytes")) << reply_.limit_error();
}

// What a reply holds counts as it is written out: escaped characters take their escapes' room.
TEST_F(SmallReplyBuilderTest, EscapedCharactersCountAsTheirEscapes) {
  const std::size_t block = reply_.start_text();
  reply_.start_text();
  reply_.append_text(block, "\x01\x02");  // 12 bytes written out
  reply_.append_text(block, "\"\\");      // 4 more: 16, still within
  EXPECT_FALSE(reply_.over_limit());
  reply_.append_text(block, "\n");
  EXPECT_TRUE(reply_.over_limit());
}

// A flood of empty blocks is a reply growing too, and stops at the limit like text.
TEST_F(ReplyBuilderTest, EveryBlockCountsAgainstTheLimit) {
  ReplyBuilder small([](const core::Event&) {}, 10 * kBlockCostBytes);
  for (int i = 0; i < 10; ++i) small.start_text();
  EXPECT_FALSE(small.over_limit());
  small.start_call("", "", "");
  EXPECT_TRUE(small.over_limit());
}

// A reply taken past the limit keeps little of what arrived: it is broken or hostile, and the
// rest is freed before anything copies the reply. Its calls never run and hold nothing.
TEST_F(ReplyBuilderTest, AReplyPastTheLimitIsCutWhenTaken) {
  ReplyBuilder small([](const core::Event&) {}, 3 * kBlockCostBytes + 2 * kKeptPastLimitBytes);
  const std::size_t text = small.start_text();
  const std::size_t thinking = small.start_thinking("sig");
  small.start_call("id", "write", "");
  const std::string piece(kKeptPastLimitBytes / 2, 'a');
  while (!small.over_limit()) {
    small.append_text(text, piece);
    small.append_thinking(thinking, piece);
    small.append_arguments(0, piece);
  }
  const auto blocks = small.take_blocks();
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_LE(std::get<core::TextBlock>(blocks[0]).text.size(), kKeptPastLimitBytes);
  EXPECT_LE(std::get<core::ThinkingBlock>(blocks[1]).text.size(), kKeptPastLimitBytes);
  EXPECT_EQ(std::get<core::ThinkingBlock>(blocks[1]).signature, "");
  EXPECT_EQ(std::get<core::ToolCall>(blocks[2]).arguments, "{}");
}

TEST_F(SmallReplyBuilderTest, ReplacementsCountWhatTheyReplace) {
  const std::size_t block = reply_.start_text();
  reply_.start_text();
  reply_.append_text(block, "0123456789");
  reply_.settle_text(block, "abcdefghijklmnop");  // 16 bytes in place of 10: fits
  EXPECT_FALSE(reply_.over_limit());
  reply_.settle_text(block, "abcdefghijklmnopq");  // 17 bytes: refused, the old text stays
  EXPECT_TRUE(reply_.over_limit());
  EXPECT_EQ(std::get<core::TextBlock>(reply_.block(block)).text, "abcdefghijklmnop");
}

}  // namespace
}  // namespace nib::provider
