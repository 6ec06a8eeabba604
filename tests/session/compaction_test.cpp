#include "session/compaction.hpp"

#include <gtest/gtest.h>

#include "support/scripted_provider.hpp"
#include "util/utf8.hpp"

namespace nib::session {
namespace {

using testing::ScriptedProvider;
using testing::text_reply;
using testing::tool_reply;

core::Message user(std::size_t bytes) {
  return core::UserMessage{core::text_content(std::string(bytes, 'u'))};
}
core::Message results(std::size_t bytes) {
  return core::ToolResultMessage{
      {core::ToolResult{"c1", "read", core::text_content(std::string(bytes, 'r'))}}};
}
core::Message call() {
  return tool_reply({{"c1", "read", R"({"path":"a"})"}});
}
core::Message answer(std::size_t bytes) {
  return text_reply(std::string(bytes, 'a'));
}

TEST(CompactionTest, EstimatesFromBytesAndImages) {
  EXPECT_EQ(estimate_tokens(user(400)), 100);
  EXPECT_EQ(estimate_tokens(results(800)), 200);
  const core::Message image = core::UserMessage{{core::ImageBlock{"AAAA", "image/png"}}};
  EXPECT_EQ(estimate_tokens(image), kTokensPerImage);
}

TEST(CompactionTest, ContextUsesTheServicesCountThenEstimatesWhatFollows) {
  std::vector<core::Message> history{user(4000), answer(40)};
  auto& reply = std::get<core::AssistantMessage>(history.back());
  reply.usage = {1000, 50, 3000, 0};
  history.push_back(user(400));
  EXPECT_EQ(estimate_context_tokens(history), 1000 + 50 + 3000 + 100);
  EXPECT_EQ(estimate_context_tokens({user(400), user(400)}), 200);
}

TEST(CompactionTest, CompactsPastTheWindowMinusTheReserve) {
  const CompactionSettings settings{true, 1000, 500};
  EXPECT_FALSE(should_compact(9000, 10000, settings));
  EXPECT_TRUE(should_compact(9001, 10000, settings));
  EXPECT_FALSE(should_compact(1'000'000, 0, settings)) << "an unknown window never compacts";
  EXPECT_FALSE(should_compact(9001, 10000, CompactionSettings{false, 1000, 500}));
}

TEST(CompactionTest, CutKeepsRecentMessagesAndNeverSplitsACallFromItsResult) {
  // 0 user, 1 call, 2 results (big), 3 answer, 4 user, 5 call, 6 results, 7 answer
  const std::vector<core::Message> history{user(400), call(), results(4000), answer(40),
                                           user(400), call(), results(400),  answer(40)};
  // Budget for the last three messages alone: the start would be the results at 6, so it moves
  // back to the call at 5.
  EXPECT_EQ(find_cut_point(history, 120), 5u);
  EXPECT_EQ(find_cut_point(history, 10'000), 0u) << "everything fits: nothing to summarise";
  EXPECT_EQ(find_cut_point(history, 1), 7u) << "the last message is always kept";
  EXPECT_EQ(find_cut_point({}, 100), 0u);
}

TEST(CompactionTest, SummaryTextShowsCallsAndCutsLongResults) {
  const std::string text = serialize_for_summary({user(10), call(), results(5000), answer(5)});
  EXPECT_NE(text.find("[user]\nuuuuuuuuuu"), std::string::npos);
  EXPECT_NE(text.find(R"((calls read {"path":"a"}))"), std::string::npos);
  EXPECT_NE(text.find("[result of read]"), std::string::npos);
  EXPECT_NE(text.find(std::string(2000, 'r') + "… [3,000 more bytes]\n"), std::string::npos);
  EXPECT_LT(text.size(), 2600u);
}

TEST(CompactionTest, ACutResultEndsOnAWholeCharacter) {
  // Byte 2,000 is the second byte of "ż": the cut keeps the 1,999 bytes before it.
  const std::string long_result = std::string(1999, 'r') + "żółw" + std::string(100, 'r');
  const std::string text = serialize_for_summary({core::ToolResultMessage{
      {core::ToolResult{"c1", "read", core::text_content(long_result)}}}});
  EXPECT_NE(text.find("[result of read]\n" + std::string(1999, 'r') + "… [107 more bytes]\n"),
            std::string::npos)
      << text;
  EXPECT_TRUE(util::is_valid_utf8(text));
}

TEST(CompactionTest, SummarizeAsksTheModelWithThePreviousSummaryAndInstructions) {
  ScriptedProvider provider;
  provider.push(text_reply("Goal: fix the build. Done: read a."));
  const auto outcome =
      summarize(provider, {"m"},
                {summary_message("Earlier: set up the repo."), user(10), call(), results(10)},
                "focus on the build", {});
  ASSERT_TRUE(outcome.ok()) << outcome.error();
  EXPECT_EQ(outcome.value(), "Goal: fix the build. Done: read a.");
  const auto requests = provider.requests();
  ASSERT_EQ(requests.size(), 1u);
  const std::string prompt =
      core::content_text(std::get<core::UserMessage>(requests[0].at(0)).content);
  EXPECT_NE(prompt.find("Earlier: set up the repo."), std::string::npos);
  EXPECT_NE(prompt.find("focus on the build"), std::string::npos);
  EXPECT_NE(prompt.find("<conversation>"), std::string::npos);
}

TEST(CompactionTest, AFailedOrEmptySummaryIsAnError) {
  ScriptedProvider provider;
  core::AssistantMessage failed;
  failed.stop_reason = core::StopReason::kError;
  failed.error_message = "HTTP 500";
  provider.push(failed);
  provider.push(text_reply("  \n"));
  auto outcome = summarize(provider, {"m"}, {user(10)}, "", {});
  EXPECT_FALSE(outcome.ok());
  EXPECT_NE(outcome.error().find("HTTP 500"), std::string::npos);
  outcome = summarize(provider, {"m"}, {user(10)}, "", {});
  EXPECT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.error(), "the model returned an empty summary");
}

}  // namespace
}  // namespace nib::session
