#include "mcp/client.hpp"

#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "mcp/fake_transport.hpp"
#include "support/fake_clock.hpp"

namespace nib::mcp {
namespace {

using testing::FakeTransport;
using namespace std::chrono_literals;

struct Connected {
  FakeTransport* transport;
  std::unique_ptr<Client> client;
};

Connected connected(FakeTransport::Serve serve, core::Clock& clock = core::steady_clock()) {
  auto transport = std::make_unique<FakeTransport>([serve](const nlohmann::json& sent) {
    if (!sent.contains("id") || !sent.contains("method")) return std::vector<nlohmann::json>{};
    auto hello = testing::answer_initialize(sent);
    return hello.empty() ? serve(sent) : hello;
  });
  FakeTransport* raw = transport.get();
  auto client = std::make_unique<Client>(std::move(transport), clock);
  EXPECT_TRUE(client->connect({}, 1s).ok());
  return {raw, std::move(client)};
}

std::vector<nlohmann::json> none(const nlohmann::json&) {
  return {};
}

TEST(Client, InitializesOfferingTheCurrentRevisionThenSaysInitialized) {
  auto transport = std::make_unique<FakeTransport>(
      [](const nlohmann::json& sent) { return testing::answer_initialize(sent, "2025-06-18"); });
  FakeTransport* raw = transport.get();
  Client client(std::move(transport));
  const auto hello = client.connect({}, 1s);
  ASSERT_TRUE(hello.ok()) << hello.error();
  EXPECT_EQ(hello.value().protocol_version, "2025-06-18");
  EXPECT_EQ(hello.value().server_name, "fake");
  EXPECT_TRUE(hello.value().has_tools);
  const auto sent = raw->sent();
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[0]["method"], "initialize");
  EXPECT_EQ(sent[0]["params"]["protocolVersion"], "2025-11-25");
  EXPECT_EQ(sent[0]["params"]["clientInfo"]["name"], "nib");
  EXPECT_EQ(sent[1], make_notification("notifications/initialized", nullptr));
}

TEST(Client, RefusesARevisionItDoesNotSpeak) {
  Client client(std::make_unique<FakeTransport>(
      [](const nlohmann::json& sent) { return testing::answer_initialize(sent, "2024-11-05"); }));
  const auto hello = client.connect({}, 1s);
  ASSERT_FALSE(hello.ok());
  EXPECT_EQ(hello.error(),
            "the server speaks MCP revision \"2024-11-05\"; nib speaks 2025-11-25 and 2025-06-18");
}

TEST(Client, FollowsToolListPagesAndReadsReadOnlyHints) {
  auto server = connected([](const nlohmann::json& sent) -> std::vector<nlohmann::json> {
    if (sent["method"] != "tools/list") return {};
    if (!sent["params"].contains("cursor")) {
      return {make_response(sent["id"],
                            {{"tools", {{{"name", "a"}, {"inputSchema", {{"type", "object"}}}}}},
                             {"nextCursor", "2"}})};
    }
    EXPECT_EQ(sent["params"]["cursor"], "2");
    return {make_response(
        sent["id"], {{"tools", {{{"name", "b"}, {"annotations", {{"readOnlyHint", true}}}}}}})};
  });
  const auto tools = server.client->list_tools({}, 1s);
  ASSERT_TRUE(tools.ok()) << tools.error();
  ASSERT_EQ(tools.value().size(), 2u);
  EXPECT_EQ(tools.value()[0].name, "a");
  EXPECT_FALSE(tools.value()[0].read_only);
  EXPECT_TRUE(tools.value()[1].read_only);
}

TEST(Client, FollowsPromptListPagesAndReadsTheirArguments) {
  auto server = connected([](const nlohmann::json& sent) -> std::vector<nlohmann::json> {
    EXPECT_EQ(sent["method"], "prompts/list");
    if (!sent["params"].contains("cursor")) {
      return {
          make_response(sent["id"], {{"prompts", {{{"name", "simple"}}}}, {"nextCursor", "p2"}})};
    }
    EXPECT_EQ(sent["params"]["cursor"], "p2");
    return {make_response(
        sent["id"],
        {{"prompts",
          {{{"name", "weather"},
            {"description", "Weather of a city"},
            {"arguments",
             {{{"name", "city"}, {"description", "Name of the city"}, {"required", true}},
              {{"name", "state"}}}}}}}})};
  });
  const auto prompts = server.client->list_prompts({}, 1s);
  ASSERT_TRUE(prompts.ok()) << prompts.error();
  ASSERT_EQ(prompts.value().size(), 2u);
  EXPECT_EQ(prompts.value()[0].name, "simple");
  EXPECT_TRUE(prompts.value()[0].arguments.empty());
  const ServerPrompt& weather = prompts.value()[1];
  EXPECT_EQ(weather.description, "Weather of a city");
  ASSERT_EQ(weather.arguments.size(), 2u);
  EXPECT_EQ(weather.arguments[0].name, "city");
  EXPECT_EQ(weather.arguments[0].description, "Name of the city");
  EXPECT_TRUE(weather.arguments[0].required);
  EXPECT_FALSE(weather.arguments[1].required);
}

TEST(Client, AnEndlessCursorIsAnErrorNotALoop) {
  auto server = connected([](const nlohmann::json& sent) -> std::vector<nlohmann::json> {
    return {
        make_response(sent["id"], {{"tools", nlohmann::json::array()}, {"nextCursor", "again"}})};
  });
  const auto tools = server.client->list_tools({}, 1s);
  ASSERT_FALSE(tools.ok());
  EXPECT_EQ(tools.error(), "tools/list: the server's list did not end within 100 pages");
}

TEST(Client, AServerErrorIsAFailureOfKindError) {
  auto server = connected([](const nlohmann::json& sent) -> std::vector<nlohmann::json> {
    return {make_error_response(sent["id"], kInvalidParams, "Unknown tool: x")};
  });
  RequestFailure failure;
  const auto result = server.client->request("tools/call", {{"name", "x"}}, {}, 1s, &failure);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(failure.kind, RequestFailure::Kind::kError);
  EXPECT_EQ(result.error(), "Unknown tool: x");
}

TEST(Client, ATimeoutSendsCancelledAndReturnsAtOnce) {
  nib::testing::FakeClock clock;
  auto server = connected(&none, clock);
  RequestFailure failure;
  auto call = std::async(std::launch::async, [&] {
    return server.client->request("tools/call", {{"name", "slow"}}, {}, 120s, &failure);
  });
  clock.await_waits(1);
  clock.advance(120s);
  const auto result = call.get();
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(failure.kind, RequestFailure::Kind::kTimedOut);
  EXPECT_EQ(result.error(),
            "no answer within 120 s to tools/call (the server was asked to cancel it)");
  const auto sent = server.transport->sent();
  const nlohmann::json& request = sent[sent.size() - 2];
  EXPECT_EQ(sent.back()["method"], "notifications/cancelled");
  EXPECT_EQ(sent.back()["params"]["requestId"], request["id"]);
  // A late answer is dropped, not delivered to anyone.
  server.transport->deliver(make_response(request["id"], nlohmann::json::object()));
}

TEST(Client, AStopSendsCancelledAndReturnsAtOnce) {
  auto server = connected(&none);
  std::stop_source stop;
  RequestFailure failure;
  auto call = std::async(std::launch::async, [&] {
    return server.client->request("tools/call", {{"name", "slow"}}, stop.get_token(), 120s,
                                  &failure);
  });
  while (server.transport->sent().size() < 3) std::this_thread::yield();
  stop.request_stop();
  ASSERT_FALSE(call.get().ok());
  EXPECT_EQ(failure.kind, RequestFailure::Kind::kStopped);
  EXPECT_EQ(server.transport->sent().back()["method"], "notifications/cancelled");
}

TEST(Client, AClosedConnectionFailsTheCallsInFlightAndLaterOnes) {
  auto server = connected(&none);
  RequestFailure failure;
  auto call = std::async(std::launch::async, [&] {
    return server.client->request("tools/call", {{"name", "x"}}, {}, 120s, &failure);
  });
  while (server.transport->sent().size() < 3) std::this_thread::yield();
  server.transport->die("the server exited with status 1");
  const auto result = call.get();
  EXPECT_EQ(failure.kind, RequestFailure::Kind::kClosed);
  EXPECT_EQ(result.error(), "the server exited with status 1");
  EXPECT_TRUE(server.client->closed());
  EXPECT_EQ(server.client->request("ping", nullptr, {}, 1s).error(),
            "the server exited with status 1");
}

TEST(Client, AnswersPingRefusesOtherRequestsAndPassesOnListChanges) {
  auto server = connected(&none);
  std::vector<Client::ListKind> changes;
  server.client->set_on_list_changed([&](Client::ListKind kind) { changes.push_back(kind); });
  server.transport->deliver(make_request("p1", "ping", nullptr));
  server.transport->deliver(make_request(9, "sampling/createMessage", nlohmann::json::object()));
  server.transport->deliver(make_notification("notifications/tools/list_changed", nullptr));
  server.transport->deliver(make_notification("notifications/prompts/list_changed", nullptr));
  server.transport->deliver(make_notification("notifications/resources/list_changed", nullptr));
  const auto sent = server.transport->sent();
  EXPECT_EQ(sent[sent.size() - 2], make_response("p1", nlohmann::json::object()));
  EXPECT_EQ(sent.back()["error"]["code"], kMethodNotFound);
  EXPECT_EQ(changes,
            (std::vector<Client::ListKind>{Client::ListKind::kTools, Client::ListKind::kPrompts}));
}

}  // namespace
}  // namespace nib::mcp
