#include "provider/openai_responses_request.hpp"

#include <gtest/gtest.h>

#include <vector>

#include <nlohmann/json.hpp>

#include "provider/openai_responses.hpp"

#include "support/message_builders.hpp"

namespace nib::provider {
namespace {

using nlohmann::json;
using testing::sample_png;

core::ProviderRequest responses_request(const std::vector<core::Message>& messages) {
  return testing::request_over(messages, "gpt-test");
}

core::AssistantMessage responses_assistant(std::vector<core::AssistantBlock> blocks,
                                           std::string api = kOpenAIResponsesApi) {
  return testing::assistant_message(std::move(blocks), std::move(api));
}

// A signature as the assembler stores it for a finished reasoning item.
std::string reasoning_signature(const std::string& id, const std::string& encrypted) {
  return encode_reasoning_signature(
      {{"id", id},
       {"type", "reasoning"},
       {"status", "completed"},
       {"encrypted_content", encrypted},
       {"summary", json::array({{{"type", "summary_text"}, {"text", "Thinking."}}})}});
}

TEST(OpenAIResponsesRequestTest, StreamsStatelesslyWithInstructions) {
  const std::vector<core::Message> messages = {core::UserMessage{core::text_content("hi")}};
  core::ProviderRequest request = responses_request(messages);
  request.system_prompt = "You are nib.";
  const json body = json::parse(build_responses_request(request));
  EXPECT_EQ(body["model"], "gpt-test");
  EXPECT_EQ(body["stream"], true);
  EXPECT_EQ(body["store"], false);
  EXPECT_EQ(body["instructions"], "You are nib.");
  EXPECT_EQ(body["input"], json::parse(R"([
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}])"));
  for (const char* absent : {"tools", "max_output_tokens", "reasoning", "include"}) {
    EXPECT_FALSE(body.contains(absent)) << absent;
  }
}

TEST(OpenAIResponsesRequestTest, SendsTheSessionsPromptCacheKey) {
  const std::vector<core::Message> messages = {core::UserMessage{core::text_content("hi")}};
  core::ProviderRequest request = responses_request(messages);
  EXPECT_FALSE(json::parse(build_responses_request(request)).contains("prompt_cache_key"));
  request.cache_key = "0f3a";
  EXPECT_EQ(json::parse(build_responses_request(request))["prompt_cache_key"], "0f3a");
}

TEST(OpenAIResponsesRequestTest, OmitsEmptyInstructionsAndSendsTheTokenLimit) {
  const std::vector<core::Message> messages = {core::UserMessage{core::text_content("hi")}};
  core::ProviderRequest request = responses_request(messages);
  request.model.max_output_tokens = 4096;
  const json body = json::parse(build_responses_request(request));
  EXPECT_FALSE(body.contains("instructions"));
  EXPECT_EQ(body["max_output_tokens"], 4096);
}

TEST(OpenAIResponsesRequestTest, UserImagesBecomeDataUrlParts) {
  const std::vector<core::Message> messages = {
      core::UserMessage{{core::TextBlock{"what is this?"}, sample_png()}}};
  const json body = json::parse(build_responses_request(responses_request(messages)));
  EXPECT_EQ(body["input"][0]["content"], json::parse(R"([
    {"type": "input_text", "text": "what is this?"},
    {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo=", "detail": "auto"}])"));
}

TEST(OpenAIResponsesRequestTest, AssistantBlocksBecomeItemsInOrder) {
  const std::vector<core::Message> messages = {
      responses_assistant({core::ThinkingBlock{"Thinking.", reasoning_signature("rs_1", "enc1")},
                           core::TextBlock{"Looking."},
                           core::ToolCall{"call_1", "ls", R"({"path":"."})"},
                           core::ToolCall{"call_2", "read", R"({"path":"a)"}}),
  };
  const json body = json::parse(build_responses_request(responses_request(messages)));
  EXPECT_EQ(body["input"], json::parse(R"([
    {"type": "reasoning", "id": "rs_1", "encrypted_content": "enc1",
     "summary": [{"type": "summary_text", "text": "Thinking."}]},
    {"type": "message", "role": "assistant",
     "content": [{"type": "output_text", "text": "Looking."}]},
    {"type": "function_call", "call_id": "call_1", "name": "ls", "arguments": "{\"path\":\".\"}"},
    {"type": "function_call", "call_id": "call_2", "name": "read", "arguments": "{\"path\":\"a"}])"));
}

TEST(OpenAIResponsesRequestTest, ReasoningIsReplayedOnlyWhenItCanBe) {
  const std::string signature = reasoning_signature("rs_1", "enc1");
  const std::vector<core::Message> messages = {
      // Nothing follows the reasoning item (a reply cut short): the service would reject it.
      responses_assistant({core::ThinkingBlock{"alone", signature}}),
      // No encrypted content: with store:false the service cannot look the item up.
      responses_assistant(
          {core::ThinkingBlock{"t", reasoning_signature("rs_2", "")}, core::TextBlock{"a"}}),
      // A signature that is not a reasoning item.
      responses_assistant({core::ThinkingBlock{"t", "garbage"}, core::TextBlock{"b"}}),
      // Produced by another protocol: its signature means nothing here.
      responses_assistant({core::ThinkingBlock{"t", signature}, core::TextBlock{"c"}},
                          "anthropic-messages"),
      responses_assistant({core::ThinkingBlock{"t", signature}, core::TextBlock{"d"}},
                          "openai-chat"),
  };
  const json body = json::parse(build_responses_request(responses_request(messages)));
  ASSERT_EQ(body["input"].size(), 4u);
  for (const json& item : body["input"]) {
    EXPECT_EQ(item["type"], "message") << item.dump();
  }
}

TEST(OpenAIResponsesRequestTest, HistoryFromAnotherProtocolKeepsTextAndCalls) {
  const std::string long_id(100, 'x');
  core::ToolResult result{long_id, "ls", core::text_content("a.txt")};
  const std::vector<core::Message> messages = {
      core::UserMessage{core::text_content("list")},
      responses_assistant(
          {core::ThinkingBlock{"hmm", "EqQBCkYIBRgCKkD"}, core::TextBlock{"Sure."},
           core::ToolCall{"toolu_01A", "ls", "{}"}, core::ToolCall{long_id, "ls", "{}"}},
          "anthropic-messages"),
      core::ToolResultMessage{
          {core::ToolResult{"toolu_01A", "ls", core::text_content("b")}, result}},
  };
  const json input = json::parse(build_responses_request(responses_request(messages)))["input"];
  ASSERT_EQ(input.size(), 6u);
  EXPECT_EQ(input[1]["type"], "message");
  EXPECT_EQ(input[2]["call_id"], "toolu_01A");
  EXPECT_EQ(input[4]["call_id"], "toolu_01A");
  // An id over the service's limit is shortened the same way for the call and its result.
  const std::string sent = input[3]["call_id"];
  EXPECT_EQ(sent.size(), kMaxOpenAIIdLength);
  EXPECT_EQ(input[5]["call_id"], sent);
  EXPECT_EQ(input[5]["output"], "a.txt");
}

TEST(OpenAIResponsesRequestTest, CallIdsOverTheLimitAreShortenedDeterministically) {
  EXPECT_EQ(openai_id("call_abc"), "call_abc");
  const std::string at_limit(kMaxOpenAIIdLength, 'a');
  EXPECT_EQ(openai_id(at_limit), at_limit);
  const std::string one_more = at_limit + "b";
  const std::string other = at_limit + "c";
  EXPECT_EQ(openai_id(one_more).size(), kMaxOpenAIIdLength);
  EXPECT_EQ(openai_id(one_more), openai_id(one_more));
  EXPECT_NE(openai_id(one_more), openai_id(other));
  EXPECT_EQ(openai_id(one_more).substr(0, 10), "aaaaaaaaaa");
  // Multi-byte characters are not cut.
  std::string wide;
  for (int i = 0; i < 40; ++i) wide += "é";
  const std::string shortened = openai_id(wide);
  EXPECT_LE(shortened.size(), kMaxOpenAIIdLength);
  EXPECT_EQ(shortened.substr(0, 2), "é");
}

TEST(OpenAIResponsesRequestTest, ToolResultsBecomeFunctionCallOutputs) {
  core::ToolResult ok{"call_1", "ls", {core::TextBlock{"a.txt"}, core::TextBlock{"b.txt"}}};
  core::ToolResult failed{"call_2", "read", core::text_content("Error: no such file"), true};
  const std::vector<core::Message> messages = {core::ToolResultMessage{{ok, failed}}};
  const json body = json::parse(build_responses_request(responses_request(messages)));
  EXPECT_EQ(body["input"], json::parse(R"([
    {"type": "function_call_output", "call_id": "call_1", "output": "a.txt\nb.txt"},
    {"type": "function_call_output", "call_id": "call_2", "output": "Error: no such file"}])"));
}

TEST(OpenAIResponsesRequestTest, ToolResultImagesFollowInOneUserMessageAfterAllOutputs) {
  core::ToolResult image{"call_1", "read", {core::TextBlock{"Read image a.png"}, sample_png()}};
  core::ToolResult text{"call_2", "ls", core::text_content("a.png")};
  const std::vector<core::Message> messages = {core::ToolResultMessage{{image, text}}};
  const json body = json::parse(build_responses_request(responses_request(messages)));
  EXPECT_EQ(body["input"], json::parse(R"([
    {"type": "function_call_output", "call_id": "call_1",
     "output": "Read image a.png\n[image: see the next user message]"},
    {"type": "function_call_output", "call_id": "call_2", "output": "a.png"},
    {"type": "message", "role": "user", "content": [
      {"type": "input_text", "text": "Images from the result of tool call call_1 (read):"},
      {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo=",
       "detail": "auto"}]}])"));
}

TEST(OpenAIResponsesRequestTest, ModelWithoutImagesGetsPlaceholdersAndHistoryIsUntouched) {
  const std::vector<core::Message> messages = {
      core::UserMessage{{core::TextBlock{"look"}, sample_png()}},
      core::ToolResultMessage{{core::ToolResult{"call_1", "read", {sample_png()}}}},
  };
  core::ProviderRequest request = responses_request(messages);
  request.model.supports_images = false;
  const json body = json::parse(build_responses_request(request));
  EXPECT_EQ(body["input"], json::parse(R"([
    {"type": "message", "role": "user", "content": [
      {"type": "input_text", "text": "look"},
      {"type": "input_text", "text": "[image omitted: the current model does not accept images]"}]},
    {"type": "function_call_output", "call_id": "call_1",
     "output": "[image omitted: the current model does not accept images]"}])"));
  EXPECT_TRUE(std::holds_alternative<core::ImageBlock>(
      std::get<core::UserMessage>(messages[0]).content[1]));
}

TEST(OpenAIResponsesRequestTest, EmptyAssistantTextIsNotSent) {
  const std::vector<core::Message> messages = {
      responses_assistant({core::TextBlock{""}, core::ToolCall{"call_1", "ls", "{}"}})};
  const json input = json::parse(build_responses_request(responses_request(messages)))["input"];
  ASSERT_EQ(input.size(), 1u);
  EXPECT_EQ(input[0]["type"], "function_call");
}

TEST(OpenAIResponsesRequestTest, ToolSpecsAreFlatNonStrictFunctions) {
  const std::vector<core::Message> messages = {core::UserMessage{core::text_content("hi")}};
  core::ProviderRequest request = responses_request(messages);
  request.tools.push_back(core::ToolSpec{
      "read", "Reads a file.",
      json::parse(R"({"type":"object","properties":{"path":{"type":"string"}}})"), true});
  request.tools.push_back(core::ToolSpec{"now", "The time.", nullptr});
  const json body = json::parse(build_responses_request(request));
  EXPECT_EQ(body["tools"], json::parse(R"([
    {"type": "function", "name": "read", "description": "Reads a file.", "strict": false,
     "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}},
    {"type": "function", "name": "now", "description": "The time.", "strict": false,
     "parameters": {"type": "object", "properties": {}}}])"));
}

TEST(OpenAIResponsesRequestTest, ThinkingLevelMapsToReasoningEffort) {
  const std::vector<core::Message> messages = {core::UserMessage{core::text_content("hi")}};
  core::ProviderRequest request = responses_request(messages);
  request.model.reasoning = true;
  const std::pair<core::ThinkingLevel, const char*> levels[] = {
      {core::ThinkingLevel::kLow, "low"},
      {core::ThinkingLevel::kMedium, "medium"},
      {core::ThinkingLevel::kHigh, "high"},
  };
  for (const auto& [level, effort] : levels) {
    request.thinking = level;
    const json body = json::parse(build_responses_request(request));
    EXPECT_EQ(body["reasoning"], json({{"effort", effort}, {"summary", "auto"}}));
    EXPECT_EQ(body["include"], json::array({"reasoning.encrypted_content"}));
  }
  // Off: no effort value is accepted by every model, so none is sent; the model may still
  // reason by default, and its reasoning must come back encrypted for replay.
  request.thinking = core::ThinkingLevel::kOff;
  const json off = json::parse(build_responses_request(request));
  EXPECT_FALSE(off.contains("reasoning"));
  EXPECT_EQ(off["include"], json::array({"reasoning.encrypted_content"}));
}

TEST(OpenAIResponsesRequestTest, ModelWithoutReasoningGetsNoReasoningFields) {
  const std::vector<core::Message> messages = {core::UserMessage{core::text_content("hi")}};
  core::ProviderRequest request = responses_request(messages);
  request.thinking = core::ThinkingLevel::kHigh;
  const json body = json::parse(build_responses_request(request));
  EXPECT_FALSE(body.contains("reasoning"));
  EXPECT_FALSE(body.contains("include"));
}

TEST(OpenAIResponsesRequestTest, ReasoningSignatureKeepsWhatReplayNeeds) {
  const json item = {{"id", "rs_1"},
                     {"type", "reasoning"},
                     {"status", "completed"},
                     {"encrypted_content", "enc"},
                     {"summary", json::array()},
                     {"unknown", 1}};
  const std::string signature = encode_reasoning_signature(item);
  EXPECT_EQ(json::parse(signature), json::parse(R"(
    {"type": "reasoning", "id": "rs_1", "encrypted_content": "enc", "summary": []})"));
  EXPECT_EQ(decode_reasoning_signature(signature), json::parse(signature));
  EXPECT_EQ(encode_reasoning_signature({{"type", "message"}}), "");
  EXPECT_TRUE(decode_reasoning_signature("").is_null());
  EXPECT_TRUE(
      decode_reasoning_signature(R"({"type":"reasoning","id":"rs_1","summary":[]})").is_null());
}

}  // namespace
}  // namespace nib::provider
