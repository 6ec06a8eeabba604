// http_get_stream: a GET that returns redirects instead of following them, checks every address
// before connecting to it, and ends at its overall deadline or on abort.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <thread>

#include "net/http_stream.hpp"
#include "support/web_server.hpp"

namespace nib::net {
namespace {

using testing::LocalWebServer;
using testing::WebPage;

BodyCallback append_body_to(std::string& body) {
  return [&body](std::string_view bytes) {
    body.append(bytes);
    return BodyAction::kContinue;
  };
}

HttpGetRequest get(const std::string& url) {
  return HttpGetRequest{.url = url, .accept = "*/*"};
}

TEST(HttpGetStreamTest, DeliversTheBodyAndHeaders) {
  LocalWebServer server;
  server.page("/page", WebPage{200, "text/plain; charset=utf-8", "hello", {}});
  std::string body;
  const HttpStreamResult result =
      http_get_stream(get(server.url("/page")), {}, append_body_to(body));
  EXPECT_EQ(result.status, 200);
  EXPECT_EQ(result.transport_error, "");
  EXPECT_EQ(result.header("content-type"), "text/plain; charset=utf-8");
  EXPECT_EQ(body, "hello");
  EXPECT_EQ(result.redirect_url, "");
}

TEST(HttpGetStreamTest, ARedirectIsReturnedWithItsAbsoluteTargetAndNotFollowed) {
  LocalWebServer server;
  server.redirect("/old", "/new?x=1");
  server.page("/new", WebPage{200, "text/plain", "new", {}});
  std::string body;
  const HttpStreamResult result =
      http_get_stream(get(server.url("/old")), {}, append_body_to(body));
  EXPECT_EQ(result.status, 302);
  EXPECT_EQ(result.redirect_url, server.url("/new?x=1"));
  EXPECT_EQ(server.requests("/new"), 0u);
}

TEST(HttpGetStreamTest, TheAddressCheckSeesTheAddressConnectedToAndARefusalIsTheError) {
  LocalWebServer server;
  server.page("/page", WebPage{200, "text/plain", "secret", {}});
  std::vector<std::string> checked;
  HttpGetRequest request = get(server.url("/page"));
  request.check_address = [&](const sockaddr& address) {
    char text[INET6_ADDRSTRLEN] = {};
    EXPECT_EQ(address.sa_family, AF_INET);
    const auto& ipv4 = reinterpret_cast<const sockaddr_in&>(address);
    inet_ntop(AF_INET, &ipv4.sin_addr, text, sizeof(text));
    checked.push_back(std::string(text) + ":" + std::to_string(ntohs(ipv4.sin_port)));
    return std::string("127.0.0.1 is refused by the test");
  };
  std::string body;
  const HttpStreamResult result = http_get_stream(request, {}, append_body_to(body));
  EXPECT_EQ(result.status, 0);
  EXPECT_EQ(result.transport_error, "127.0.0.1 is refused by the test");
  EXPECT_EQ(checked, std::vector<std::string>{server.url("").substr(7)});
  EXPECT_EQ(server.requests("/page"), 0u);
  EXPECT_EQ(body, "");
}

TEST(HttpGetStreamTest, AnAllowedAddressIsConnectedTo) {
  LocalWebServer server;
  server.page("/page", WebPage{200, "text/plain", "fine", {}});
  HttpGetRequest request = get(server.url("/page"));
  request.check_address = [](const sockaddr&) { return std::string(); };
  std::string body;
  EXPECT_EQ(http_get_stream(request, {}, append_body_to(body)).status, 200);
  EXPECT_EQ(body, "fine");
}

TEST(HttpGetStreamTest, TheOverallTimeoutEndsAServerThatNeverAnswers) {
  LocalWebServer server;
  server.held("/slow", WebPage{});
  HttpGetRequest request = get(server.url("/slow"));
  request.total_timeout = std::chrono::milliseconds(50);
  std::string body;
  const HttpStreamResult result = http_get_stream(request, {}, append_body_to(body));
  EXPECT_TRUE(result.timed_out);
  EXPECT_NE(result.transport_error, "");
  EXPECT_EQ(server.requests("/slow"), 1u);
}

TEST(HttpGetStreamTest, AbortEndsTheWaitForAHeldAnswer) {
  LocalWebServer server;
  server.held("/slow", WebPage{});
  std::stop_source stop;
  HttpStreamResult result;
  std::string body;
  std::thread client([&] {
    result = http_get_stream(get(server.url("/slow")), stop.get_token(), append_body_to(body));
  });
  server.wait_for_request("/slow");
  stop.request_stop();
  client.join();
  EXPECT_TRUE(result.aborted);
  EXPECT_FALSE(result.timed_out);
}

TEST(HttpGetStreamTest, OtherSchemesAreRefused) {
  std::string body;
  const HttpStreamResult result =
      http_get_stream(get("file:///etc/passwd"), {}, append_body_to(body));
  EXPECT_NE(result.transport_error, "");
  EXPECT_EQ(body, "");
}

}  // namespace
}  // namespace nib::net
