#include "provider/http_stream.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "support/mock_model_server.hpp"

namespace nib::provider {
namespace {

using testing::MockReply;

HttpRequest post_to(const testing::MockModelServer& server) {
  return HttpRequest{server.base_url() + "/chat/completions", R"({"model":"m"})", "", {}};
}

// A loopback socket that accepts connections but never answers: the server that "sends
// nothing".
class SilentServer {
 public:
  SilentServer() {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
        ::listen(listener_, 4) != 0 ||
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      ADD_FAILURE() << "cannot open a loopback socket";
      return;
    }
    port_ = ntohs(address.sin_port);
  }
  ~SilentServer() {
    if (connection_ >= 0) ::close(connection_);
    if (listener_ >= 0) ::close(listener_);
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1/x"; }
  // Blocks until the client has connected.
  void accept_one() { connection_ = ::accept(listener_, nullptr, nullptr); }

 private:
  int listener_ = -1;
  int connection_ = -1;
  int port_ = 0;
};

TEST(HttpStreamTest, DeliversTheBodyAndHeaders) {
  testing::MockModelServer server;
  server.enqueue(MockReply::text("hi"));
  std::string body;
  const HttpStreamResult result =
      http_post_stream(post_to(server), {}, [&](std::string_view bytes) {
        body.append(bytes);
        return BodyAction::kContinue;
      });
  EXPECT_EQ(result.status, 200);
  EXPECT_EQ(result.transport_error, "");
  EXPECT_FALSE(result.aborted);
  EXPECT_EQ(result.header("content-type"), "text/event-stream");
  EXPECT_NE(body.find("\"content\":\"hi\""), std::string::npos);
  EXPECT_TRUE(body.ends_with("data: [DONE]\n\n"));
}

TEST(HttpStreamTest, ErrorBodyGoesToABoundedExcerptNotTheCallback) {
  testing::MockModelServer server;
  server.enqueue(MockReply::http_error(503, std::string(50000, 'e'), {{"Retry-After", "7"}}));
  bool called = false;
  const HttpStreamResult result = http_post_stream(post_to(server), {}, [&](std::string_view) {
    called = true;
    return BodyAction::kContinue;
  });
  EXPECT_EQ(result.status, 503);
  EXPECT_FALSE(called);
  EXPECT_EQ(result.error_body, std::string(kErrorBodyExcerptBytes, 'e'));
  EXPECT_EQ(result.header("retry-after"), "7");
  EXPECT_EQ(result.transport_error, "");
}

TEST(HttpStreamTest, CallbackCanStopTheTransfer) {
  testing::MockModelServer server;
  server.enqueue(MockReply::text("a long reply in many pieces", 10));
  int calls = 0;
  const HttpStreamResult result = http_post_stream(post_to(server), {}, [&](std::string_view) {
    ++calls;
    return BodyAction::kStop;
  });
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(result.stopped_by_callback);
  EXPECT_EQ(result.transport_error, "");
}

TEST(HttpStreamTest, CompleteStopsWaitingForAServerThatNeverEndsItsResponse) {
  testing::MockModelServer server;
  server.enqueue(MockReply::text("everything", 1).hold_after_chunks(1));
  int calls = 0;
  const HttpStreamResult result = http_post_stream(post_to(server), {}, [&](std::string_view) {
    ++calls;
    return BodyAction::kComplete;
  });
  // Returned without the server releasing its hold, and without calling back again.
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(result.stopped_by_callback);
  EXPECT_FALSE(result.aborted);
  EXPECT_EQ(result.transport_error, "");
}

TEST(HttpStreamTest, AbortWhileTheServerSendsNothing) {
  SilentServer silent;
  std::stop_source stop;
  HttpStreamResult result;
  std::thread client([&] {
    result = http_post_stream({silent.url(), "{}", "", {}}, stop.get_token(),
                              [](std::string_view) { return BodyAction::kContinue; });
  });
  silent.accept_one();
  stop.request_stop();
  client.join();  // curl_multi_poll is woken; no response ever arrives
  EXPECT_TRUE(result.aborted);
  EXPECT_EQ(result.status, 0);
}

TEST(HttpStreamTest, RefusedConnectionIsATransportError) {
  const HttpStreamResult result =
      http_post_stream({"http://127.0.0.1:1/", "{}", "", {}}, {},
                       [](std::string_view) { return BodyAction::kContinue; });
  EXPECT_FALSE(result.aborted);
  EXPECT_EQ(result.status, 0);
  EXPECT_NE(result.transport_error, "");
}

TEST(HttpStreamTest, OtherSchemesAreRefused) {
  const HttpStreamResult result =
      http_post_stream({"file:///etc/passwd", "{}", "", {}}, {},
                       [](std::string_view) { return BodyAction::kContinue; });
  EXPECT_NE(result.transport_error, "");
}

}  // namespace
}  // namespace nib::provider
