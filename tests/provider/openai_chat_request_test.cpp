#include "provider/openai_chat_request.hpp"

#include <gtest/gtest.h>

#include <vector>

#include <nlohmann/json.hpp>

#include "support/message_builders.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;
using testing::sample_png;

core::ProviderRequest chat_request(const std::vector<core::Message>& messages) {
  return testing::request_over(messages, "gpt-test");
}

core::AssistantMessage chat_assistant(std::vector<core::AssistantBlock> blocks) {
  return testing::assistant_message(std::move(blocks));
}

TEST(OpenAIChatRequestTest, StreamsWithUsageAndSendsSystemPromptFirst) {
  const std::vector<core::Message> messages = {core::UserMessage{core::text_content("hi")}};
  core::ProviderRequest request = chat_request(messages);
  request.system_prompt = "You are nib.";
  const json body = json::parse(build_chat_request(request, ChatDialect::kCompatible));
  EXPECT_EQ(body["model"], "gpt-test");
  EXPECT_EQ(body["stream"], true);
  EXPECT_EQ(body["stream_options"], json({{"include_usage", true}}));
  EXPECT_EQ(body["messages"], json::parse(R"([
    {"role": "system", "content": "You are nib."},
    {"role": "user", "content": "hi"}])"));
  EXPECT_FALSE(body.contains("tools"));
  EXPECT_FALSE(body.contains("max_tokens"));
  EXPECT_FALSE(body.contains("max_completion_tokens"));
}

// OpenAI's own service takes prompt_cache_key; compatible servers may refuse a field they do
// not know, so they get none.
TEST(OpenAIChatRequestTest, SendsThePromptCacheKeyToOpenAIOnly) {
  const std::vector<core::Message> messages = {core::UserMessage{core::text_content("hi")}};
  core::ProviderRequest request = chat_request(messages);
  request.cache_key = "0f3a";
  EXPECT_EQ(json::parse(build_chat_request(request, ChatDialect::kOpenAI))["prompt_cache_key"],
            "0f3a");
  EXPECT_FALSE(json::parse(build_chat_request(request, ChatDialect::kCompatible))
                   .contains("prompt_cache_key"));
  EXPECT_EQ(chat_dialect_for("https://api.openai.com/v1"), ChatDialect::kOpenAI);
  EXPECT_EQ(chat_dialect_for("http://localhost:11434/v1"), ChatDialect::kCompatible);
}

TEST(OpenAIChatRequestTest, OmitsEmptySystemPrompt) {
  const std::vector<core::Message> messages = {core::UserMessage{core::text_content("hi")}};
  const json body =
      json::parse(build_chat_request(chat_request(messages), ChatDialect::kCompatible));
  ASSERT_EQ(body["messages"].size(), 1u);
  EXPECT_EQ(body["messages"][0]["role"], "user");
}

TEST(OpenAIChatRequestTest, UserImagesBecomeDataUrlParts) {
  const std::vector<core::Message> messages = {
      core::UserMessage{{core::TextBlock{"what is this?"}, sample_png()}}};
  const json body =
      json::parse(build_chat_request(chat_request(messages), ChatDialect::kCompatible));
  EXPECT_EQ(body["messages"][0]["content"], json::parse(R"([
    {"type": "text", "text": "what is this?"},
    {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}])"));
}

