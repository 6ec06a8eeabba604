#include "provider/anthropic_request.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <vector>

#include <nlohmann/json.hpp>

#include "provider/openai_chat_request.hpp"  // kImageOmittedText

#include "support/message_builders.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;
using testing::sample_png;

core::ProviderRequest anthropic_request(const std::vector<core::Message>& messages) {
  return testing::request_over(messages, "claude-sonnet-4-5");
}

core::AssistantMessage anthropic_assistant(std::vector<core::AssistantBlock> blocks,
                                           std::string api = kAnthropicApi) {
  return testing::assistant_message(std::move(blocks), std::move(api));
}

core::UserMessage user(const std::string& text) {
  return core::UserMessage{core::text_content(text)};
}

// The request body without its cache_control markers, for comparing message shapes.
json without_cache_control(json value) {
  if (value.is_object()) {
    value.erase("cache_control");
    for (auto& [key, member] : value.items()) member = without_cache_control(member);
  } else if (value.is_array()) {
    for (auto& element : value) element = without_cache_control(element);
  }
  return value;
}

int count_breakpoints(const json& value) {
  int count = value.is_object() && value.contains("cache_control") ? 1 : 0;
  if (value.is_structured()) {
    for (const auto& element : value) count += count_breakpoints(element);
  }
  return count;
}

