#include "mcp/json_rpc.hpp"

#include <gtest/gtest.h>

namespace nib::mcp {
namespace {

TEST(JsonRpc, ReadsRequestsNotificationsAndResponses) {
  auto request = parse_message(R"({"jsonrpc":"2.0","id":7,"method":"ping"})");
  ASSERT_TRUE(request.ok());
  EXPECT_EQ(request.value().kind, Incoming::Kind::kRequest);
  EXPECT_EQ(request.value().id, 7);
  EXPECT_EQ(request.value().method, "ping");

  auto notification =
      parse_message(R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})");
  ASSERT_TRUE(notification.ok());
  EXPECT_EQ(notification.value().kind, Incoming::Kind::kNotification);

  auto response = parse_message(R"({"jsonrpc":"2.0","id":"a","result":{"x":1}})");
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(response.value().kind, Incoming::Kind::kResponse);
  EXPECT_EQ(response.value().result["x"], 1);

  auto error = parse_message(
      R"({"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Unknown tool: x"}})");
  ASSERT_TRUE(error.ok());
  ASSERT_TRUE(error.value().error.has_value());
  EXPECT_EQ(describe(*error.value().error), "Unknown tool: x (code -32602)");
}

TEST(JsonRpc, SaysWhatIsWrongWithAMessage) {
  EXPECT_EQ(parse_message("npm WARN something").error(), "not JSON");
  EXPECT_EQ(parse_message("[1]").error(), "a JSON-RPC batch, which MCP does not use");
  EXPECT_EQ(parse_message(R"({"id":1,"result":{}})").error(),
            "not JSON-RPC 2.0 (no \"jsonrpc\": \"2.0\")");
  EXPECT_EQ(parse_message(R"({"jsonrpc":"2.0","id":1})").error(),
            "a response with neither result nor error");
  EXPECT_FALSE(parse_message(R"({"jsonrpc":"2.0","id":{},"method":"x"})").ok());
}

TEST(JsonRpc, BuildsMessagesWithoutEmptyParams) {
  EXPECT_EQ(make_request(1, "tools/list", nullptr).dump(),
            R"({"id":1,"jsonrpc":"2.0","method":"tools/list"})");
  EXPECT_EQ(make_notification("notifications/cancelled", {{"requestId", 3}}).dump(),
            R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}})");
  EXPECT_EQ(make_error_response(4, kMethodNotFound, "no").dump(),
            R"({"error":{"code":-32601,"message":"no"},"id":4,"jsonrpc":"2.0"})");
}

}  // namespace
}  // namespace nib::mcp
