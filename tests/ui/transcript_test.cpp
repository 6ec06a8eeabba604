#include "ui/transcript.hpp"

#include <gtest/gtest.h>

#include "support/presenting_tools.hpp"
#include "support/styled_rows.hpp"
#include "support/text_match.hpp"

namespace nib::ui {
namespace {

using testing::contains;
using testing::text_of;

core::ToolOutcome outcome(const std::string& id, const std::string& text, bool is_error = false,
                          std::optional<std::string> display = std::nullopt) {
  core::ToolOutcome out;
  out.result = {id, "bash", core::text_content(text), is_error, {}};
  out.display = std::move(display);
  out.duration = std::chrono::milliseconds(1500);
  return out;
}

core::AssistantMessage reply(const std::string& text, std::vector<core::ToolCall> calls = {}) {
  core::AssistantMessage message;
  if (!text.empty()) message.blocks.emplace_back(core::TextBlock{text});
  for (auto& call : calls) message.blocks.emplace_back(std::move(call));
  return message;
}

class TranscriptTest : public ::testing::Test {
 protected:
  void feed(const core::Event& event) { transcript_.on_event(event, now_); }
  std::string live() const { return text_of(transcript_.live_rows(60, now_)); }
  std::string commit() { return text_of(transcript_.take_committable(60, 100, now_)); }

  std::unique_ptr<core::ToolRegistry> tools_ = testing::presenting_tools();
  Transcript transcript_{ToolPresenter(tools_.get())};
  UiClock::time_point now_ = UiClock::time_point(std::chrono::hours(1));
};

TEST_F(TranscriptTest, StreamsAReplyAndCommitsItWhenItEnds) {
  transcript_.add_user("explain");
  EXPECT_EQ(commit(), "> explain\n");
  feed(core::TurnStartEvent{1});
  feed(core::TextDeltaEvent{"Some **bold"});
  EXPECT_EQ(live(), "\n● Some **bold\n");  // an unclosed marker stays literal
  EXPECT_EQ(commit(), "");                 // still streaming
  feed(core::TextDeltaEvent{"** text"});
  feed(core::MessageEndEvent{reply("Some **bold** text")});
  EXPECT_EQ(commit(), "\n● Some bold text\n");
  EXPECT_EQ(live(), "");
}

TEST_F(TranscriptTest, ThinkingIsOneDimCollapsedRow) {
  feed(core::TurnStartEvent{1});
  feed(core::ThinkingDeltaEvent{"First I consider the files.\nThen the "});
  feed(core::ThinkingDeltaEvent{"tests."});
  const StyledLines rows = transcript_.live_rows(60, now_);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].plain(), "✻ Thinking: Then the tests.");
  EXPECT_TRUE(rows[0].spans[0].style.dim);
  feed(core::TextDeltaEvent{"Done."});
  EXPECT_TRUE(contains(commit(), "✻ First I consider the files."));
}