TEST(OpenAIChatRequestTest, AssistantTextAndToolCallsWithoutThinking) {
  const std::vector<core::Message> messages = {
      core::UserMessage{core::text_content("list files")},
      chat_assistant({core::ThinkingBlock{"let me think", "sig"}, core::TextBlock{"Looking."},
                      core::ToolCall{"call_1", "ls", R"({"path":"."})"},
                      core::ToolCall{"call_2", "read", R"({"path":"a)"}}),
      chat_assistant({core::ToolCall{"call_3", "ls", "{}"}}),
      chat_assistant({core::ThinkingBlock{"only thoughts", ""}}),
  };
  const json body =
      json::parse(build_chat_request(chat_request(messages), ChatDialect::kCompatible));
  ASSERT_EQ(body["messages"].size(), 3u);  // the thinking-only reply is skipped
  EXPECT_EQ(body["messages"][1], json::parse(R"({
    "role": "assistant", "content": "Looking.",
    "tool_calls": [
      {"id": "call_1", "type": "function", "function": {"name": "ls", "arguments": "{\"path\":\".\"}"}},
      {"id": "call_2", "type": "function", "function": {"name": "read", "arguments": "{\"path\":\"a"}}]})"));
  EXPECT_EQ(body["messages"][2], json::parse(R"({
    "role": "assistant", "content": null,
    "tool_calls": [{"id": "call_3", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]})"));
}

TEST(OpenAIChatRequestTest, AGluedTextBlockContinuesTheOneBeforeIt) {
  // A cited sentence that Anthropic split into blocks, sent to a Chat Completions model.
  const std::vector<core::Message> messages = {
      core::UserMessage{core::text_content("when?")},
      chat_assistant({core::TextBlock{"Searching."}, core::WebSearchBlock{.id = "srvtoolu_1"},
                      core::TextBlock{"He was born "},
                      core::TextBlock{.text = "in 1916.", .citations = {}, .glued = true}}),
  };
  const json body =
      json::parse(build_chat_request(chat_request(messages), ChatDialect::kCompatible));
  EXPECT_EQ(body["messages"][1]["content"], "Searching.\nHe was born in 1916.");
}

TEST(OpenAIChatRequestTest, ToolResultsBecomeOneToolMessageEach) {
  core::ToolResult ok{"call_1", "ls", {core::TextBlock{"a.txt"}, core::TextBlock{"b.txt"}}};
  core::ToolResult failed{"call_2", "read", core::text_content("Error: no such file"), true};
  const std::vector<core::Message> messages = {core::ToolResultMessage{{ok, failed}}};
  const json body =
      json::parse(build_chat_request(chat_request(messages), ChatDialect::kCompatible));
  EXPECT_EQ(body["messages"], json::parse(R"([
    {"role": "tool", "tool_call_id": "call_1", "content": "a.txt\nb.txt"},
    {"role": "tool", "tool_call_id": "call_2", "content": "Error: no such file"}])"));
}

TEST(OpenAIChatRequestTest, ToolResultImagesFollowInOneUserMessageAfterAllToolMessages) {
  core::ToolResult image{"call_1", "read", {core::TextBlock{"Read image a.png"}, sample_png()}};
  core::ToolResult text{"call_2", "ls", core::text_content("a.png")};
  const std::vector<core::Message> messages = {core::ToolResultMessage{{image, text}}};
  const json body =
      json::parse(build_chat_request(chat_request(messages), ChatDialect::kCompatible));
  EXPECT_EQ(body["messages"], json::parse(R"([
    {"role": "tool", "tool_call_id": "call_1",
     "content": "Read image a.png\n[image: see the next user message]"},
    {"role": "tool", "tool_call_id": "call_2", "content": "a.png"},
    {"role": "user", "content": [
      {"type": "text", "text": "Images from the result of tool call call_1 (read):"},
      {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}]}])"));
}

TEST(OpenAIChatRequestTest, ModelWithoutImagesGetsPlaceholdersAndHistoryIsUntouched) {
  const std::vector<core::Message> messages = {
      core::UserMessage{{core::TextBlock{"look"}, sample_png()}},
      core::ToolResultMessage{{core::ToolResult{"call_1", "read", {sample_png()}}}},
  };
  core::ProviderRequest request = chat_request(messages);
  request.model.supports_images = false;
  const json body = json::parse(build_chat_request(request, ChatDialect::kCompatible));
  EXPECT_EQ(body["messages"], json::parse(R"([
    {"role": "user", "content": "look\n[image omitted: the current model does not accept images]"},
    {"role": "tool", "tool_call_id": "call_1",
     "content": "[image omitted: the current model does not accept images]"}])"));
  ASSERT_EQ(std::get<core::UserMessage>(messages[0]).content.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<core::ImageBlock>(
      std::get<core::UserMessage>(messages[0]).content[1]));
}

TEST(OpenAIChatRequestTest, ToolSpecsAreFunctionTools) {
  const std::vector<core::Message> messages = {core::UserMessage{core::text_content("hi")}};
  core::ProviderRequest request = chat_request(messages);
  request.tools.push_back(core::ToolSpec{
      "read", "Reads a file.",
      json::parse(R"({"type":"object","properties":{"path":{"type":"string"}}})"), true});
  request.tools.push_back(core::ToolSpec{"now", "The time.", nullptr});
  const json body = json::parse(build_chat_request(request, ChatDialect::kCompatible));
  EXPECT_EQ(body["tools"], json::parse(R"([
    {"type": "function", "function": {"name": "read", "description": "Reads a file.",
      "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}},
    {"type": "function", "function": {"name": "now", "description": "The time.",
      "parameters": {"type": "object", "properties": {}}}}])"));
}

TEST(OpenAIChatRequestTest, TokenLimitUsesTheRequestedField) {
  const std::vector<core::Message> messages = {core::UserMessage{core::text_content("hi")}};
  core::ProviderRequest request = chat_request(messages);
  request.model.max_output_tokens = 4096;
  const json openai = json::parse(build_chat_request(request, ChatDialect::kOpenAI));
  EXPECT_EQ(openai["max_completion_tokens"], 4096);
  EXPECT_FALSE(openai.contains("max_tokens"));
  const json compatible = json::parse(build_chat_request(request, ChatDialect::kCompatible));
  EXPECT_EQ(compatible["max_tokens"], 4096);
  EXPECT_FALSE(compatible.contains("max_completion_tokens"));
}

TEST(OpenAIChatRequestTest, ChatDialectFollowsTheService) {
  EXPECT_EQ(chat_dialect_for("https://api.openai.com/v1"), ChatDialect::kOpenAI);
  EXPECT_EQ(chat_dialect_for("https://api.openai.com:443/v1/"), ChatDialect::kOpenAI);
  EXPECT_EQ(chat_dialect_for("https://example.openai.azure.com/openai/v1"), ChatDialect::kOpenAI);
  EXPECT_EQ(chat_dialect_for("http://localhost:11434/v1"), ChatDialect::kCompatible);
  EXPECT_EQ(chat_dialect_for("http://127.0.0.1:8080/v1"), ChatDialect::kCompatible);
  EXPECT_EQ(chat_dialect_for("https://api.openai.com.evil.example/v1"), ChatDialect::kCompatible);
}

}  // namespace
}  // namespace nib::provider
