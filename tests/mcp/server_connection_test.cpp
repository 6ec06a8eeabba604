#include "mcp/server_connection.hpp"

#include <gtest/gtest.h>

#include "mcp/fake_transport.hpp"

namespace nib::mcp {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

// A connection to a FakeTransport playing `serve` (after initialize, answered with
// `capabilities`); `transport` is set to it once the connection makes it.
ServerConnection connection_to(const json& capabilities, testing::FakeTransport::Serve serve,
                               testing::FakeTransport*& transport) {
  ServerConfig config;
  config.name = "fake";
  config.command = "fake-server";
  config.args = {"--flag"};
  ConnectionOptions options{
      1s, 1s, &core::steady_clock(), [&transport, capabilities, serve](const ServerConfig&) {
        auto fake = std::make_unique<testing::FakeTransport>(
            [capabilities, serve](const json& sent) -> std::vector<json> {
              if (!sent.contains("id") || !sent.contains("method")) return {};
              if (sent["method"] == "initialize") {
                return {make_response(sent["id"], {{"protocolVersion", "2025-11-25"},
                                                   {"capabilities", capabilities}})};
              }
              if (sent["method"] == "tools/list") {
                return {make_response(sent["id"], {{"tools", json::array()}})};
              }
              return serve(sent);
            });
        transport = fake.get();
        return util::Result<std::unique_ptr<Transport>>(std::move(fake));
      }};
  return ServerConnection(config, options);
}

std::vector<json> no_prompts(const json& sent) {
  return {make_response(sent["id"], {{"prompts", json::array()}})};
}

TEST(ServerConnection, ListsPromptsOnlyWhenTheServerOffersThem) {
  testing::FakeTransport* transport = nullptr;
  ServerConnection connection = connection_to({{"tools", json::object()}}, &no_prompts, transport);
  ASSERT_TRUE(connection.start({}).ok());
  for (const json& sent : transport->sent()) EXPECT_NE(sent.value("method", ""), "prompts/list");
  EXPECT_TRUE(connection.list_prompts({}).ok());
  for (const json& sent : transport->sent()) EXPECT_NE(sent.value("method", ""), "prompts/list");
  EXPECT_EQ(connection.status().transport, "stdio: fake-server --flag");

  ServerConnection offering = connection_to(
      {{"tools", json::object()}, {"prompts", json::object()}},
      [](const json& sent) -> std::vector<json> {
        return {make_response(sent["id"], {{"prompts", {{{"name", "p"}}}}})};
      },
      transport);
  ASSERT_TRUE(offering.start({}).ok());
  ASSERT_EQ(offering.status().prompts.size(), 1u);
  EXPECT_EQ(offering.status().prompts[0].name, "p");
}

TEST(ServerConnection, APromptsMessagesOfEveryRoleBecomeOneTurnsContent) {
  testing::FakeTransport* transport = nullptr;
  ServerConnection connection = connection_to(
      {{"prompts", json::object()}},
      [](const json& sent) -> std::vector<json> {
        if (sent["method"] == "prompts/list") return no_prompts(sent);
        EXPECT_EQ(sent["params"], (json{{"name", "review"}, {"arguments", {{"file", "a.c"}}}}));
        return {make_response(
            sent["id"],
            {{"messages",
              {{{"role", "user"}, {"content", {{"type", "text"}, {"text", "Review a.c"}}}},
               {{"role", "assistant"},
                {"content", {{"type", "image"}, {"data", "AAAA"}, {"mimeType", "image/png"}}}},
               {{"role", "user"},
                {"content",
                 {{"type", "resource"},
                  {"resource",
                   {{"uri", "file:///a.c"}, {"mimeType", "text/x-c"}, {"text", "int x;"}}}}}}}}})};
      },
      transport);
  ASSERT_TRUE(connection.start({}).ok());
  const auto content = connection.get_prompt("review", {{"file", "a.c"}}, {});
  ASSERT_TRUE(content.ok()) << content.error();
  ASSERT_EQ(content.value().size(), 3u);
  EXPECT_EQ(std::get<core::TextBlock>(content.value()[0]).text, "Review a.c");
  EXPECT_EQ(std::get<core::ImageBlock>(content.value()[1]).mime_type, "image/png");
  EXPECT_NE(std::get<core::TextBlock>(content.value()[2]).text.find("int x;"), std::string::npos);
}

TEST(ServerConnection, APromptWithoutMessagesIsAFailureThatSaysSo) {
  testing::FakeTransport* transport = nullptr;
  ServerConnection connection = connection_to(
      {{"prompts", json::object()}},
      [](const json& sent) -> std::vector<json> {
        if (sent["method"] == "prompts/list") return no_prompts(sent);
        return {make_response(sent["id"], {{"messages", json::array()}})};
      },
      transport);
  ASSERT_TRUE(connection.start({}).ok());
  const auto content = connection.get_prompt("empty", json::object(), {});
  ASSERT_FALSE(content.ok());
  EXPECT_EQ(content.error(), "the MCP server fake's prompt empty has no messages");
}

}  // namespace
}  // namespace nib::mcp
