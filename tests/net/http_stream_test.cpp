#include "net/http_stream.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <latch>
#include <thread>

#include "support/mock_model_server.hpp"

namespace nib::net {
namespace {

using testing::MockReply;

HttpRequest post_to(const testing::MockModelServer& server) {
  return HttpRequest{server.base_url() + "/chat/completions", R"({"model":"m"})", "", {}};
}

// A completion grace no test reaches: a request waits for an ending connection until the
// server ends it, never until the clock says so (a wrong wait hangs the test instead).
constexpr std::chrono::hours kPatientGrace{1};

// A body callback whose reply is complete with its first piece.
BodyAction complete_at_once(std::string_view) {
  return BodyAction::kComplete;
}

// A body callback that keeps the whole body in `body`.
BodyCallback collect_into(std::string& body) {
  return [&body](std::string_view bytes) {
    body.append(bytes);
    return BodyAction::kContinue;
  };
}

// The whole reply arrived: a successful status and the stream's last event.
void expect_whole_reply(const HttpStreamResult& result, const std::string& body) {
  EXPECT_EQ(result.status, 200);
  EXPECT_EQ(result.transport_error, "");
  EXPECT_TRUE(body.ends_with("data: [DONE]\n\n")) << body;
}

// Headers and the first chunk of a chunked body that never ends.
constexpr const char* kEndlessChunkedReply =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
    "6\r\ndata: \r\n";
// More than a loopback connection's send and receive buffers hold (a few MiB at most).
constexpr std::size_t kLargerThanSocketBuffers = 32 << 20;

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
  // Reads (part of) the request and sends `response`, which need not be a whole response.
  void answer(const std::string& response) {
    char buffer[4096];
    if (::recv(connection_, buffer, sizeof(buffer), 0) <= 0 ||
        ::send(connection_, response.data(), response.size(), MSG_NOSIGNAL) !=
            static_cast<ssize_t>(response.size())) {
      ADD_FAILURE() << "cannot answer the request";
    }
  }
  // Blocks until the client has closed the connection (the rest of the request is discarded).
  bool wait_for_close() {
    char buffer[4096];
    ssize_t received = 0;
    do {
      received = ::recv(connection_, buffer, sizeof(buffer), 0);
    } while (received > 0);
    return received == 0;
  }

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

TEST(ConnectionPoolTest, CompleteReturnsBeforeTheResponseEndsAndItsConnectionIsReused) {
  testing::MockModelServer server;
  server.enqueue(MockReply::text("first", 1).hold_after_chunks(1));
  server.enqueue(MockReply::text("second"));
  ConnectionPool pool(kPatientGrace);
  const HttpStreamResult first = http_post_stream(post_to(server), {}, complete_at_once, &pool);
  EXPECT_EQ(first.status, 200);
  EXPECT_EQ(first.transport_error, "");
  // Returned although the server holds the rest of its reply until the test releases it.
  EXPECT_FALSE(server.requests().at(0).reply_completed_at);

  server.release();
  std::string body;
  const HttpStreamResult second = http_post_stream(post_to(server), {}, collect_into(body), &pool);
  expect_whole_reply(second, body);
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_TRUE(requests[0].reply_completed_at);  // the first response was read to its end
  EXPECT_EQ(requests[1].remote_port, requests[0].remote_port);
}

TEST(ConnectionPoolTest, AResponseThatDoesNotEndInItsGraceIsCutAndANewConnectionOpened) {
  testing::MockModelServer server;
  server.enqueue(MockReply::text("never ends", 1).hold_after_chunks(1));
  server.enqueue(MockReply::text("second"));
  ConnectionPool pool(std::chrono::milliseconds(0));  // every ending connection is overdue
  http_post_stream(post_to(server), {}, complete_at_once, &pool);
  std::string body;
  const HttpStreamResult second = http_post_stream(post_to(server), {}, collect_into(body), &pool);
  expect_whole_reply(second, body);
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_FALSE(requests[0].reply_completed_at);
  EXPECT_NE(requests[1].remote_port, requests[0].remote_port);
}

TEST(ConnectionPoolTest, AnEndingResponseThatBreaksDoesNotPoisonThePool) {
  testing::MockModelServer server;
  // After the release: the rest of the events, then the connection drops without the body's end.
  server.enqueue(MockReply::text("breaks", 1).disconnect_after(3).hold_after_chunks(1));
  server.enqueue(MockReply::text("second"));
  server.enqueue(MockReply::text("third"));
  ConnectionPool pool(kPatientGrace);
  http_post_stream(post_to(server), {}, complete_at_once, &pool);
  server.release();
  std::string second_body, third_body;
  const HttpStreamResult second =
      http_post_stream(post_to(server), {}, collect_into(second_body), &pool);
  const HttpStreamResult third =
      http_post_stream(post_to(server), {}, collect_into(third_body), &pool);
  expect_whole_reply(second, second_body);
  expect_whole_reply(third, third_body);
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_NE(requests[1].remote_port, requests[0].remote_port);  // the broken one was closed
  EXPECT_EQ(requests[2].remote_port, requests[1].remote_port);  // and its successor reused
}

TEST(ConnectionPoolTest, AnAbortWhileWaitingForAnEndingConnectionLeavesItForTheNextRequest) {
  testing::MockModelServer server;
  server.enqueue(MockReply::text("first", 1).hold_after_chunks(1));
  server.enqueue(MockReply::text("third"));
  ConnectionPool pool(kPatientGrace);
  http_post_stream(post_to(server), {}, complete_at_once, &pool);

  std::stop_source stop;
  HttpStreamResult aborted;
  std::thread waiting([&] {
    aborted = http_post_stream(
        post_to(server), stop.get_token(), [](std::string_view) { return BodyAction::kContinue; },
        &pool);
  });
  stop.request_stop();  // the connection is still ending: only the stop can end this wait
  waiting.join();
  EXPECT_TRUE(aborted.aborted);

  server.release();
  std::string body;
  const HttpStreamResult third = http_post_stream(post_to(server), {}, collect_into(body), &pool);
  expect_whole_reply(third, body);
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);  // the aborted request never went out
  EXPECT_EQ(requests[1].remote_port, requests[0].remote_port);
}

TEST(ConnectionPoolTest, AnIdleConnectionIsPreferredToOneStillEnding) {
  testing::MockModelServer server;
  server.enqueue(MockReply::text("first", 1).hold_after_chunks(1));  // held until the end
  server.enqueue(MockReply::text("second"));
  server.enqueue(MockReply::text("third"));
  ConnectionPool pool(kPatientGrace);
  // The first request keeps its connection busy (its callback waits) while the second one
  // needs another; then the first completes and leaves its connection ending.
  std::latch second_done(1);
  std::thread first([&] {
    http_post_stream(
        post_to(server), {},
        [&](std::string_view) {
          second_done.wait();
          return BodyAction::kComplete;
        },
        &pool);
  });
  ASSERT_TRUE(server.wait_for_requests(1));
  std::string second_body;
  http_post_stream(post_to(server), {}, collect_into(second_body), &pool);
  second_done.count_down();
  first.join();

  // Waiting for the held connection would never end (the test releases it only afterwards).
  std::string third_body;
  const HttpStreamResult third =
      http_post_stream(post_to(server), {}, collect_into(third_body), &pool);
  expect_whole_reply(third, third_body);
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[2].remote_port, requests[1].remote_port);
}