TEST(AnthropicRequestTest, StreamsWithSystemBlockAndMaxTokens) {
  const std::vector<core::Message> messages = {user("hi")};
  core::ProviderRequest request = anthropic_request(messages);
  request.system_prompt = "You are nib.";
  const json body = json::parse(build_anthropic_request(request));
  EXPECT_EQ(body["model"], "claude-sonnet-4-5");
  EXPECT_EQ(body["stream"], true);
  EXPECT_EQ(body["max_tokens"], kClaudeCurrentMaxTokens);
  EXPECT_EQ(body["system"], json::parse(R"([
    {"type": "text", "text": "You are nib.", "cache_control": {"type": "ephemeral"}}])"));
  EXPECT_EQ(body["messages"], json::parse(R"([
    {"role": "user", "content": [
      {"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}]}])"));
  EXPECT_FALSE(body.contains("tools"));
  EXPECT_FALSE(body.contains("thinking"));
}

TEST(AnthropicRequestTest, OmitsEmptySystemPromptAndCopesWithoutHistory) {
  core::ProviderRequest request;
  request.model.id = "claude-opus-4-1";
  const json body = json::parse(build_anthropic_request(request));
  EXPECT_FALSE(body.contains("system"));
  EXPECT_EQ(body["messages"], json::array());
}

TEST(AnthropicRequestTest, MaxTokensFollowTheModelOrItsGeneration) {
  const auto max_tokens = [](const std::string& id, int stated = 0) {
    core::ModelInfo model;
    model.id = id;
    model.max_output_tokens = stated;
    return anthropic_max_tokens(model);
  };
  EXPECT_EQ(max_tokens("claude-sonnet-4-5", 64000), 64000);
  EXPECT_EQ(max_tokens("claude-opus-4-1-20250805"), kClaudeCurrentMaxTokens);
  EXPECT_EQ(max_tokens("claude-sonnet-4-20250514"), kClaudeCurrentMaxTokens);
  EXPECT_EQ(max_tokens("us.anthropic.claude-haiku-4-5-20251001-v1:0"), kClaudeCurrentMaxTokens);
  EXPECT_EQ(max_tokens("claude-mythos-preview"), kClaudeCurrentMaxTokens);
  EXPECT_EQ(max_tokens("claude-3-7-sonnet-20250219"), kClaude35MaxTokens);
  EXPECT_EQ(max_tokens("claude-3-5-haiku-latest"), kClaude35MaxTokens);
  EXPECT_EQ(max_tokens("claude-3-haiku-20240307"), kClaude3MaxTokens);
  EXPECT_EQ(max_tokens("mock-model"), kUnknownModelMaxTokens);
}

TEST(AnthropicRequestTest, ThinkingStyleIsAdaptiveFromClaude46On) {
  EXPECT_EQ(thinking_style_for("claude-opus-4-6"), ThinkingStyle::kAdaptive);
  EXPECT_EQ(thinking_style_for("claude-sonnet-4-6@20260217"), ThinkingStyle::kAdaptive);
  EXPECT_EQ(thinking_style_for("claude-opus-4-7"), ThinkingStyle::kAdaptive);
  EXPECT_EQ(thinking_style_for("claude-sonnet-5"), ThinkingStyle::kAdaptive);
  EXPECT_EQ(thinking_style_for("claude-sonnet-4-5-20250929"), ThinkingStyle::kBudget);
  EXPECT_EQ(thinking_style_for("claude-sonnet-4-5@20250929"), ThinkingStyle::kBudget);
  // The date is not a minor version.
  EXPECT_EQ(thinking_style_for("claude-sonnet-4-20250514"), ThinkingStyle::kBudget);
  EXPECT_EQ(thinking_style_for("claude-3-7-sonnet-latest"), ThinkingStyle::kBudget);
  EXPECT_EQ(thinking_style_for("deepseek-reasoner"), ThinkingStyle::kBudget);
}

TEST(AnthropicRequestTest, UserImagesBecomeBase64Blocks) {
  const std::vector<core::Message> messages = {
      core::UserMessage{{core::TextBlock{"what is this?"}, sample_png()}}};
  const json body = json::parse(build_anthropic_request(anthropic_request(messages)));
  EXPECT_EQ(without_cache_control(body["messages"]), json::parse(R"([
    {"role": "user", "content": [
      {"type": "text", "text": "what is this?"},
      {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                   "data": "iVBORw0KGgo="}}]}])"));
}

TEST(AnthropicRequestTest, ModelWithoutImagesGetsPlaceholdersAndHistoryIsUntouched) {
  const std::vector<core::Message> messages = {
      core::UserMessage{{core::TextBlock{"look"}, sample_png()}},
      anthropic_assistant({core::ToolCall{"toolu_1", "read", R"({"path":"a.png"})"}}),
      core::ToolResultMessage{{core::ToolResult{"toolu_1", "read", {sample_png()}}}},
  };
  core::ProviderRequest request = anthropic_request(messages);
  request.model.supports_images = false;
  const json body = without_cache_control(json::parse(build_anthropic_request(request)));
  EXPECT_EQ(body["messages"][0]["content"][1],
            json({{"type", "text"}, {"text", kImageOmittedText}}));
  EXPECT_EQ(body["messages"][2]["content"][0]["content"],
            json::array({{{"type", "text"}, {"text", kImageOmittedText}}}));
  EXPECT_TRUE(std::holds_alternative<core::ImageBlock>(
      std::get<core::UserMessage>(messages[0]).content[1]));
}

TEST(AnthropicRequestTest, AssistantBlocksKeepOrderAndOwnSignedThinkingOnly) {
  core::ThinkingBlock signed_thinking{"let me think", "sig-1"};
  core::ThinkingBlock redacted{"", "encrypted-data", true};
  core::ThinkingBlock unsigned_thinking{"cut off before its signature", ""};
  const std::vector<core::Message> messages = {
      user("list files"),
      anthropic_assistant({signed_thinking, redacted, unsigned_thinking,
                           core::TextBlock{"Looking."}, core::TextBlock{" \n"},
                           core::ToolCall{"toolu_1", "ls", R"({"path":"."})"},
                           core::ToolCall{"toolu_2", "read", R"({"path":"a)"},
                           core::ToolCall{"toolu_3", "bash", R"(["not","an","object"])"}}),
  };
  const json body =
      without_cache_control(json::parse(build_anthropic_request(anthropic_request(messages))));
  EXPECT_EQ(body["messages"][1], json::parse(R"({"role": "assistant", "content": [
    {"type": "thinking", "thinking": "let me think", "signature": "sig-1"},
    {"type": "redacted_thinking", "data": "encrypted-data"},
    {"type": "text", "text": "Looking."},
    {"type": "tool_use", "id": "toolu_1", "name": "ls", "input": {"path": "."}},
    {"type": "tool_use", "id": "toolu_2", "name": "read", "input": {}},
    {"type": "tool_use", "id": "toolu_3", "name": "bash", "input": {}}]})"));
}

TEST(AnthropicRequestTest, ThinkingFromAnotherProtocolIsDropped) {
  const std::vector<core::Message> messages = {
      user("hi"),
      anthropic_assistant(
          {core::ThinkingBlock{"reasoning", "rs_encrypted"}, core::TextBlock{"Hello."}},
          "openai-responses"),
      user("again"),
  };
  const json body =
      without_cache_control(json::parse(build_anthropic_request(anthropic_request(messages))));
  EXPECT_EQ(body["messages"][1], json::parse(R"({"role": "assistant", "content": [
    {"type": "text", "text": "Hello."}]})"));
}