TEST_F(TranscriptTest, ToolRowsFollowTheirCallsThroughEveryState) {
  feed(core::TurnStartEvent{1});
  feed(core::ToolCallDeltaEvent{0, "c1", "bash", R"({"comm)"});
  EXPECT_TRUE(contains(live(), "○ bash writing…")) << live();
  feed(core::ToolCallDeltaEvent{0, "", "", R"(and":"make"})"});
  feed(core::ToolCallDeltaEvent{1, "c2", "bash", R"({"command":"ls"})"});
  feed(core::MessageEndEvent{
      reply("", {{"c1", "bash", R"({"command":"make"})"}, {"c2", "bash", R"({"command":"ls"})"}})});
  EXPECT_EQ(live(), "○ bash make queued\n○ bash ls queued\n");

  feed(core::ToolStartEvent{"c1", "bash", R"({"command":"make"})"});
  feed(core::ToolRunningEvent{"c1", "bash"});
  now_ += std::chrono::milliseconds(2300);
  EXPECT_TRUE(contains(live(), "bash make (2.3 s)")) << live();
  EXPECT_TRUE(transcript_.animating());

  // The second finishes first: it is done in place, but waits below the first to be committed.
  feed(core::ToolStartEvent{"c2", "bash", R"({"command":"ls"})"});
  feed(core::ToolRunningEvent{"c2", "bash"});
  feed(core::ToolSettledEvent{outcome("c2", "a.txt\nb.txt\n")});
  EXPECT_TRUE(contains(live(), "✓ bash ls (1.5 s)\n  ⎿ a.txt\n    b.txt\n")) << live();
  EXPECT_EQ(commit(), "");

  feed(core::ToolSettledEvent{outcome("c1", "make: *** no rule\nmore\nlines\nhere\n", true)});
  feed(core::ToolEndEvent{outcome("c1", "make: *** no rule\nmore\nlines\nhere\n", true)});
  feed(core::ToolEndEvent{outcome("c2", "a.txt\nb.txt\n")});
  const std::string committed = commit();
  EXPECT_TRUE(contains(committed,
                       "✗ bash make (1.5 s)\n  ⎿ make: *** no rule\n    more\n"
                       "    lines\n    … +1 lines\n✓ bash ls"))
      << committed;
  EXPECT_FALSE(transcript_.animating());
}

TEST_F(TranscriptTest, ACommandThatExitedNonZeroIsMarkedFailedWithItsStatus) {
  feed(core::ToolStartEvent{"c1", "bash", R"({"command":"make"})"});
  core::ToolOutcome failed = outcome("c1", "make: *** Error 2");
  failed.result.exit_code = 2;
  feed(core::ToolSettledEvent{failed});
  EXPECT_TRUE(contains(live(), "✗ bash make: exit 2 (1.5 s)")) << live();
}

TEST_F(TranscriptTest, ACallIdUsedAgainInALaterTurnGetsARowOfItsOwn) {
  for (int turn = 1; turn <= 2; ++turn) {
    feed(core::TurnStartEvent{turn});
    const std::string arguments = R"({"command":"echo )" + std::to_string(turn) + R"("})";
    feed(core::MessageEndEvent{reply("", {{"call_1", "bash", arguments}})});
    feed(core::ToolStartEvent{"call_1", "bash", arguments});
    feed(core::ToolSettledEvent{outcome("call_1", std::to_string(turn))});
    feed(core::ToolEndEvent{outcome("call_1", std::to_string(turn))});
  }
  EXPECT_EQ(commit(), "✓ bash echo 1 (1.5 s)\n  ⎿ 1\n✓ bash echo 2 (1.5 s)\n  ⎿ 2\n");
}

TEST_F(TranscriptTest, AnEditsDiffIsShownInColour) {
  feed(core::ToolStartEvent{"c1", "edit", R"({"path":"a.py"})"});
  feed(core::ToolSettledEvent{
      outcome("c1", "Edited a.py", false, "--- a.py\n+++ a.py\n@@ -1 +1 @@\n-old\n+new\n")});
  const StyledLines rows = transcript_.live_rows(60, now_);
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[4].plain(), "    -old");
  EXPECT_EQ(rows[4].spans.back().style.color, Color::kRed);
  EXPECT_EQ(rows[5].spans.back().style.color, Color::kGreen);
}

