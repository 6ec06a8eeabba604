#include "process/excerpt_collector.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tools/fixture_logs.hpp"

namespace nib::process {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::IsEmpty;

// "12:text" for a failure line, "12-text" for context: one string per kept line.
std::vector<std::string> shown(const Excerpt& excerpt) {
  std::vector<std::string> lines;
  for (const KeptLine& line : excerpt) {
    lines.push_back(std::to_string(line.number) + (line.failure ? ":" : "-") + line.text);
  }
  return lines;
}

std::vector<std::uint64_t> numbers(const Excerpt& excerpt) {
  std::vector<std::uint64_t> result;
  for (const KeptLine& line : excerpt) result.push_back(line.number);
  return result;
}

ExcerptCollector collect(const std::string& text, ExcerptLimits limits = {}) {
  ExcerptCollector collector(limits);
  collector.append(text);
  collector.finish();
  return collector;
}

std::string plain_lines(int first, int last) {
  std::string text;
  for (int i = first; i <= last; ++i) text += "step " + std::to_string(i) + "\n";
  return text;
}

TEST(ExcerptCollector, CountsLinesAcrossAppends) {
  ExcerptCollector collector;
  EXPECT_EQ(collector.append("a\nb"), 1u);
  EXPECT_EQ(collector.lines(), 2u);
  EXPECT_EQ(collector.append("c\n\n"), 2u);
  EXPECT_EQ(collector.lines(), 3u);
  collector.append("d");
  collector.finish();
  collector.finish();
  EXPECT_EQ(collector.lines(), 4u);
  EXPECT_EQ(collector.append("ignored\n"), 0u);
  EXPECT_EQ(collector.lines(), 4u);
}

TEST(ExcerptCollector, HeadKeepsTheFirstLinesSanitisedAndNumbered) {
  const ExcerptCollector collector =
      collect("\x1b[1mbold\x1b[0m\n" + plain_lines(2, 50), {.head_lines = 3});
  ASSERT_EQ(collector.head().size(), 3u);
  EXPECT_EQ(collector.head()[0].text, "bold");
  EXPECT_EQ(collector.head()[0].number, 1u);
  EXPECT_EQ(collector.head()[2].text, "step 3");
  EXPECT_FALSE(collector.head()[2].cut);
}

TEST(ExcerptCollector, LongLinesAreKeptOnlyInPartWithoutHalfACharacter) {
  // "é" is two bytes; 11 bytes of "aé..." would end inside one.
  const ExcerptCollector collector = collect("aéééééééééé\nshort\n", {.kept_line_bytes = 10});
  ASSERT_EQ(collector.head().size(), 2u);
  EXPECT_EQ(collector.head()[0].text, "aéééé");
  EXPECT_TRUE(collector.head()[0].cut);
  EXPECT_EQ(collector.head()[1].text, "short");
  EXPECT_FALSE(collector.head()[1].cut);
}

TEST(ExcerptCollector, AFailureComesWithTheLineBeforeAndTwoAfter) {
  const ExcerptCollector collector = collect(plain_lines(1, 40) +
                                             "[ RUN      ] Cart.Total\n"
                                             "cart_test.cc:12: Failure\n"
                                             "Expected: 90\n"
                                             "Actual: 100\n" +
                                             plain_lines(45, 90));
  ASSERT_EQ(collector.excerpts().size(), 1u);
  EXPECT_THAT(shown(collector.excerpts()[0]),
              ElementsAre("41-[ RUN      ] Cart.Total", "42:cart_test.cc:12: Failure",
                          "43-Expected: 90", "44-Actual: 100"));
  EXPECT_EQ(collector.failure_lines(), 1u);
}

TEST(ExcerptCollector, NearbyFailuresShareAnExcerpt) {
  const ExcerptCollector collector = collect(plain_lines(1, 10) +
                                             "error: first\n"
                                             "step 12\n"
                                             "error: second\n" +
                                             plain_lines(14, 30));
  ASSERT_EQ(collector.excerpts().size(), 1u);
  EXPECT_THAT(numbers(collector.excerpts()[0]), ElementsAre(10, 11, 12, 13, 14, 15));
  EXPECT_EQ(collector.failure_lines(), 2u);
}

TEST(ExcerptCollector, ABlankLineBeforeIsNoContext) {
  const ExcerptCollector collector = collect("one\n\nerror: x\nafter\n");
  ASSERT_EQ(collector.excerpts().size(), 1u);
  EXPECT_THAT(numbers(collector.excerpts()[0]), ElementsAre(3, 4));
}

TEST(ExcerptCollector, ALongStackKeepsItsTopAndItsLastFrames) {
  std::string trace = "Exception in thread \"main\" java.lang.IllegalStateException: boom\n";
  for (int frame = 1; frame <= 40; ++frame) {
    trace += "\tat com.example.Layer" + std::to_string(frame) + ".call(Layer" +
             std::to_string(frame) + ".java:" + std::to_string(frame) + ")\n";
  }
  const ExcerptCollector collector = collect(plain_lines(1, 5) + trace + "[INFO] done\n");
  ASSERT_EQ(collector.excerpts().size(), 1u);
  const Excerpt& excerpt = collector.excerpts()[0];
  ASSERT_EQ(excerpt.size(), kExcerptMaxLines);
  // Line 5 before, the exception (6), its first four frames, then the last two frames.
  EXPECT_THAT(numbers(excerpt), ElementsAre(5, 6, 7, 8, 9, 10, 45, 46));
  EXPECT_EQ(excerpt[1].text.substr(0, 19), "Exception in thread");
  EXPECT_EQ(excerpt.back().text, "\tat com.example.Layer40.call(Layer40.java:40)");
}

TEST(ExcerptCollector, APythonTracebackKeepsItsLastFrameAndTheException) {
  std::string log = testing::fixture_log("python_traceback.log");
  const ExcerptCollector collector = collect(log);
  ASSERT_EQ(collector.excerpts().size(), 2u);
  EXPECT_THAT(numbers(collector.excerpts()[0]), ElementsAre(2, 3, 4, 5, 6, 7, 12, 13));
  EXPECT_EQ(collector.excerpts()[0][6].text, "  File \"/home/dev/etl/parse.py\", line 9, in parse");
  EXPECT_THAT(shown(collector.excerpts()[1]), ElementsAre("14:ValueError: bad date: '2023-02-30'"));
}

TEST(ExcerptCollector, ASuccessOrAnUnindentedLineEndsTheBlock) {
  const ExcerptCollector collector = collect(
      "  ● total › applies the discount\n"
      "\n"
      "    Expected: 90\n"
      "    Received: 100\n"
      "      at Object.toBe (total.test.js:14:44)\n"
      " PASS  src/b.test.js\n"
      "  ✓ works\n");
  ASSERT_EQ(collector.excerpts().size(), 1u);
  EXPECT_THAT(numbers(collector.excerpts()[0]), ElementsAre(1, 2, 3, 4, 5));
  const ExcerptCollector unindented = collect("error: x\na\nb\nc\n  d\n");
  EXPECT_THAT(numbers(unindented.excerpts()[0]), ElementsAre(1, 2, 3));
}

TEST(ExcerptCollector, ABlockEndsAfterItsSpan) {
  std::string log = "error: x\n";
  for (int i = 0; i < 500; ++i) log += "  detail " + std::to_string(i + 2) + "\n";
  log += "error: y\n";
  const ExcerptCollector collector = collect(log, {.max_span = 10});
  ASSERT_EQ(collector.excerpts().size(), 2u);
  EXPECT_EQ(collector.excerpts()[0].back().number, 11u);  // the span's last line, kept at the end
  EXPECT_EQ(collector.excerpts()[1].back().number, 502u);
}

TEST(ExcerptCollector, ExcerptsAreCappedAndTheRestCounted) {
  std::string log;
  for (int i = 1; i <= 40; ++i) log += "ok\nFAILED test_" + std::to_string(i) + "\nok\nok\n";
  const ExcerptCollector collector = collect(log, {.max_excerpts = 3});
  EXPECT_EQ(collector.excerpts().size(), 3u);
  EXPECT_EQ(collector.failure_lines(), 40u);
  EXPECT_EQ(collector.failures_not_kept(), 37u);
  EXPECT_EQ(collector.first_failure_not_kept(), 14u);
}

TEST(ExcerptCollector, EscapeSequencesDoNotHideAFailure) {
  const ExcerptCollector collector = collect("ok\n\x1b[31mFAILED\x1b[0m test_cart\n");
  ASSERT_EQ(collector.excerpts().size(), 1u);
  EXPECT_THAT(shown(collector.excerpts()[0]), ElementsAre("1-ok", "2:FAILED test_cart"));
}

TEST(ExcerptCollector, ByteByByteEqualsAllAtOnce) {
  const std::string log = testing::fixture_log("jest.log");
  const ExcerptCollector whole = collect(log);
  ExcerptCollector pieces;
  for (const char c : log) pieces.append(std::string_view(&c, 1));
  pieces.finish();
  ASSERT_EQ(pieces.excerpts().size(), whole.excerpts().size());
  for (std::size_t i = 0; i < whole.excerpts().size(); ++i) {
    EXPECT_EQ(shown(pieces.excerpts()[i]), shown(whole.excerpts()[i]));
  }
  EXPECT_EQ(pieces.lines(), whole.lines());
  EXPECT_EQ(pieces.failure_lines(), whole.failure_lines());
}

TEST(ExcerptCollector, AnUnfinishedLastLineIsClassifiedAtTheEnd) {
  const ExcerptCollector collector = collect("building\nerror: out of disk");
  ASSERT_EQ(collector.excerpts().size(), 1u);
  EXPECT_THAT(numbers(collector.excerpts()[0]), ElementsAre(1, 2));
}

TEST(ExcerptCollector, NoFailureNoExcerpt) {
  const ExcerptCollector collector = collect(testing::fixture_log("passing.log"));
  EXPECT_THAT(collector.excerpts(), IsEmpty());
  EXPECT_EQ(collector.failure_lines(), 0u);
}

TEST(ExcerptCollector, MemoryStaysBoundedWhateverFails) {
  const ExcerptLimits limits{.max_excerpts = 4, .kept_line_bytes = 64};
  ExcerptCollector collector(limits);
  const std::string huge_failure = "error: " + std::string(100000, 'x') + "\n";
  for (int i = 0; i < 1000; ++i) collector.append(huge_failure);
  collector.finish();
  std::size_t kept_bytes = 0;
  std::size_t kept_lines = 0;
  for (const Excerpt& excerpt : collector.excerpts()) {
    for (const KeptLine& line : excerpt) {
      kept_bytes += line.text.size();
      ++kept_lines;
    }
  }
  EXPECT_EQ(collector.excerpts().size(), 4u);
  EXPECT_LE(kept_lines, 4 * limits.max_lines);
  EXPECT_LE(kept_bytes, kept_lines * limits.kept_line_bytes);
  EXPECT_EQ(collector.failure_lines(), 1000u);
}

TEST(ExcerptCollector, FixtureExcerptsStartAtTheirFailures) {
  // Every excerpt of a real-looking log holds a failure line, and excerpts do not overlap.
  for (const char* name : {"googletest.log", "pytest.log", "jest.log", "go_test.log",
                           "cargo_test.log", "gcc_make.log", "maven.log"}) {
    const ExcerptCollector collector = collect(testing::fixture_log(name));
    std::uint64_t previous_end = 0;
    EXPECT_FALSE(collector.excerpts().empty()) << name;
    for (const Excerpt& excerpt : collector.excerpts()) {
      ASSERT_FALSE(excerpt.empty()) << name;
      EXPECT_GT(excerpt.front().number, previous_end) << name;
      EXPECT_TRUE(std::any_of(excerpt.begin(), excerpt.end(), [](const KeptLine& line) {
        return line.failure;
      })) << name;
      previous_end = excerpt.back().number;
    }
  }
}

}  // namespace
}  // namespace nib::process
