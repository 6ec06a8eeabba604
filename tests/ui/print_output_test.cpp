#include "ui/print_output.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "support/presenting_tools.hpp"

namespace nib::ui {
namespace {

using namespace core;

AssistantMessage assistant_reply(const std::string& text, bool with_call,
                                 StopReason reason = StopReason::kEndTurn) {
  AssistantMessage message;
  message.blocks.push_back(TextBlock{text});
  if (with_call) message.blocks.push_back(ToolCall{"c1", "read", R"({"path":"a.txt"})"});
  message.stop_reason = reason;
  return message;
}

ToolOutcome read_outcome(bool is_error, std::string text) {
  return ToolOutcome{
      ToolResult{"c1", "read", text_content(std::move(text)), is_error, std::nullopt}, std::nullopt,
      std::chrono::milliseconds(12)};
}

// Calls presented as the built-in tools present them.
ToolPresenter presenter() {
  static const auto tools = testing::presenting_tools();
  return ToolPresenter(tools.get());
}

struct Streams {
  std::ostringstream out, err;
};

TEST(PrintOutputTest, TextModeSendsOnlyTheFinalAnswerToStdout) {
  Streams s;
  PrintOutput output(PrintFormat::kText, s.out, s.err, /*live_text=*/false, {}, presenter());
  output.on_event(TextDeltaEvent{"Let me look."});
  output.on_event(MessageEndEvent{assistant_reply("Let me look.", true)});
  output.on_event(ToolStartEvent{"c1", "read", R"({"path":"a.txt"})"});
  output.on_event(ToolEndEvent{read_outcome(false, "alpha")});
  output.on_event(TextDeltaEvent{"It says alpha."});
  output.on_event(MessageEndEvent{assistant_reply("It says alpha.", false)});
  output.on_event(RunEndEvent{});
  EXPECT_EQ(s.out.str(), "It says alpha.\n");
  EXPECT_EQ(s.err.str(), "Let me look.\n✓ read a.txt (12 ms)\n");
}

TEST(PrintOutputTest, FailedReplyIsNotPrintedAsAnAnswer) {
  Streams s;
  PrintOutput output(PrintFormat::kText, s.out, s.err, false, {}, presenter());
  output.on_event(MessageEndEvent{assistant_reply("half an ans", false, StopReason::kError)});
  output.on_event(RunEndEvent{RunStopReason::kError, "stream ended before the reply was complete"});
  EXPECT_EQ(s.out.str(), "");
  EXPECT_NE(s.err.str().find("stream ended"), std::string::npos);
}

TEST(PrintOutputTest, ErrorResultShowsItsFirstLine) {
  Streams s;
  PrintOutput output(PrintFormat::kText, s.out, s.err, false, {}, presenter());
  output.on_event(ToolStartEvent{"c1", "read", R"({"path":"x"})"});
  output.on_event(ToolEndEvent{read_outcome(true, "Error: x not found\nmore")});
  EXPECT_EQ(s.err.str(), "✗ read x: Error: x not found (12 ms)\n");
}

TEST(PrintOutputTest, LiveTextStreamsDeltas) {
  Streams s;
  PrintOutput output(PrintFormat::kText, s.out, s.err, /*live_text=*/true);
  output.on_event(TextDeltaEvent{"Hel"});
  EXPECT_EQ(s.out.str(), "Hel");
  output.on_event(TextDeltaEvent{"lo"});
  output.on_event(MessageEndEvent{assistant_reply("Hello", false)});
  EXPECT_EQ(s.out.str(), "Hello\n");
}

TEST(PrintOutputTest, LiveTextToATerminalLosesEscapeSequencesSplitAcrossDeltas) {
  Streams s;
  PrintOutput output(PrintFormat::kText, s.out, s.err, /*live_text=*/true);
  // Clear screen, a title (OSC) and a colour, each cut between deltas; a bell; a C1 CSI (whose
  // parameters then show as text); a UTF-8 character cut in two.
  const std::vector<std::string> deltas = {"a\x1b",
                                           "[2Jb\x1b]0;ti",
                                           "tle\x07",
                                           "c\x1b[3",
                                           "1md\x07",
                                           "e\xc2\x9b"
                                           "2Jf\xc5",
                                           "\xbc\tg\n"};
  std::string whole;
  for (const std::string& delta : deltas) {
    output.on_event(TextDeltaEvent{delta});
    whole += delta;
  }
  output.on_event(MessageEndEvent{assistant_reply(whole, false)});
  EXPECT_EQ(s.out.str(), "abcde2Jf\xc5\xbc\tg\n");
}

TEST(PrintOutputTest, TextForAPipeKeepsTheReplyAsItIs) {
  Streams s;
  PrintOutput output(PrintFormat::kText, s.out, s.err, /*live_text=*/false, {}, presenter());
  output.on_event(TextDeltaEvent{"\x1b[31mred\x1b[0m"});
  output.on_event(MessageEndEvent{assistant_reply("\x1b[31mred\x1b[0m", false)});
  EXPECT_EQ(s.out.str(), "\x1b[31mred\x1b[0m\n");
}

TEST(PrintOutputTest, AnEmptyReplyIsNotedOnStderr) {
  for (const PrintFormat format : {PrintFormat::kText, PrintFormat::kJson}) {
    Streams s;
    PrintOutput output(format, s.out, s.err, false);
    output.on_event(MessageEndEvent{assistant_reply("", true)});  // calls: not empty
    output.on_event(MessageEndEvent{assistant_reply(" \n", false)});
    EXPECT_EQ(s.err.str().find("empty reply"), s.err.str().rfind("empty reply"));  // once
    EXPECT_NE(s.err.str().find("nib: the model returned an empty reply\n"), std::string::npos)
        << s.err.str();
  }
}

TEST(PrintOutputTest, TwoTextBlocksReadTheSameStreamedOrNot) {
  AssistantMessage message;
  message.blocks = {TextBlock{"First."}, TextBlock{"Second."}};
  Streams held;
  PrintOutput quiet(PrintFormat::kText, held.out, held.err, false);
  quiet.on_event(MessageEndEvent{message});
  Streams live;
  PrintOutput streaming(PrintFormat::kText, live.out, live.err, true);
  // The deltas as the assemblers pass them on: the separator opens the second block's.
  streaming.on_event(TextDeltaEvent{"First."});
  streaming.on_event(TextDeltaEvent{std::string(kTextBlockSeparator) + "Second."});
  streaming.on_event(MessageEndEvent{message});
  EXPECT_EQ(held.out.str(), "First.\n\nSecond.\n");
  EXPECT_EQ(live.out.str(), held.out.str());
}

TEST(PrintOutputTest, ARestartAfterLiveTextIsNoted) {
  Streams s;
  PrintOutput output(PrintFormat::kText, s.out, s.err, /*live_text=*/true);
  output.on_event(TextDeltaEvent{"Abandoned"});
  output.on_event(ReplyRestartEvent{});
  output.on_event(TextDeltaEvent{"Fresh."});
  output.on_event(MessageEndEvent{assistant_reply("Fresh.", false)});
  EXPECT_EQ(s.out.str(), "Abandoned\nFresh.\n");
  EXPECT_EQ(s.err.str(), "nib: the service started its reply over; the text above was abandoned\n");

  Streams quiet;  // without live text nothing was written: the final text is all there is
  PrintOutput held(PrintFormat::kText, quiet.out, quiet.err, false);
  held.on_event(TextDeltaEvent{"Abandoned"});
  held.on_event(ReplyRestartEvent{});
  held.on_event(MessageEndEvent{assistant_reply("Fresh.", false)});
  EXPECT_EQ(quiet.out.str(), "Fresh.\n");
  EXPECT_EQ(quiet.err.str(), "");
}

TEST(PrintOutputTest, StreamJsonWritesOneLinePerEventAndAResult) {
  Streams s;
  PrintOutput output(PrintFormat::kStreamJson, s.out, s.err, false);
  output.on_event(ToolStartEvent{"c1", "read", "{}"});
  output.on_event(MessageEndEvent{assistant_reply("answer", false)});
  output.on_event(RunEndEvent{RunStopReason::kDone, "", Usage{3, 4, 0, 0}, 1});
  std::istringstream lines(s.out.str());
  std::vector<nlohmann::json> parsed;
  for (std::string line; std::getline(lines, line);) parsed.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(parsed.size(), 3u);
  EXPECT_EQ(parsed[0]["type"], "tool_start");
  EXPECT_EQ(parsed[2]["type"], "result");
  EXPECT_EQ(parsed[2]["result"], "answer");
  EXPECT_EQ(parsed[2]["usage"]["output_tokens"], 4);
  EXPECT_TRUE(s.err.str().empty());
}

}  // namespace
}  // namespace nib::ui