TEST_F(TranscriptTest, CallsThatNeverRanAreShownAsSuch) {
  feed(core::TurnStartEvent{1});
  feed(core::ToolCallDeltaEvent{0, "c1", "write", R"({"path":"big.txt","content":"abc)"});
  feed(core::RunEndEvent{core::RunStopReason::kAborted});
  const std::string rows = commit();
  EXPECT_TRUE(contains(rows, "✗ write")) << rows;
  EXPECT_TRUE(contains(rows, "not run")) << rows;
  EXPECT_TRUE(contains(rows, "Interrupted")) << rows;
}

TEST_F(TranscriptTest, CallsSettledWithoutRunningEndTheirRows) {
  // The events settle_unrun gives a call that never ran: start, settled, end, no running.
  feed(core::MessageEndEvent{reply("", {{"c1", "bash", R"({"command":"x"})"}})});
  feed(core::ToolStartEvent{"c1", "bash", R"({"command":"x"})"});
  auto unrun = outcome("c1", "(interrupted before this tool ran)", true);
  unrun.duration = {};
  feed(core::ToolSettledEvent{unrun});
  feed(core::ToolEndEvent{unrun});
  feed(core::ToolResultsEvent{core::ToolResultMessage{{unrun.result}}});
  EXPECT_TRUE(contains(commit(), "✗ bash x\n  ⎿ (interrupted before this tool ran)"));
}

TEST_F(TranscriptTest, ALongStreamingReplyCommitsWhatTheScreenCannotHold) {
  feed(core::TurnStartEvent{1});
  std::string text;
  for (int i = 0; i < 30; ++i) text += "paragraph " + std::to_string(i) + "\n\n";
  feed(core::TextDeltaEvent{text});
  const std::string committed = text_of(transcript_.take_committable(60, 10, now_));
  EXPECT_TRUE(contains(committed, "● paragraph 0")) << committed;
  EXPECT_EQ(transcript_.live_rows(60, now_).size(), 10u);
  // What was committed is not drawn again, and the whole reply is committed once it ends.
  feed(core::MessageEndEvent{reply(text)});
  const std::string rest = commit();
  EXPECT_FALSE(contains(rest, "paragraph 0\n")) << rest;
  EXPECT_TRUE(contains(rest, "paragraph 29")) << rest;
}

TEST_F(TranscriptTest, ALongReplyStreamedInPiecesLooksAsIfRenderedWhole) {
  std::string text;
  for (int i = 0; i < 150; ++i) {
    text += "Paragraph " + std::to_string(i) + " has a few words that wrap at the width.\n\n";
    if (i % 10 == 3) text += "- a list\n- of two\n\n```sh\nmake\n\nmake test\n```\n\n";
  }
  ASSERT_GT(text.size(), 3 * kStreamingSplitBytes);
  feed(core::TurnStartEvent{1});
  std::string shown;
  for (std::size_t pos = 0; pos < text.size(); pos += 37) {
    feed(core::TextDeltaEvent{text.substr(pos, 37)});
    shown += text_of(transcript_.take_committable(60, 8, now_));
  }
  feed(core::MessageEndEvent{reply(text)});
  shown += commit();

  Transcript whole;
  whole.on_event(core::TextDeltaEvent{text}, now_);
  whole.on_event(core::MessageEndEvent{reply(text)}, now_);
  EXPECT_EQ(shown, text_of(whole.take_committable(60, 100, now_)));
}

TEST_F(TranscriptTest, AToolThatSaysNothingIsShownByNameAndCompactArguments) {
  feed(core::MessageEndEvent{reply("", {{"c1", "mcp__docs__search", R"({"query": "flock"})"}})});
  feed(core::ToolStartEvent{"c1", "mcp__docs__search", R"({"query": "flock"})"});
  auto done = outcome("c1", "three hits\nmore", false);
  feed(core::ToolSettledEvent{done});
  feed(core::ToolEndEvent{done});
  const std::string rows = commit();
  EXPECT_TRUE(contains(rows, "✓ mcp__docs__search {\"query\":\"flock\"}")) << rows;
  EXPECT_TRUE(contains(rows, "three hits")) << rows;
}

TEST_F(TranscriptTest, ARestartedReplyShowsOnlyTheNewAttempt) {
  feed(core::TurnStartEvent{1});
  feed(core::RetryEvent{1, std::chrono::milliseconds(1000), "overloaded"});
  feed(core::ThinkingDeltaEvent{"abandoned thought"});
  feed(core::TextDeltaEvent{"Abandoned text"});
  feed(core::ToolCallDeltaEvent{0, "toolu_old", "write", R"({"path":"a","co)"});
  feed(core::ReplyRestartEvent{});
  feed(core::TextDeltaEvent{"Fresh answer."});
  feed(core::ToolCallDeltaEvent{0, "toolu_new", "read", R"({"path":"b"})"});
  feed(core::MessageEndEvent{reply("Fresh answer.", {{"toolu_new", "read", R"({"path":"b"})"}})});
  const std::string shown = commit() + live();
  EXPECT_FALSE(contains(shown, "bandoned")) << shown;  // nothing was committed: all taken back
  EXPECT_FALSE(contains(shown, "write")) << shown;
  EXPECT_TRUE(contains(shown, "Retrying in 1.0 s")) << shown;  // notices stay
  EXPECT_TRUE(contains(shown, "● Fresh answer.")) << shown;
  EXPECT_TRUE(contains(shown, "read b")) << shown;
}

TEST_F(TranscriptTest, ARestartAfterPartOfTheReplyWasCommittedSaysSo) {
  feed(core::TurnStartEvent{1});
  std::string text;
  for (int i = 0; i < 30; ++i) text += "abandoned " + std::to_string(i) + "\n\n";
  feed(core::TextDeltaEvent{text});
  const std::string committed = text_of(transcript_.take_committable(60, 10, now_));
  ASSERT_TRUE(contains(committed, "abandoned 0")) << committed;
  feed(core::ReplyRestartEvent{});
  feed(core::TextDeltaEvent{"Fresh."});
  feed(core::MessageEndEvent{reply("Fresh.")});
  // The reply whose top is in the scrollback already is finished as it stood, then marked.
  const std::string rest = commit();
  const std::size_t abandoned_end = rest.find("abandoned 29");
  const std::size_t notice = rest.find("The service started its reply over");
  const std::size_t fresh = rest.find("● Fresh.");
  ASSERT_NE(notice, std::string::npos) << rest;
  EXPECT_LT(abandoned_end, notice) << rest;
  EXPECT_LT(notice, fresh) << rest;
  EXPECT_EQ(fresh, rest.rfind("●")) << rest;
}

TEST_F(TranscriptTest, TextOnBothSidesOfAToolCallReadsAsTwoReplies) {
  // The deltas as the assemblers pass them on: the second text block's opens with the
  // separator that core::assistant_text puts between the blocks.
  feed(core::TurnStartEvent{1});
  feed(core::TextDeltaEvent{"Before."});
  feed(core::ToolCallDeltaEvent{0, "c1", "ls", "{}"});
  feed(core::TextDeltaEvent{std::string(core::kTextBlockSeparator) + "After."});
  core::AssistantMessage message = reply("Before.", {{"c1", "ls", "{}"}});
  message.blocks.emplace_back(core::TextBlock{"After."});
  feed(core::MessageEndEvent{message});
  const std::string shown = commit() + live();
  EXPECT_TRUE(contains(shown, "● Before.\n\n")) << shown;
  EXPECT_TRUE(contains(shown, "\n\n● After.\n")) << shown;
  EXPECT_FALSE(contains(shown, "\n\n\n")) << shown;
}

TEST_F(TranscriptTest, AnEmptyReplyIsPointedOut) {
  feed(core::TurnStartEvent{1});
  feed(core::MessageEndEvent{reply("")});
  EXPECT_TRUE(contains(commit(), "The model returned an empty reply.")) << live();
  feed(core::TurnStartEvent{2});
  feed(core::MessageEndEvent{reply("", {{"c1", "ls", "{}"}})});
  EXPECT_FALSE(contains(commit() + live(), "empty reply"));
}

TEST_F(TranscriptTest, SteeringMessagesAndRetriesAppearInOrder) {
  feed(core::RetryEvent{2, std::chrono::milliseconds(4000), "overloaded"});
  feed(core::UserMessageEvent{core::UserMessage{core::text_content("use tabs")}});
  EXPECT_EQ(commit(), "Retrying in 4.0 s (attempt 2): overloaded\n\n> use tabs\n");
}

TEST_F(TranscriptTest, HistoryIsShownFinishedAndRecommittedAfterAResize) {
  transcript_.add_history(
      {core::UserMessage{core::text_content("fix it")},
       reply("Looking.", {{"c1", "read", R"({"path":"a.c"})"}}),
       core::ToolResultMessage{{{"c1", "read", core::text_content("x\n"), false, {}}}},
       reply("Fixed.")});
  const std::string first = commit();
  EXPECT_EQ(first, "> fix it\n\n● Looking.\n\n✓ read a.c\n  ⎿ Read 1 line\n\n● Fixed.\n");
  EXPECT_EQ(commit(), "");
  transcript_.recommit_all();
  EXPECT_EQ(commit(), first);
}

}  // namespace
}  // namespace nib::ui