TEST(ConnectionPoolTest, DestroyingThePoolClosesAConnectionStillEnding) {
  SilentServer server;
  std::thread serve([&] {
    server.accept_one();
    server.answer(kEndlessChunkedReply);
  });
  {
    ConnectionPool pool(kPatientGrace);
    const HttpStreamResult result =
        http_post_stream({server.url(), "{}", "", {}}, {}, complete_at_once, &pool);
    EXPECT_EQ(result.status, 200);
    serve.join();
  }  // a destructor that waited for the response's end would never return
  EXPECT_TRUE(server.wait_for_close());
}

TEST(ConnectionPoolTest, AReplyCompleteBeforeItsRequestWasSentClosesTheConnection) {
  SilentServer server;
  std::thread serve([&] {
    server.accept_one();
    // Answers after the first piece of a request far larger than the sockets' buffers.
    server.answer(kEndlessChunkedReply);
  });
  ConnectionPool pool(kPatientGrace);
  {
    // curl reads the body from the request while it sends it: a transfer kept ending would
    // read it after the request is gone.
    const HttpRequest request{server.url(), std::string(kLargerThanSocketBuffers, ' '), "", {}};
    const HttpStreamResult result = http_post_stream(request, {}, complete_at_once, &pool);
    EXPECT_EQ(result.status, 200);
  }
  serve.join();
  EXPECT_TRUE(server.wait_for_close());
}

// The peer port of socket `fd`, or 0 when it is not a connected TCP socket.
int peer_port(int fd) {
  struct stat status {};
  sockaddr_in address{};
  socklen_t length = sizeof(address);
  if (::fstat(fd, &status) != 0 || !S_ISSOCK(status.st_mode) ||
      ::getpeername(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0 ||
      address.sin_family != AF_INET) {
    return 0;
  }
  return ntohs(address.sin_port);
}

TEST(ConnectionPoolTest, ConnectionsAreNotInheritedByChildProcesses) {
  testing::MockModelServer server;
  server.enqueue(MockReply::text("first", 1).hold_after_chunks(1));
  ConnectionPool pool(kPatientGrace);
  http_post_stream(post_to(server), {}, complete_at_once, &pool);  // the connection stays open
  int connections = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    const int fd = std::stoi(entry.path().filename().string());
    if (peer_port(fd) != server.port()) continue;
    ++connections;
    EXPECT_NE(::fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
  }
  EXPECT_EQ(connections, 1);
}

}  // namespace
}  // namespace nib::net
