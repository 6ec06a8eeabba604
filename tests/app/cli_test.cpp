#include "app/cli.hpp"

#include <gtest/gtest.h>

namespace nib::app {
namespace {

ParseOutcome parse(std::vector<const char*> args) {
  args.insert(args.begin(), "nib");
  return parse_command_line(static_cast<int>(args.size()), args.data());
}

TEST(CliTest, PrintModeWithPromptAndFlags) {
  const auto outcome = parse({"-p", "read", "the README", "--model", "m", "--max-turns", "7",
                              "--output-format", "stream-json", "--tools", "read, bash"});
  ASSERT_TRUE(outcome.options);
  const auto& options = *outcome.options;
  EXPECT_TRUE(options.print);
  EXPECT_EQ(options.prompt, "read the README");
  EXPECT_EQ(options.model, "m");
  EXPECT_EQ(options.max_turns, 7);
  EXPECT_EQ(options.output_format, OutputFormat::kStreamJson);
  EXPECT_EQ(options.tools, (std::vector<std::string>{"read", "bash"}));
}

TEST(CliTest, NoSandboxIsAFlagAndTheSandboxIsOnByDefault) {
  EXPECT_FALSE(parse({"-p", "hi"}).options->no_sandbox);
  EXPECT_TRUE(parse({"-p", "hi", "--no-sandbox"}).options->no_sandbox);
}

TEST(CliTest, WebSearchIsAFlagAndOffByDefault) {
  EXPECT_FALSE(parse({"-p", "hi"}).options->web_search);
  EXPECT_TRUE(parse({"-p", "hi", "--web-search"}).options->web_search);
}

TEST(CliTest, BadUsageExitsTwoWithAMessage) {
  for (const auto& args : std::vector<std::vector<const char*>>{
           {"--output-format", "xml"}, {"--max-turns", "0"}, {"--bogus"}}) {
    const auto outcome = parse(args);
    EXPECT_FALSE(outcome.options);
    EXPECT_EQ(outcome.exit_code, 2);
    EXPECT_NE(outcome.message.find("nib --help"), std::string::npos);
  }
}

TEST(CliTest, HelpExitsZero) {
  const auto outcome = parse({"--help"});
  EXPECT_FALSE(outcome.options);
  EXPECT_EQ(outcome.exit_code, 0);
  EXPECT_NE(outcome.message.find("--output-format"), std::string::npos);
}

}  // namespace
}  // namespace nib::app
