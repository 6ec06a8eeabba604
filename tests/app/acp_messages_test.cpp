// The pieces of `nib acp` that read what a client sends: its MCP servers in nib's own document
// shape, prompt blocks, and a permission answer (whatever it says, nothing but a chosen
// allow runs the call).

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "acp/client_servers.hpp"
#include "acp/permission_request.hpp"
#include "acp/prompt_content.hpp"

namespace nib::testing {
namespace {

using nlohmann::json;

TEST(AcpClientServers, StdioAndHttpServersBecomeAnMcpServerDocument) {
  const auto document = acp::client_servers(json::parse(R"([
      {"name":"fs","command":"/usr/bin/mcp-fs","args":["--root","/w"],"env":[{"name":"K","value":"V"}]},
      {"type":"http","name":"web","url":"https://h/mcp","headers":[{"name":"Authorization","value":"Bearer x"}]}])"));
  ASSERT_TRUE(document.ok()) << document.error();
  EXPECT_EQ(document.value(), json::parse(R"({"mcpServers":{
      "fs":{"command":"/usr/bin/mcp-fs","args":["--root","/w"],"env":{"K":"V"}},
      "web":{"type":"http","url":"https://h/mcp","headers":{"Authorization":"Bearer x"}}}})"));
  EXPECT_TRUE(acp::client_servers(json::array()).value().is_null());
}

TEST(AcpClientServers, WhatNibCannotRunIsNamed) {
  const auto sse = acp::client_servers(
      json::parse(R"([{"type":"sse","name":"old","url":"https://h/sse","headers":[]}])"));
  ASSERT_FALSE(sse.ok());
  EXPECT_NE(sse.error().find("mcpServers[0] (old)"), std::string::npos) << sse.error();
  EXPECT_FALSE(
      acp::client_servers(json::parse(R"([{"name":"x","command":"c","env":{"K":"V"}}])")).ok());
  EXPECT_FALSE(acp::client_servers(json::parse(R"([{"command":"c"}])")).ok());
  EXPECT_FALSE(acp::client_servers(json::parse(R"({"fs":{}})")).ok());
}

TEST(AcpPromptContent, EveryBlockKindIsTakenOrRefusedByName) {
  const auto content = acp::prompt_content(json::parse(R"([
      {"type":"text","text":"look"},
      {"type":"image","data":"AAAA","mimeType":"image/png"},
      {"type":"resource","resource":{"uri":"file:///w/a.c","text":"int main(){}"}},
      {"type":"resource_link","uri":"file:///w/b.c","name":"b.c"}])"));
  ASSERT_TRUE(content.ok()) << content.error();
  ASSERT_EQ(content.value().size(), 4u);
  EXPECT_EQ(std::get<core::TextBlock>(content.value()[0]).text, "look");
  EXPECT_EQ(std::get<core::ImageBlock>(content.value()[1]).mime_type, "image/png");
  EXPECT_EQ(std::get<core::TextBlock>(content.value()[2]).text,
            "<context ref=\"file:///w/a.c\">\nint main(){}\n</context>");
  EXPECT_EQ(std::get<core::TextBlock>(content.value()[3]).text, "(see file:///w/b.c)");

  const auto audio = acp::prompt_content(
      json::parse(R"([{"type":"audio","data":"AAAA","mimeType":"audio/wav"}])"));
  ASSERT_FALSE(audio.ok());
  EXPECT_EQ(audio.error(), "prompt[0]: nib does not take audio content");
  EXPECT_FALSE(acp::prompt_content(json::parse(R"([{"type":"text","text":5}])")).ok());
  EXPECT_FALSE(acp::prompt_content(json::parse(R"([null])")).ok());
  EXPECT_FALSE(acp::prompt_content(json::parse(R"("text")")).ok());
}

TEST(AcpPermissionAnswer, OnlyAChosenAllowRunsTheCall) {
  using permissions::ApprovalAnswer;
  const auto chosen = [](const std::string& option) {
    return acp::permission_answer({{"outcome", {{"outcome", "selected"}, {"optionId", option}}}});
  };
  EXPECT_EQ(chosen("allow_once").answer, ApprovalAnswer::kYes);
  EXPECT_EQ(chosen("allow_always").answer, ApprovalAnswer::kAlways);
  EXPECT_EQ(chosen("reject_once").answer, ApprovalAnswer::kNo);
  EXPECT_FALSE(chosen("reject_once").always);
  EXPECT_EQ(chosen("reject_always").answer, ApprovalAnswer::kNo);
  EXPECT_TRUE(chosen("reject_always").always);
  EXPECT_EQ(chosen("something_else").answer, ApprovalAnswer::kNo);
  EXPECT_EQ(acp::permission_answer({{"outcome", {{"outcome", "cancelled"}}}}).answer,
            ApprovalAnswer::kNo);
  EXPECT_EQ(acp::permission_answer(nullptr).answer, ApprovalAnswer::kNo);
  EXPECT_EQ(acp::permission_answer(json::parse(R"({"outcome":"selected"})")).answer,
            ApprovalAnswer::kNo);
}

}  // namespace
}  // namespace nib::testing