TEST(AnthropicRequestTest, ToolResultsBecomeToolResultBlocksInOneUserMessage) {
  core::ToolResult image{"toolu_1", "read", {core::TextBlock{"Read image a.png"}, sample_png()}};
  core::ToolResult failed{"toolu_2", "read", core::text_content("Error: no such file"), true};
  core::ToolResult empty{"toolu_3", "bash", {core::TextBlock{""}}};
  const std::vector<core::Message> messages = {
      user("go"),
      anthropic_assistant({core::ToolCall{"toolu_1", "read", "{}"},
                           core::ToolCall{"toolu_2", "read", "{}"},
                           core::ToolCall{"toolu_3", "bash", "{}"}}),
      core::ToolResultMessage{{image, failed, empty}},
  };
  const json body =
      without_cache_control(json::parse(build_anthropic_request(anthropic_request(messages))));
  ASSERT_EQ(body["messages"].size(), 3u);
  EXPECT_EQ(body["messages"][2], json::parse(R"json({"role": "user", "content": [
    {"type": "tool_result", "tool_use_id": "toolu_1", "is_error": false, "content": [
      {"type": "text", "text": "Read image a.png"},
      {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                   "data": "iVBORw0KGgo="}}]},
    {"type": "tool_result", "tool_use_id": "toolu_2", "is_error": true, "content": [
      {"type": "text", "text": "Error: no such file"}]},
    {"type": "tool_result", "tool_use_id": "toolu_3", "is_error": false, "content": [
      {"type": "text", "text": "(no output)"}]}]})json"));
}

TEST(AnthropicRequestTest, ConsecutiveRolesMergeAndEmptyMessagesAreSkipped) {
  const std::vector<core::Message> messages = {
      user("first"),
      anthropic_assistant({core::ToolCall{"toolu_1", "ls", "{}"}}),
      core::ToolResultMessage{{core::ToolResult{"toolu_1", "ls", core::text_content("a.txt")}}},
      // The run stopped here; the user typed a new prompt.
      user("now read it"),
      anthropic_assistant({}),  // an aborted reply that produced nothing
      anthropic_assistant({core::ThinkingBlock{"unsigned", ""}},
                          kAnthropicApi),  // nothing replayable
      user("   "),                         // blank text only
      user("hello?"),
  };
  const json body =
      without_cache_control(json::parse(build_anthropic_request(anthropic_request(messages))));
  EXPECT_EQ(body["messages"], json::parse(R"([
    {"role": "user", "content": [{"type": "text", "text": "first"}]},
    {"role": "assistant", "content": [
      {"type": "tool_use", "id": "toolu_1", "name": "ls", "input": {}}]},
    {"role": "user", "content": [
      {"type": "tool_result", "tool_use_id": "toolu_1", "is_error": false,
       "content": [{"type": "text", "text": "a.txt"}]},
      {"type": "text", "text": "now read it"},
      {"type": "text", "text": "hello?"}]}])"));
}

TEST(AnthropicRequestTest, ToolCallIdsFromOtherProtocolsAreSanitisedConsistently) {
  const std::string foreign = "functions.Bash:0|fc_abc";
  const std::vector<core::Message> messages = {
      user("go"),
      anthropic_assistant(
          {core::ToolCall{foreign, "bash", "{}"}, core::ToolCall{"call_ok-1", "ls", "{}"}},
          "openai-chat"),
      core::ToolResultMessage{{core::ToolResult{foreign, "bash", core::text_content("x")},
                               core::ToolResult{"call_ok-1", "ls", core::text_content("y")}}},
  };
  const json body = json::parse(build_anthropic_request(anthropic_request(messages)));
  const std::string call_id = body["messages"][1]["content"][0]["id"];
  EXPECT_EQ(body["messages"][2]["content"][0]["tool_use_id"], call_id);
  EXPECT_EQ(call_id, anthropic_tool_use_id(foreign));
  EXPECT_EQ(call_id.rfind("functions_Bash_0_fc_abc_", 0), 0u) << call_id;
  EXPECT_EQ(body["messages"][1]["content"][1]["id"], "call_ok-1");
  EXPECT_EQ(body["messages"][2]["content"][1]["tool_use_id"], "call_ok-1");
}

