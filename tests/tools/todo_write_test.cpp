// Tests of the todo_write tool: the schema, validation with messages for the model, the board
// and the reported plan event, and finding the latest plan in a history.

#include "tools/todo_write.hpp"

#include <gtest/gtest.h>

#include "core/schema_validator.hpp"
#include "support/text_match.hpp"
#include "tools/limits.hpp"

namespace nib::tools {
namespace {

using core::PlanItem;
using core::PlanStatus;
using nlohmann::json;
using testing::contains;

json items(std::initializer_list<std::pair<const char*, const char*>> entries) {
  json list = json::array();
  for (const auto& [content, status] : entries) {
    list.push_back({{"content", content}, {"status", status}});
  }
  return {{"items", list}};
}

class TodoWriteTest : public ::testing::Test {
 protected:
  core::ToolOutput call(const json& args) {
    core::ToolContext context{"call-1", "/tmp",
                              [this](core::Event event) { reported_.push_back(std::move(event)); }};
    return tool_->execute(args, {}, context);
  }

  std::shared_ptr<PlanBoard> board_ = std::make_shared<PlanBoard>();
  core::ToolPtr tool_ = make_todo_write_tool(board_);
  std::vector<core::Event> reported_;
};

TEST_F(TodoWriteTest, SchemaAcceptsAPlanAndRefusesAnUnknownStatus) {
  EXPECT_EQ(tool_->name(), "todo_write");
  EXPECT_FALSE(tool_->spec().concurrency_safe);
  // When to keep a plan is the system prompt's (plan_e2e_test); the tool says how.
  EXPECT_TRUE(contains(tool_->spec().description, "whole list"));
  EXPECT_TRUE(contains(tool_->spec().description, "in_progress before starting it"));
  const auto compiled = core::CompiledSchema::compile(tool_->spec().parameters);
  ASSERT_TRUE(compiled.ok()) << compiled.error();
  EXPECT_TRUE(compiled.value()->validate(items({{"a", "pending"}, {"b", "completed"}})).empty());
  EXPECT_FALSE(compiled.value()->validate(items({{"a", "doing"}})).empty());
  EXPECT_FALSE(compiled.value()->validate(json::object()).empty());
}

TEST_F(TodoWriteTest, ReplacesTheBoardAndReportsThePlan) {
  const auto result = call(
      items({{"Read the parser", "completed"}, {"Add tests", "in_progress"}, {"Docs", "pending"}}));
  ASSERT_FALSE(result.is_error) << result.output;
  EXPECT_TRUE(contains(result.output, "1 of 3 done; now: Add tests")) << result.output;
  const core::Plan expected{{"Read the parser", PlanStatus::kCompleted},
                            {"Add tests", PlanStatus::kInProgress},
                            {"Docs", PlanStatus::kPending}};
  EXPECT_EQ(board_->current(), expected);
  ASSERT_EQ(reported_.size(), 1u);
  EXPECT_EQ(std::get<core::PlanEvent>(reported_[0]).items, expected);
  EXPECT_EQ(tool_->describe_call(items({{"a", "completed"}, {"b", "pending"}})), "1 of 2 done");
}

TEST_F(TodoWriteTest, TwoItemsInProgressAreRefusedNamingBoth) {
  board_->replace({{"kept", PlanStatus::kPending}});
  const auto result = call(items({{"A", "in_progress"}, {"B", "pending"}, {"C", "in_progress"}}));
  ASSERT_TRUE(result.is_error);
  EXPECT_TRUE(contains(result.output, "at most one item may be in_progress")) << result.output;
  EXPECT_TRUE(contains(result.output, "item 1 (\"A\") and item 3 (\"C\")")) << result.output;
  EXPECT_TRUE(contains(result.output, "call todo_write again")) << result.output;
  // Nothing is lost: the board keeps the last good plan, and nothing is reported.
  EXPECT_EQ(board_->current(), (core::Plan{{"kept", PlanStatus::kPending}}));
  EXPECT_TRUE(reported_.empty());
}

TEST_F(TodoWriteTest, BadItemsAreRefusedWithWhatToDo) {
  EXPECT_TRUE(contains(parse_plan(json::object()).error(), "items must be a list"));
  EXPECT_TRUE(contains(parse_plan(items({{"  ", "pending"}})).error(), "item 1 has no content"));
  EXPECT_TRUE(contains(parse_plan(items({{"a", "done"}})).error(),
                       "item 1 (\"a\") needs a status of pending, in_progress or completed"));
  json many = json::array();
  for (std::size_t i = 0; i <= kMaxPlanItems; ++i)
    many.push_back({{"content", "x"}, {"status", "pending"}});
  EXPECT_TRUE(
      contains(parse_plan({{"items", many}}).error(), "at most " + std::to_string(kMaxPlanItems)));
  const std::string long_item(kMaxPlanItemBytes + 1, 'x');
  EXPECT_TRUE(contains(parse_plan(items({{long_item.c_str(), "pending"}})).error(), "one line"));
  EXPECT_TRUE(contains(parse_plan(items({{long_item.c_str(), "pending"}})).error(),
                       "item 1 (\"" + std::string(40, 'x') + "… [461 more bytes]\") is 501 bytes"));
  // The quoted start ends on a whole character: byte 40 is the second byte of a "ż".
  std::string wide_item = "a";
  std::string wide_start = "a";
  for (int i = 0; i < 251; ++i) wide_item += "ż";
  for (int i = 0; i < 19; ++i) wide_start += "ż";
  EXPECT_TRUE(contains(parse_plan(items({{wide_item.c_str(), "pending"}})).error(),
                       "item 1 (\"" + wide_start + "… [464 more bytes]\") is 503 bytes"));
}

TEST_F(TodoWriteTest, ClaudeCodesExtraFieldsAreIgnoredAndAnEmptyListClears) {
  const json claude = {
      {"items",
       {{{"content", "Run tests"}, {"status", "in_progress"}, {"activeForm", "Running tests"}}}}};
  ASSERT_TRUE(parse_plan(claude).ok());
  EXPECT_EQ(parse_plan(claude).value(), (core::Plan{{"Run tests", PlanStatus::kInProgress}}));
  board_->replace({{"old", PlanStatus::kPending}});
  const auto cleared = call({{"items", json::array()}});
  EXPECT_EQ(cleared.output, "Plan cleared.");
  EXPECT_TRUE(board_->current().empty());
}

core::AssistantMessage calls_todo(const std::string& id, const json& args) {
  core::AssistantMessage message;
  message.blocks.push_back(core::ToolCall{id, "todo_write", args.dump()});
  return message;
}

core::ToolResultMessage result_of(const std::string& id, bool is_error) {
  core::ToolResultMessage message;
  core::ToolResult result;
  result.tool_call_id = id;
  result.tool_name = "todo_write";
  result.is_error = is_error;
  message.results.push_back(result);
  return message;
}

TEST(LatestPlanTest, IsTheLastSuccessfulCallsPlan) {
  EXPECT_FALSE(latest_plan({}).has_value());
  const std::vector<core::Message> history{
      core::UserMessage{core::text_content("go")},
      calls_todo("c1", items({{"first", "in_progress"}})),
      result_of("c1", false),
      calls_todo("c2", items({{"first", "completed"}, {"second", "in_progress"}})),
      result_of("c2", false),
      // A refused call does not count.
      calls_todo("c3", items({{"x", "in_progress"}, {"y", "in_progress"}})),
      result_of("c3", true),
  };
  EXPECT_EQ(latest_plan(history),
            (core::Plan{{"first", PlanStatus::kCompleted}, {"second", PlanStatus::kInProgress}}));
}

}  // namespace
}  // namespace nib::tools