namespace nib::ui {
namespace {

core::SubagentEvent nested(core::Event event, int depth = 1) {
  core::SubagentEvent wrapped{
      "t" + std::to_string(depth), "explore-" + std::to_string(depth), "explore",
      std::make_shared<core::NestedEvent>(core::NestedEvent{std::move(event)})};
  if (depth == 1) return wrapped;
  return nested(std::move(wrapped), depth - 1);
}

TEST(PrintOutputTest, ASubagentsCallsAreIndentedLinesAndItsTextIsNotTheAnswer) {
  Streams s;
  PrintOutput output(PrintFormat::kText, s.out, s.err, false, {}, presenter());
  output.on_event(nested(core::RunStartEvent{}));
  output.on_event(nested(core::ToolStartEvent{"c1", "read", R"({"path":"a.txt"})"}));
  output.on_event(nested(core::ToolEndEvent{read_outcome(false, "alpha")}));
  output.on_event(nested(core::ToolStartEvent{"c1", "read", R"({"path":"b.txt"})"}, 2));
  output.on_event(nested(core::ToolEndEvent{read_outcome(false, "beta")}, 2));
  AssistantMessage sub = assistant_reply("sub answer", false);
  sub.usage = {100, 20, 0, 0};
  output.on_event(nested(core::MessageEndEvent{sub}));
  output.on_event(MessageEndEvent{assistant_reply("The answer.", false)});
  RunEndEvent end;
  end.turns = 1;
  end.usage = {1000, 50, 0, 0};
  output.on_event(end);
  EXPECT_EQ(s.out.str(), "The answer.\n");
  EXPECT_EQ(s.err.str(),
            "  explore-1: ✓ read a.txt (12 ms)\n"
            "    explore-2: ✓ read b.txt (12 ms)\n"
            "nib: 1 turn, 1,100 tokens in, 70 out (with 1 subagent)\n");
}

TEST(PrintOutputTest, StreamJsonFlattensASubagentsEventsWithTheirOrigin) {
  Streams s;
  PrintOutput output(PrintFormat::kStreamJson, s.out, s.err, false);
  output.on_event(nested(core::ToolStartEvent{"c9", "read", "{}"}, 2));
  const auto line = nlohmann::json::parse(s.out.str());
  EXPECT_EQ(line["type"], "tool_start");
  EXPECT_EQ(line["id"], "c9");
  EXPECT_EQ(line["parent_tool_call_id"], "t2");
  EXPECT_EQ(line["agent_id"], "explore-2");
  EXPECT_EQ(line["agent_name"], "explore");
  EXPECT_EQ(line["depth"], 2);
}

}  // namespace
}  // namespace nib::ui