TEST(AnthropicRequestTest, SanitisedIdsAreValidBoundedAndDistinct) {
  const auto valid = [](const std::string& id) {
    if (id.empty() || id.size() > kMaxToolUseIdBytes) return false;
    for (const char c : id) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
    }
    return true;
  };
  const std::string long_id(200, 'a');
  for (const std::string& id : {std::string("a.b"), std::string("a:b"), std::string(""),
                                std::string("日本"), long_id, long_id + "b"}) {
    EXPECT_TRUE(valid(anthropic_tool_use_id(id))) << id << " -> " << anthropic_tool_use_id(id);
  }
  EXPECT_NE(anthropic_tool_use_id("a.b"), anthropic_tool_use_id("a:b"));
  EXPECT_NE(anthropic_tool_use_id(long_id), anthropic_tool_use_id(long_id + "b"));
  EXPECT_EQ(anthropic_tool_use_id("toolu_01A-b"), "toolu_01A-b");
  EXPECT_EQ(anthropic_tool_use_id(std::string(64, 'x')), std::string(64, 'x'));
}

TEST(AnthropicRequestTest, ToolSpecsCarryInputSchemaAndTheLastOneACacheBreakpoint) {
  const std::vector<core::Message> messages = {user("hi")};
  core::ProviderRequest request = anthropic_request(messages);
  request.tools.push_back(core::ToolSpec{
      "read", "Reads a file.",
      json::parse(R"({"type":"object","properties":{"path":{"type":"string"}}})"), true});
  request.tools.push_back(core::ToolSpec{"now", "The time.", nullptr});
  const json body = json::parse(build_anthropic_request(request));
  EXPECT_EQ(body["tools"], json::parse(R"([
    {"name": "read", "description": "Reads a file.",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}},
    {"name": "now", "description": "The time.",
     "input_schema": {"type": "object", "properties": {}},
     "cache_control": {"type": "ephemeral"}}])"));
}

TEST(AnthropicRequestTest, CacheBreakpointsSitOnTheLastTwoUserTurns) {
  std::vector<core::Message> messages = {user("start")};
  for (int turn = 1; turn <= 5; ++turn) {
    const std::string id = "toolu_" + std::to_string(turn);
    // emplace_back with the alternative named: pushing a temporary variant trips GCC 12's
    // -Wmaybe-uninitialized.
    messages.emplace_back(anthropic_assistant({core::ToolCall{id, "ls", "{}"}}));
    messages.emplace_back(std::in_place_type<core::ToolResultMessage>,
                          std::vector{core::ToolResult{id, "ls", core::text_content("ok")}});
  }
  core::ProviderRequest request = anthropic_request(messages);
  request.system_prompt = "sys";
  request.tools.push_back(core::ToolSpec{"ls", "Lists.", nullptr});
  const json body = json::parse(build_anthropic_request(request));
  EXPECT_EQ(count_breakpoints(body), static_cast<int>(kMaxCacheBreakpoints));
  const json& sent = body["messages"];
  ASSERT_EQ(sent.size(), 11u);
  EXPECT_TRUE(sent[10]["content"].back().contains("cache_control"));
  EXPECT_TRUE(sent[8]["content"].back().contains("cache_control"));
  EXPECT_EQ(count_breakpoints(sent), 2);

  // Without system prompt and tools the user turns still get two, not four.
  request.system_prompt.clear();
  request.tools.clear();
  EXPECT_EQ(count_breakpoints(json::parse(build_anthropic_request(request))), 2);
}

core::ProviderRequest reasoning_request(const std::vector<core::Message>& messages,
                                        core::ThinkingLevel level, const std::string& id,
                                        int max_output_tokens = 0) {
  core::ProviderRequest request = anthropic_request(messages);
  request.model.id = id;
  request.model.reasoning = true;
  request.model.max_output_tokens = max_output_tokens;
  request.thinking = level;
  return request;
}

TEST(AnthropicRequestTest, ThinkingLevelsMapToBudgetsBelowMaxTokens) {
  const std::vector<core::Message> messages = {user("think")};
  const auto thinking = [&](core::ThinkingLevel level, int max_output_tokens = 0) {
    return json::parse(build_anthropic_request(
        reasoning_request(messages, level, "claude-sonnet-4-5", max_output_tokens)));
  };
  EXPECT_FALSE(thinking(core::ThinkingLevel::kOff).contains("thinking"));
  EXPECT_EQ(thinking(core::ThinkingLevel::kLow)["thinking"],
            json({{"type", "enabled"}, {"budget_tokens", kThinkingBudgetLow}}));
  EXPECT_EQ(thinking(core::ThinkingLevel::kMedium)["thinking"]["budget_tokens"],
            kThinkingBudgetMedium);
  const json high = thinking(core::ThinkingLevel::kHigh);
  EXPECT_EQ(high["thinking"]["budget_tokens"], kThinkingBudgetHigh);
  EXPECT_LT(kThinkingBudgetHigh, high["max_tokens"].get<int>());
  EXPECT_FALSE(high.contains("output_config"));
  // A small output limit cuts the budget, and one too small for any leaves thinking off.
  EXPECT_EQ(thinking(core::ThinkingLevel::kHigh, 8192)["thinking"]["budget_tokens"],
            8192 - kThinkingAnswerReserveTokens);
  EXPECT_FALSE(thinking(core::ThinkingLevel::kHigh, 4096).contains("thinking"));
}

