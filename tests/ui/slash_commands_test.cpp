#include "ui/slash_commands.hpp"

#include <gtest/gtest.h>

#include "ui/footer.hpp"

namespace nib::ui {
namespace {

std::vector<std::string> labels(const std::vector<Completion>& completions) {
  std::vector<std::string> out;
  for (const Completion& completion : completions) out.push_back(completion.label);
  return out;
}

TEST(SlashCommands, ParsesCommandsButNotPaths) {
  const auto command = parse_command("  /compact keep the test plan  ");
  ASSERT_TRUE(command);
  EXPECT_EQ(command->name, "compact");
  EXPECT_EQ(command->argument, "keep the test plan");
  EXPECT_FALSE(parse_command("/usr/bin is slow"));
  EXPECT_FALSE(parse_command("hello /model"));
  EXPECT_FALSE(parse_command("/"));
}

TEST(SlashCommands, CompletesNamesThenArguments) {
  EXPECT_EQ(labels(complete("/", {})).size(), slash_commands().size());
  const auto model = complete("/mo", {});
  ASSERT_EQ(model.size(), 1u);
  EXPECT_EQ(model[0].text, "/model ");
  EXPECT_EQ(model[0].label, "/model [id]");
  EXPECT_EQ(complete("/cl", {})[0].text, "/clear");

  const ArgumentChoices choices = [](std::string_view command) {
    std::vector<Completion> out;
    if (command == "thinking") {
      for (const char* level : {"off", "low", "medium", "high"}) out.push_back({"", level, ""});
    }
    return out;
  };
  const auto levels = complete("/thinking h", choices);
  ASSERT_EQ(levels.size(), 1u);
  EXPECT_EQ(levels[0].text, "/thinking high");
  EXPECT_TRUE(complete("hello", choices).empty());
  EXPECT_TRUE(complete("/nope x", choices).empty());
  EXPECT_TRUE(complete("/model\nmore", choices).empty());
}

TEST(SlashCommands, CompletesCustomCommandsAfterTheBuiltInOnesWhichWin) {
  const std::vector<ExtraCommand> extra{
      {"review", "[file]", "Review a file (project)"},
      {"component", "", "Create a component (project:frontend)"},
      {"model", "", "shadowed by the built-in"},
  };
  const auto review = complete("/re", {}, extra);
  ASSERT_EQ(labels(review), (std::vector<std::string>{"/resume", "/rewind", "/review [file]"}));
  EXPECT_EQ(review[2].text, "/review ");
  EXPECT_EQ(review[2].description, "Review a file (project)");
  EXPECT_EQ(complete("/comp", {}, extra)[1].text, "/component");
  const auto model = complete("/mod", {}, extra);
  ASSERT_EQ(model.size(), 1u);
  EXPECT_EQ(model[0].description, "switch the model (a list without an id)");
}

TEST(Footer, ShowsModelPlaceContextUsageAndCost) {
  FooterInfo info;
  info.model = "gpt-5.4";
  info.thinking = "high";
  info.cwd = "/home/ann/src/nib";
  info.home = "/home/ann";
  info.context_tokens = 48'000;
  info.context_window = 400'000;
  info.usage.input_tokens = 12'345;
  info.usage.output_tokens = 456;
  info.cost_usd = 0.0123;
  EXPECT_EQ(render_footer(info, 200).plain(),
            "gpt-5.4 (high) · ~/src/nib · 12% of 400k context · ↑12k ↓456 · $0.0123");
  EXPECT_LE(render_footer(info, 20).width(), 20u);
  info.context_tokens = 360'000;  // near the window: shown in colour
  bool warned = false;
  for (const Span& span : render_footer(info, 200).spans) {
    warned = warned || span.style.color == Color::kYellow;
  }
  EXPECT_TRUE(warned);
}

TEST(Footer, ShowsThePermissionModeYoloInRed) {
  FooterInfo info{.model = "m", .cwd = "/w", .permission_mode = "auto"};
  EXPECT_EQ(render_footer(info, 200).plain(), "m · auto · /w");
  info.permission_mode = "yolo";
  bool red = false;
  for (const Span& span : render_footer(info, 200).spans) {
    red = red || (span.text == "yolo" && span.style.color == Color::kRed);
  }
  EXPECT_TRUE(red);
}

TEST(Footer, ShowsTheRunningBackgroundJobsOnlyWhileSomeRun) {
  FooterInfo info{.model = "m", .cwd = "/src"};
  EXPECT_EQ(render_footer(info, 200).plain(), "m · /src");
  info.running_jobs = 1;
  EXPECT_EQ(render_footer(info, 200).plain(), "m · /src · 1 job");
  info.running_jobs = 3;
  EXPECT_EQ(render_footer(info, 200).plain(), "m · /src · 3 jobs");
}

// How much of the latest request's prompt the service read from its cache.
TEST(Footer, ShowsTheLatestRequestsCacheShare) {
  FooterInfo info{.model = "m", .cwd = "/src"};
  info.last_reply.input_tokens = 300;
  info.last_reply.cache_read_tokens = 9'700;
  info.usage = info.last_reply;
  EXPECT_EQ(render_footer(info, 200).plain(), "m · /src · ↑10k ↓0 · 97% cached");
  info.last_reply = {.input_tokens = 10, .cache_write_tokens = 5'000};
  EXPECT_TRUE(render_footer(info, 200).plain().ends_with("· cache written"));
}

TEST(Footer, ShortCounts) {
  EXPECT_EQ(short_count(999), "999");
  EXPECT_EQ(short_count(1234), "1.2k");
  EXPECT_EQ(short_count(56'789), "57k");
  EXPECT_EQ(short_count(2'500'000), "2.5M");
}

}  // namespace
}  // namespace nib::ui
