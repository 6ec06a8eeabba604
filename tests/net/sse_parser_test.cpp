#include "net/sse_parser.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace nib::net {
namespace {

std::vector<SseEvent> parse_in_pieces(const std::vector<std::string>& pieces) {
  SseParser parser;
  std::vector<SseEvent> events;
  for (const auto& piece : pieces) {
    for (auto& event : parser.feed(piece)) events.push_back(std::move(event));
  }
  for (auto& event : parser.finish()) events.push_back(std::move(event));
  return events;
}

std::vector<SseEvent> parse(const std::string& stream) {
  return parse_in_pieces({stream});
}

void expect_events(const std::vector<SseEvent>& actual, const std::vector<SseEvent>& expected,
                   const std::string& context) {
  ASSERT_EQ(actual.size(), expected.size()) << context;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(actual[i].event, expected[i].event) << context << " event " << i;
    EXPECT_EQ(actual[i].data, expected[i].data) << context << " event " << i;
  }
}

TEST(SseParserTest, ParsesDataEventsWithDefaultName) {
  expect_events(parse("data: {\"a\":1}\n\ndata: [DONE]\n\n"),
                {{"message", "{\"a\":1}"}, {"message", "[DONE]"}}, "lf");
}

TEST(SseParserTest, AcceptsAllThreeLineEndings) {
  const std::vector<SseEvent> expected = {{"message", "one"}, {"message", "two"}};
  expect_events(parse("data: one\r\n\r\ndata: two\r\n\r\n"), expected, "crlf");
  expect_events(parse("data: one\r\rdata: two\r\r"), expected, "cr");
  expect_events(parse("data: one\n\rdata: two\r\n\n"), expected, "mixed");
}

TEST(SseParserTest, JoinsMultiLineDataWithNewlines) {
  expect_events(parse("data: first\ndata: second\ndata:\ndata:  indented\n\n"),
                {{"message", "first\nsecond\n\n indented"}}, "multi-line");
}

TEST(SseParserTest, IgnoresCommentsIdRetryAndUnknownFields) {
  expect_events(parse(": keep-alive\n\nid: 7\nretry: 100\nfoo: bar\ndata: x\n: inside\n\n"),
                {{"message", "x"}}, "comments");
}

TEST(SseParserTest, BlankLineWithoutDataDispatchesNothing) {
  expect_events(parse("event: ping\n\n\n\ndata: y\n\n"), {{"message", "y"}}, "no data");
}

TEST(SseParserTest, KeepsEventNameAndResetsItAfterDispatch) {
  expect_events(parse("event: error\ndata: {}\n\ndata: z\n\n"), {{"error", "{}"}, {"message", "z"}},
                "event name");
}

TEST(SseParserTest, SpaceAfterColonIsOptionalAndOnlyOneIsRemoved) {
  expect_events(parse("data:tight\n\ndata:   three\n\ndata\n\n"),
                {{"message", "tight"}, {"message", "  three"}, {"message", ""}}, "spaces");
}

TEST(SseParserTest, StripsLeadingByteOrderMark) {
  expect_events(parse_in_pieces({"\xEF\xBB",
                                 "\xBF"
                                 "data: a\n\n"}),
                {{"message", "a"}}, "bom");
}

TEST(SseParserTest, FinishDispatchesEventMissingItsFinalBlankLine) {
  expect_events(parse("data: complete\n\ndata: [DONE]"),
                {{"message", "complete"}, {"message", "[DONE]"}}, "unterminated");
}

// Every split position of a stream with CRLF, CR, comments, multi-byte text and multi-line
// data yields the same events as the unsplit stream.
TEST(SseParserTest, SplittingAtAnyBytePositionGivesTheSameEvents) {
  const std::string stream =
      ": hello\r\n\r\n"
      "event: delta\r\ndata: {\"t\":\"gr\xC3\xBC\xC3\x9F \xE2\x82\xAC \xF0\x9F\x98\x80\"}\r\n\r\n"
      "data: line one\rdata: line two\r\r"
      "data: [DONE]\n\n";
  const std::vector<SseEvent> expected = {
      {"delta", "{\"t\":\"gr\xC3\xBC\xC3\x9F \xE2\x82\xAC \xF0\x9F\x98\x80\"}"},
      {"message", "line one\nline two"},
      {"message", "[DONE]"}};
  expect_events(parse(stream), expected, "whole");
  for (std::size_t first = 0; first <= stream.size(); ++first) {
    expect_events(parse_in_pieces({stream.substr(0, first), stream.substr(first)}), expected,
                  "split at " + std::to_string(first));
  }
  std::vector<std::string> bytes;
  for (char c : stream) bytes.emplace_back(1, c);
  expect_events(parse_in_pieces(bytes), expected, "byte by byte");
}

TEST(SseParserTest, FeedReturnsEventsAsSoonAsTheyComplete) {
  SseParser parser;
  EXPECT_TRUE(parser.feed("data: a\n").empty());
  const auto events = parser.feed("\ndata: b");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, "a");
  EXPECT_TRUE(parser.feed("\r").empty());
  const auto rest = parser.feed("\n\r\n");
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].data, "b");
}

TEST(SseParserTest, EventsUpToTheLimitPass) {
  // A line counts whole while it is read (22 bytes, the first here), an event by its data
  // (16 bytes, "\n" between lines included) plus the line being read.
  SseParser parser(22);
  const auto events = parser.feed("data: 0123456789abcdef\n\ndata: 0123456\ndata: 89abcdef\n\n");
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].data, "0123456\n89abcdef");
  EXPECT_FALSE(parser.overflowed());
}

TEST(SseParserTest, AnEndlessLineStopsTheParser) {
  SseParser parser(64);
  const auto before = parser.feed("data: fine\n\ndata: ");
  ASSERT_EQ(before.size(), 1u);  // the event completed before the endless line
  int pieces = 0;
  while (!parser.overflowed() && pieces < 100) {
    EXPECT_TRUE(parser.feed(std::string(10, 'x')).empty());
    ++pieces;
  }
  EXPECT_TRUE(parser.overflowed());
  EXPECT_EQ(pieces, 6);  // the line held 56 bytes; 10 more would pass 64
  // Nothing after it is read any more.
  EXPECT_TRUE(parser.feed("\n\ndata: later\n\n").empty());
  EXPECT_TRUE(parser.finish().empty());
}

TEST(SseParserTest, AnEndlessRunOfDataLinesStopsTheParser) {
  SseParser parser(64);
  const auto events = parser.feed(
      "data: one\n\n"
      "data: 0123456789\ndata: 0123456789\ndata: 0123456789\n"
      "data: 0123456789\ndata: 0123456789\ndata: 0123456789\n");
  ASSERT_EQ(events.size(), 1u);  // the event completed before it
  EXPECT_EQ(events[0].data, "one");
  EXPECT_TRUE(parser.overflowed());
}

}  // namespace
}  // namespace nib::net