TEST(AnthropicRequestTest, ModelWithoutReasoningNeverThinks) {
  const std::vector<core::Message> messages = {user("think")};
  core::ProviderRequest request =
      reasoning_request(messages, core::ThinkingLevel::kHigh, "claude-3-5-haiku-latest");
  request.model.reasoning = false;
  EXPECT_FALSE(json::parse(build_anthropic_request(request)).contains("thinking"));
}

TEST(AnthropicRequestTest, AdaptiveModelsGetAnEffort) {
  const std::vector<core::Message> messages = {user("think")};
  const json low = json::parse(build_anthropic_request(
      reasoning_request(messages, core::ThinkingLevel::kLow, "claude-opus-4-6")));
  EXPECT_EQ(low["thinking"], json({{"type", "adaptive"}}));
  EXPECT_EQ(low["output_config"], json({{"effort", "low"}}));
  const json high = json::parse(build_anthropic_request(
      reasoning_request(messages, core::ThinkingLevel::kHigh, "claude-opus-4-7")));
  EXPECT_EQ(high["output_config"], json({{"effort", "high"}}));
  const json off = json::parse(build_anthropic_request(
      reasoning_request(messages, core::ThinkingLevel::kOff, "claude-opus-4-6")));
  EXPECT_FALSE(off.contains("thinking"));
  EXPECT_FALSE(off.contains("output_config"));
}

TEST(AnthropicRequestTest, BudgetThinkingStaysOffInAToolCycleThatDidNotStartWithIt) {
  const core::ToolResultMessage results{
      {core::ToolResult{"call_1", "ls", core::text_content("a.txt")}}};
  // The cycle's first reply came from another protocol: its thinking cannot be sent back.
  const std::vector<core::Message> foreign = {
      user("list"),
      anthropic_assistant(
          {core::ThinkingBlock{"hmm", "rs_x"}, core::ToolCall{"call_1", "ls", "{}"}},
          "openai-responses"),
      results,
  };
  EXPECT_FALSE(json::parse(build_anthropic_request(reasoning_request(
                               foreign, core::ThinkingLevel::kMedium, "claude-sonnet-4-5")))
                   .contains("thinking"));
  // Adaptive thinking allows replies without thinking.
  EXPECT_TRUE(json::parse(build_anthropic_request(reasoning_request(
                              foreign, core::ThinkingLevel::kMedium, "claude-opus-4-6")))
                  .contains("thinking"));

  // A cycle that began with signed thinking; later replies in it need none.
  const std::vector<core::Message> own = {
      user("list"),
      anthropic_assistant(
          {core::ThinkingBlock{"plan", "sig"}, core::ToolCall{"call_1", "ls", "{}"}}),
      results,
      anthropic_assistant({core::ToolCall{"call_2", "ls", "{}"}}),
      core::ToolResultMessage{{core::ToolResult{"call_2", "ls", core::text_content("b.txt")}}},
  };
  EXPECT_TRUE(json::parse(build_anthropic_request(reasoning_request(
                              own, core::ThinkingLevel::kMedium, "claude-sonnet-4-5")))
                  .contains("thinking"));

  // A prompt merged after the tool results still continues the cycle.
  std::vector<core::Message> prompted = foreign;
  prompted.emplace_back(std::in_place_type<core::UserMessage>, core::text_content("and now?"));
  EXPECT_FALSE(json::parse(build_anthropic_request(reasoning_request(
                               prompted, core::ThinkingLevel::kMedium, "claude-sonnet-4-5")))
                   .contains("thinking"));

  // A prompt after a finished reply starts a new turn, whatever came before.
  std::vector<core::Message> answered = foreign;
  answered.emplace_back(
      anthropic_assistant({core::TextBlock{"a.txt is there"}}, "openai-responses"));
  answered.emplace_back(std::in_place_type<core::UserMessage>, core::text_content("and now?"));
  EXPECT_TRUE(json::parse(build_anthropic_request(reasoning_request(
                              answered, core::ThinkingLevel::kMedium, "claude-sonnet-4-5")))
                  .contains("thinking"));
}

}  // namespace
}  // namespace nib::provider
