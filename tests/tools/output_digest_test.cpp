#include "tools/output_digest.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tools/fixture_logs.hpp"

namespace nib::tools {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

process::KeptLine kept_line(std::uint64_t number, std::string text, bool failure = false,
                            bool cut = false) {
  return {number, std::move(text), cut, failure};
}

std::string render(const std::vector<process::KeptLine>& head,
                   const std::vector<process::Excerpt>& excerpts, const std::string& tail,
                   std::uint64_t total, const DigestLimits& limits) {
  return render_digest({.head = head, .excerpts = excerpts, .tail = tail, .total_lines = total},
                       limits)
      .text;
}

constexpr DigestLimits kSmall{
    .max_bytes = 2000, .head_lines = 2, .tail_lines = 2, .line_bytes = 40};

TEST(LeftOutMarker, SaysHowManyAndWhich) {
  EXPECT_EQ(left_out_marker(41, 12385), "… 12,345 lines left out (lines 41–12,385) …\n");
  EXPECT_EQ(left_out_marker(7, 7), "… 1 line left out (line 7) …\n");
}

TEST(RenderDigest, HeadExcerptsAndTailWithMarkers) {
  const Digest digest = render_digest(
      {.head = std::vector{kept_line(1, "start"), kept_line(2, "config"), kept_line(3, "step 3")},
       .excerpts = std::vector<process::Excerpt>{{kept_line(9, "step 9"),
                                                  kept_line(10, "error: boom", true),
                                                  kept_line(11, "detail")}},
       .tail = "step 19\nsummary: 1 failed\n",
       .total_lines = 20},
      kSmall);
  EXPECT_EQ(digest.text,
            "start\n"
            "config\n"
            "… 6 lines left out (lines 3–8) …\n"
            "9- step 9\n"
            "10: error: boom\n"
            "11- detail\n"
            "… 7 lines left out (lines 12–18) …\n"
            "step 19\n"
            "summary: 1 failed\n");
  EXPECT_EQ(digest.head_lines, 2u);
  EXPECT_EQ(digest.tail_first, 19u);
  EXPECT_EQ(digest.excerpts_shown, 1u);
  EXPECT_EQ(digest.failures_left_out, 0u);
}

TEST(RenderDigest, ALongExcerptShowsWhereItsMiddleWasLeftOut) {
  const std::string text =
      render({kept_line(1, "a")},
             {{kept_line(10, "Traceback (most recent call last):", true),
               kept_line(11, "  File \"a.py\", line 1"), kept_line(40, "  raise X")}},
             "end\n", 60, kSmall);
  EXPECT_THAT(text, HasSubstr("10: Traceback (most recent call last):\n"
                              "11-   File \"a.py\", line 1\n"
                              "… 28 lines left out (lines 12–39) …\n"
                              "40-   raise X\n"
                              "… 19 lines left out (lines 41–59) …\n"
                              "end\n"));
}

TEST(RenderDigest, ALineIsShownOnceThoughSeveralPartsHoldIt) {
  // The excerpt overlaps the head (lines 1-2) and the tail (lines 4-5).
  const std::string text =
      render({kept_line(1, "one"), kept_line(2, "two")},
             {{kept_line(2, "two", true), kept_line(3, "three"), kept_line(4, "four")}},
             "four\nfive\n", 5, kSmall);
  EXPECT_EQ(text, "one\ntwo\n3- three\nfour\nfive\n");
}

TEST(RenderDigest, AnExcerptThatFillsTheGapLeavesNoMarker) {
  const std::string text =
      render({kept_line(1, "one"), kept_line(2, "two")}, {{kept_line(3, "error: three", true)}},
             "four\n", 4, {.max_bytes = 2000, .head_lines = 2, .tail_lines = 1, .line_bytes = 40});
  EXPECT_EQ(text, "one\ntwo\n3: error: three\nfour\n");
}

TEST(RenderDigest, LongLinesAreCut) {
  const std::string text =
      render({kept_line(1, std::string(100, 'h')), kept_line(2, "kept start", false, /*cut=*/true)},
             {}, std::string(100, 't') + "\n", 3, kSmall);
  EXPECT_EQ(text, std::string(40, 'h') + "…[line cut]\nkept start…[line cut]\n" +
                      std::string(40, 't') + "…[line cut]\n");
}

TEST(RenderDigest, ALastLineLongerThanTheMemoryShowsItsEndAndTheStartTheHeadKept) {
  const std::string end = std::string(50, 'x') + "END";
  const Digest alone =
      render_digest({.tail = end, .tail_starts_mid_line = true, .total_lines = 7}, kSmall);
  EXPECT_EQ(alone.text,
            "… 6 lines left out (lines 1–6) …\n[line cut]…" + std::string(37, 'x') + "END\n");
  const Digest both =
      render_digest({.head = std::vector{kept_line(1, "START" + std::string(50, 's'))},
                     .tail = end,
                     .tail_starts_mid_line = true,
                     .total_lines = 1},
                    kSmall);
  EXPECT_EQ(both.text,
            "START" + std::string(15, 's') + "…[line cut]…" + std::string(17, 'x') + "END\n");
}

TEST(RenderDigest, ExcerptsBeyondTheBudgetAreCountedNotShown) {
  std::vector<process::Excerpt> excerpts;
  for (std::uint64_t i = 0; i < 50; ++i) {
    const std::uint64_t at = 100 + i * 10;
    excerpts.push_back({kept_line(at - 1, "before"),
                        kept_line(at, "FAILED test_" + std::to_string(i), true),
                        kept_line(at + 1, "after")});
  }
  const Digest digest = render_digest({.head = std::vector{kept_line(1, "head")},
                                       .excerpts = excerpts,
                                       .tail = "summary\n",
                                       .total_lines = 1000,
                                       .failures_not_kept = 5,
                                       .first_failure_not_kept = 700},
                                      {.max_bytes = 1200});
  EXPECT_LE(digest.text.size(), 1200u);
  EXPECT_GT(digest.excerpts_shown, 3u);
  EXPECT_LT(digest.excerpts_shown, 50u);
  EXPECT_EQ(digest.failures_left_out, 50 - digest.excerpts_shown + 5);
  EXPECT_EQ(digest.first_failure_left_out, 100 + digest.excerpts_shown * 10);
  EXPECT_THAT(digest.text, HasSubstr("100: FAILED test_0\n"));
  EXPECT_THAT(digest.text, Not(HasSubstr("FAILED test_49")));
  EXPECT_THAT(digest.text, ::testing::EndsWith("summary\n"));
}

// Every line of the stream is either shown or inside a "left out" range, in order; returns the
// number of the last line accounted for.
std::uint64_t accounted_lines(const std::string& text) {
  static const std::regex marker(
      "… ([0-9,]+) lines? left out \\(lines? ([0-9,]+)(–([0-9,]+))?\\) …");
  static const std::regex numbered("([0-9]+)[:-] .*");
  const auto number = [](std::string digits) {
    std::erase(digits, ',');
    return static_cast<std::uint64_t>(std::stoull(digits));
  };
  std::uint64_t covered = 0;
  std::istringstream lines(text);
  std::string shown;
  std::smatch match;
  while (std::getline(lines, shown)) {
    if (std::regex_match(shown, match, marker)) {
      const std::uint64_t first = number(match[2]);
      const std::uint64_t last = match[4].matched ? number(match[4]) : first;
      EXPECT_EQ(first, covered + 1) << shown;
      EXPECT_EQ(last - first + 1, number(match[1])) << shown;
      covered = last;
    } else if (std::regex_match(shown, match, numbered)) {
      EXPECT_EQ(number(match[1]), covered + 1) << shown;
      covered = number(match[1]);
    } else {
      ++covered;  // a head or tail line
    }
  }
  return covered;
}

TEST(RenderDigest, StaysWithinAnyBudgetAndAccountsForEveryLine) {
  // Fixture logs between plain lines, collected as a stream would be.
  std::string log;
  for (int round = 0; round < 20; ++round) {
    for (const char* name : {"googletest.log", "pytest.log", "maven.log", "gcc_make.log"}) {
      log += testing::fixture_log(name);
      for (int i = 0; i < 300; ++i) log += "progress " + std::to_string(i) + "\n";
    }
  }
  process::ExcerptCollector collector;
  collector.append(log);
  collector.finish();
  const std::string tail = log.substr(log.size() - 20000);
  const std::string whole_lines = tail.substr(tail.find('\n') + 1);
  for (const std::size_t budget : {400u, 1500u, 3500u, 7000u}) {
    const Digest digest =
        render_digest({.head = collector.head(),
                       .excerpts = collector.excerpts(),
                       .tail = whole_lines,
                       .total_lines = collector.lines(),
                       .failures_not_kept = collector.failures_not_kept(),
                       .first_failure_not_kept = collector.first_failure_not_kept()},
                      {.max_bytes = budget});
    EXPECT_LE(digest.text.size(), budget);
    EXPECT_EQ(accounted_lines(digest.text), collector.lines()) << digest.text;
    EXPECT_GT(digest.failures_left_out, 0u);
  }
}

}  // namespace
}  // namespace nib::tools
