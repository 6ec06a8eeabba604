#include "ui/tool_summary.hpp"

#include <gtest/gtest.h>

#include "core/tool_registry.hpp"
#include "support/presenting_tools.hpp"

namespace nib::ui {
namespace {

core::ToolOutcome bash_outcome(bool is_error, std::optional<int> exit_code, const std::string& text,
                               int milliseconds) {
  core::ToolOutcome out;
  out.result = {"c1", "bash", core::text_content(text), is_error, exit_code};
  out.duration = std::chrono::milliseconds(milliseconds);
  return out;
}

TEST(ToolSummary, CallsReadAsTheirToolDescribesThem) {
  const auto tools = testing::presenting_tools();
  const ToolPresenter presenter(tools.get());
  EXPECT_EQ(presenter.call("bash", R"({"command":"npm test\nnpm run lint"})"), "bash npm test");
  EXPECT_EQ(presenter.call("grep", R"({"pattern":"TODO","path":"src"})"), "grep TODO in src");
  EXPECT_EQ(presenter.call("bash", "{not json"), "bash {not json");
  core::ToolResult read{"c1", "read", core::text_content("a\nb\n"), false, {}};
  EXPECT_EQ(presenter.result("read", R"({"path":"a"})", read), "Read 2 lines");
  EXPECT_EQ(presenter.result("bash", R"({"command":"x"})", read), std::nullopt);
}

TEST(ToolSummary, AToolThatSaysNothingGetsItsNameAndCompactArguments) {
  const ToolPresenter presenter;  // no registry: nothing is known about any tool
  EXPECT_EQ(presenter.call("mcp__git__log", R"({"limit": 3, "ref": "main"})"),
            R"(mcp__git__log {"limit":3,"ref":"main"})");
  EXPECT_EQ(presenter.call("task", "{}"), "task");
  EXPECT_EQ(presenter.result("read", "{}", core::ToolResult{}), std::nullopt);
}

// A tool's own presentation code runs only on arguments its schema accepts: a model's call of
// job_output with {"id": "1"} once ended the run when its describe_call read the id as a number.
TEST(ToolSummary, ArgumentsTheSchemaRefusesAreShownCompactlyWithoutTheToolsCode) {
  const auto thrower = core::make_tool(
      {"strict", "", {{"type", "object"}, {"properties", {{"id", {{"type", "integer"}}}}}}},
      [](const nlohmann::json&, std::stop_token, const core::ToolContext&) {
        return core::ToolOutput{"ran"};
      });
  class Describing final : public core::Tool {
   public:
    Describing()
        : Tool({"counted",
                "",
                {{"type", "object"}, {"properties", {{"id", {{"type", "integer"}}}}}}}) {}
    core::ToolOutput execute(const nlohmann::json&, std::stop_token,
                             const core::ToolContext&) override {
      return {"ran"};
    }
    std::string describe_call(const nlohmann::json& args) const override {
      return "job " + std::to_string(args.value("id", 0));  // throws on a string
    }
  };
  auto registry = core::ToolRegistry::create({thrower, std::make_shared<Describing>()}, {});
  ASSERT_TRUE(registry.ok());
  const ToolPresenter presenter(registry.value().get());
  EXPECT_EQ(presenter.call("counted", R"({"id": 3})"), "counted job 3");
  EXPECT_EQ(presenter.call("counted", R"({"id": "1"})"), R"(counted {"id":"1"})");
  EXPECT_EQ(presenter.call("counted", R"({"id": null})"), R"(counted {"id":null})");
  EXPECT_EQ(presenter.result("counted", R"({"id": "1"})", core::ToolResult{}), std::nullopt);
}

TEST(ToolSummary, OutcomeLinesMarkFailuresAndNonZeroExits) {
  EXPECT_EQ(outcome_line("read a.txt", bash_outcome(false, std::nullopt, "x", 3)),
            "✓ read a.txt (3 ms)");
  EXPECT_EQ(outcome_line("bash make", bash_outcome(false, 2, "Error 2", 1200)),
            "✗ bash make: exit 2 (1.2 s)");
  EXPECT_EQ(outcome_line("edit a.c", bash_outcome(true, std::nullopt, "Error: not found\nmore", 5)),
            "✗ edit a.c: Error: not found (5 ms)");
}

TEST(ToolSummary, LinesCarryNoControlSequences) {
  const auto tools = testing::presenting_tools();
  EXPECT_EQ(ToolPresenter(tools.get())
                .call("bash", R"({"command":"echo \u001b]0;pwned\u0007hi\u001b[2J"})"),
            "bash echo hi");
  EXPECT_EQ(
      outcome_line("bash x", bash_outcome(true, std::nullopt, "Error: \x1b[31mred\x1b[0m", 5)),
      "✗ bash x: Error: red (5 ms)");
}

TEST(ToolSummary, DeeplyNestedArgumentsAreShownAsTextNotParsed) {
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  const std::string line = ToolPresenter().call("x", deep);
  EXPECT_EQ(line.rfind("x [[[", 0), 0u) << "shown as the raw text, cut to one line";
  EXPECT_LE(line.size(), kSummaryWidth);
}

TEST(ToolSummary, DurationsReadNaturally) {
  EXPECT_EQ(format_duration(std::chrono::milliseconds(850)), "850 ms");
  EXPECT_EQ(format_duration(std::chrono::milliseconds(12'340)), "12.3 s");
  EXPECT_EQ(format_duration(std::chrono::milliseconds(125'000)), "2 m 05 s");
}

}  // namespace
}  // namespace nib::ui