namespace nib::ui {
namespace {

core::SubagentEvent from_subagent(core::Event event, std::string call = "t1",
                                  std::string agent = "explore-1") {
  return core::SubagentEvent{
      std::move(call), std::move(agent), "explore",
      std::make_shared<core::NestedEvent>(core::NestedEvent{std::move(event)})};
}

TEST_F(TranscriptTest, ATaskRowShowsWhatItsSubagentDoesWhileItRuns) {
  feed(core::TurnStartEvent{1});
  feed(core::MessageEndEvent{reply("", {{"t1", "task", R"({"prompt":"p"})"}})});
  feed(core::ToolStartEvent{"t1", "task", R"({"prompt":"p"})"});
  feed(core::ToolRunningEvent{"t1", "task"});
  feed(from_subagent(core::TurnStartEvent{1}));
  feed(from_subagent(core::ToolStartEvent{"r1", "bash", R"({"command":"make"})"}));
  EXPECT_TRUE(contains(live(), "  ⎿ explore-1: bash make · 0 calls done, 1 turn")) << live();
  feed(from_subagent(core::ToolEndEvent{outcome("r1", "ok")}));
  // A deeper subagent's work shows on the same row.
  feed(from_subagent(core::SubagentEvent{
      "t9", "general-2", "general",
      std::make_shared<core::NestedEvent>(
          core::NestedEvent{core::ToolStartEvent{"g1", "bash", R"({"command":"ls"})"}})}));
  EXPECT_TRUE(contains(live(), "  ⎿ general-2: bash ls · 1 call done, 1 turn")) << live();
  feed(core::ToolSettledEvent{outcome("t1", "the answer\n\n[footer]")});
  EXPECT_FALSE(contains(live(), "general-2")) << "a finished task shows its result" << live();
}

}  // namespace
}  // namespace nib::ui
