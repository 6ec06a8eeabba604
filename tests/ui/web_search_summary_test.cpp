#include "ui/web_search_summary.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "ui/print_output.hpp"
#include "ui/stream_json.hpp"
#include "ui/transcript.hpp"

#include "support/presenting_tools.hpp"
#include "support/styled_rows.hpp"

namespace nib::ui {
namespace {

using nlohmann::json;

// A reply that searched twice (once in vain) and cites one source twice and another once.
core::AssistantMessage searched_reply() {
  core::AssistantMessage message;
  message.blocks = {
      core::WebSearchBlock{.id = "s1",
                           .query = "shannon\nbirth \x1b[31mdate",
                           .results = {{"Claude Shannon", "https://example.org/shannon"},
                                       {"Bio", "https://example.org/bio"}},
                           .error = {},
                           .replay = "[]"},
      core::WebSearchBlock{
          .id = "s2", .query = "", .results = {}, .error = "max_uses_exceeded", .replay = {}},
      core::TextBlock{"He was born "},
      core::TextBlock{.text = "in 1916",
                      .citations = {{"https://example.org/shannon", "Claude Shannon", "{}"},
                                    {"https://example.org/bio", "", ""}},
                      .glued = true},
      core::TextBlock{.text = " in Petoskey.",
                      .citations = {{"https://example.org/shannon", "Claude Shannon", "{}"}},
                      .glued = true},
  };
  return message;
}

TEST(WebSearchSummaryTest, OneLinePerSearchThenEachCitedSourceOnce) {
  EXPECT_EQ(web_search_lines(searched_reply()),
            (std::vector<std::string>{"searched the web: shannon birth date (2 results)",
                                      "searched the web (failed: max_uses_exceeded)",
                                      "cited: Claude Shannon <https://example.org/shannon>",
                                      "cited: <https://example.org/bio>"}));
  core::AssistantMessage plain;
  plain.blocks = {core::TextBlock{"No search."}};
  EXPECT_TRUE(web_search_lines(plain).empty());
  core::WebSearchBlock one{
      .id = "s", .query = "q", .results = {{"t", "u"}}, .error = {}, .replay = {}};
  EXPECT_EQ(web_search_line(one), "searched the web: q (1 result)");
}

TEST(WebSearchSummaryTest, ACarriageReturnInTheServicesTextHidesNothingBeforeIt) {
  core::WebSearchBlock search{
      .id = "s", .query = "real query\rfake", .results = {}, .error = {}, .replay = {}};
  EXPECT_EQ(web_search_line(search), "searched the web: real query fake (0 results)");
}

TEST(WebSearchSummaryTest, PrintModeWritesTheLinesOnStderrAndTheAnswerOnStdout) {
  std::ostringstream out, err;
  PrintOutput output(PrintFormat::kText, out, err, /*live_text=*/false);
  output.on_event(core::MessageEndEvent{searched_reply()});
  output.on_event(core::RunEndEvent{});
  EXPECT_EQ(out.str(), "He was born in 1916 in Petoskey.\n");
  EXPECT_NE(err.str().find("searched the web: shannon birth date (2 results)\n"), std::string::npos)
      << err.str();
  EXPECT_NE(err.str().find("cited: Claude Shannon <https://example.org/shannon>\n"),
            std::string::npos);
}

TEST(WebSearchSummaryTest, StreamJsonCarriesTheSearchInTheMessageAndAsALineOfItsOwn) {
  std::ostringstream out, err;
  PrintOutput output(PrintFormat::kStreamJson, out, err, /*live_text=*/false);
  output.on_event(core::MessageEndEvent{searched_reply()});
  std::istringstream lines(out.str());
  std::string line;
  std::vector<json> events;
  while (std::getline(lines, line)) events.push_back(json::parse(line));
  ASSERT_EQ(events.size(), 3u) << out.str();
  EXPECT_EQ(events[0]["type"], "message_end");
  const json& content = events[0]["message"]["content"];
  EXPECT_EQ(content[0]["type"], "web_search");
  EXPECT_EQ(content[0]["query"], "shannon\nbirth \x1b[31mdate");
  EXPECT_FALSE(content[0].contains("replay"));  // the service's opaque data stays internal
  EXPECT_EQ(content[3]["citations"],
            json::parse(R"([{"url": "https://example.org/shannon", "title": "Claude Shannon"},
                            {"url": "https://example.org/bio", "title": ""}])"));
  EXPECT_EQ(events[1], json::parse(R"({"type": "web_search", "id": "s1",
      "query": "shannon\nbirth \u001b[31mdate",
      "results": [{"title": "Claude Shannon", "url": "https://example.org/shannon"},
                  {"title": "Bio", "url": "https://example.org/bio"}]})"));
  EXPECT_EQ(events[2]["error"], "max_uses_exceeded");
  EXPECT_EQ(events[2]["results"], json::array());
}

TEST(WebSearchSummaryTest, TheTranscriptShowsThemLiveAndFromHistory) {
  const auto tools = testing::presenting_tools();
  const UiClock::time_point now{std::chrono::hours(1)};
  Transcript live{ToolPresenter(tools.get())};
  live.on_event(core::TextDeltaEvent{"He was born in 1916 in Petoskey."}, now);
  live.on_event(core::MessageEndEvent{searched_reply()}, now);
  const std::string shown = testing::text_of(live.take_committable(80, 100, now));
  EXPECT_NE(shown.find("searched the web: shannon birth date (2 results)"), std::string::npos)
      << shown;
  EXPECT_NE(shown.find("cited: <https://example.org/bio>"), std::string::npos) << shown;

  Transcript resumed{ToolPresenter(tools.get())};
  resumed.add_history({core::UserMessage{core::text_content("when?")}, searched_reply()});
  const std::string restored = testing::text_of(resumed.take_committable(80, 100, now));
  // The glued blocks read as one paragraph, as they streamed.
  EXPECT_NE(restored.find("He was born in 1916 in Petoskey."), std::string::npos) << restored;
  EXPECT_NE(restored.find("searched the web (failed: max_uses_exceeded)"), std::string::npos)
      << restored;
}

}  // namespace
}  // namespace nib::ui
