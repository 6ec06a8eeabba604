#include "mcp/http_transport.hpp"

#include <condition_variable>
#include <list>
#include <mutex>
#include <optional>
#include <thread>

#include "mcp/limits.hpp"
#include "net/http_stream.hpp"
#include "net/sse_parser.hpp"
#include "util/json_text.hpp"

namespace nib::mcp {
namespace {

constexpr const char* kSessionHeader = "Mcp-Session-Id";
constexpr const char* kVersionHeader = "MCP-Protocol-Version";

// Reads a response body as it arrives: a JSON body (told by its first byte) is one message,
// delivered when the body ends; anything else is an SSE stream whose events' data are messages.
class BodyReader {
 public:
  explicit BodyReader(std::function<void(std::string_view)> on_message)
      : on_message_(std::move(on_message)), sse_(kMaxLineBytes) {}

  // False once the body grew past its limit.
  bool feed(std::string_view bytes) {
    if (!mode_) {
      const std::size_t first = bytes.find_first_not_of(" \t\r\n");
      if (first == std::string_view::npos) return true;
      mode_ = bytes[first] == '{' || bytes[first] == '[' ? Mode::kJson : Mode::kSse;
    }
    if (*mode_ == Mode::kJson) {
      if (json_.size() + bytes.size() > kMaxLineBytes) return false;
      json_.append(bytes);
      return true;
    }
    for (const net::SseEvent& event : sse_.feed(bytes)) deliver(event);
    return !sse_.overflowed();
  }

  void finish() {
    if (mode_ == Mode::kJson) {
      on_message_(json_);
    } else if (mode_ == Mode::kSse) {
      for (const net::SseEvent& event : sse_.finish()) deliver(event);
    }
  }

 private:
  enum class Mode { kJson, kSse };
  void deliver(const net::SseEvent& event) {
    if (event.event == "message" && !event.data.empty()) on_message_(event.data);
  }

  std::function<void(std::string_view)> on_message_;
  std::optional<Mode> mode_;
  std::string json_;
  net::SseParser sse_;
};

class HttpTransport final : public Transport {
 public:
  explicit HttpTransport(HttpEndpoint endpoint) : endpoint_(std::move(endpoint)) {}
  ~HttpTransport() override { close(); }

  util::Status open(TransportHandlers handlers) override {
    handlers_ = std::move(handlers);
    return util::Status::success();
  }

  util::Status send(const nlohmann::json& message) override {
    std::unique_lock lock(mutex_);
    // Nothing goes out while initialize is answered: its answer carries the session id that
    // every later message must send.
    changed_.wait(lock, [&] { return !initializing_ || closed_; });
    if (closed_) return util::Status::failure("the connection to the server is closed");
    std::list<Post> finished = take_finished();
    if (message.value("method", "") == "initialize") initializing_ = true;
    auto& post = posts_.emplace_back();
    post.id = message.contains("method") ? message.value("id", nlohmann::json()) : nullptr;
    post.thread = std::jthread([this, &post, body = util::json_text(message),
                                request = build_request()](std::stop_token stop) mutable {
      request.body = std::move(body);
      run_post(post, request, stop);
    });
    lock.unlock();
    finished.clear();  // joins threads that have ended, outside the lock
    return util::Status::success();
  }

  void abandon(const nlohmann::json& id) override {
    std::lock_guard lock(mutex_);
    for (Post& post : posts_) {
      if (post.id == id) post.thread.request_stop();
    }
  }

  void close() override {
    std::list<Post> posts;
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
      posts.swap(posts_);
    }
    changed_.notify_all();
    for (Post& post : posts) post.thread.request_stop();
    posts.clear();  // joins
  }

 private:
  struct Post {
    nlohmann::json id;  // the request's, null for a notification or a response
    std::jthread thread;
    bool done = false;
  };

  net::HttpRequest build_request() const {
    net::HttpRequest request;
    request.url = endpoint_.url;
    request.accept = "application/json, text/event-stream";
    request.headers = endpoint_.headers;
    if (!session_id_.empty()) request.headers.emplace_back(kSessionHeader, session_id_);
    if (!protocol_version_.empty()) request.headers.emplace_back(kVersionHeader, protocol_version_);
    return request;
  }

  void run_post(Post& post, const net::HttpRequest& request, std::stop_token stop) {
    const nlohmann::json id = post.id;
    bool answered = false;
    BodyReader reader([&](std::string_view text) {
      auto message = parse_message(text);
      if (!message.ok()) return;  // not a message: nothing to deliver
      if (message.value().kind == Incoming::Kind::kResponse && message.value().id == id) {
        answered = true;
        remember_version(message.value());
      }
      if (handlers_.on_message) handlers_.on_message(std::move(message.value()));
    });
    const net::HttpStreamResult result = net::http_post_stream(
        request, stop,
        [&](std::string_view bytes) {
          return reader.feed(bytes) ? net::BodyAction::kContinue : net::BodyAction::kStop;
        },
        &pool_);
    if (result.status < 400 && result.transport_error.empty() && !result.aborted) reader.finish();
    const bool lost_session = result.status == 404 && had_session(request);
    {
      std::lock_guard lock(mutex_);
      if (const std::string session = result.header("mcp-session-id"); !session.empty()) {
        session_id_ = session;
      }
      initializing_ = false;
    }
    changed_.notify_all();
    if (!id.is_null() && !answered && !result.aborted) {
      if (handlers_.on_message) handlers_.on_message(no_answer(id, failure_text(result)));
    }
    if (lost_session && handlers_.on_closed) {
      handlers_.on_closed("the server no longer knows the session (HTTP 404)");
    }
    // Last: from here the thread only returns, so a join under way cannot wait on a handler.
    std::lock_guard lock(mutex_);
    post.done = true;
  }

  bool had_session(const net::HttpRequest& request) const {
    for (const auto& [name, value] : request.headers) {
      if (name == kSessionHeader) return true;
    }
    return false;
  }

  // An initialize answer names the protocol revision later messages declare.
  void remember_version(const Incoming& response) {
    if (!response.result.is_object()) return;
    const auto version = response.result.find("protocolVersion");
    if (version == response.result.end() || !version->is_string()) return;
    std::lock_guard lock(mutex_);
    protocol_version_ = version->get<std::string>();
  }

  std::string failure_text(const net::HttpStreamResult& result) const {
    if (!result.transport_error.empty()) {
      return "cannot reach " + endpoint_.url + ": " + result.transport_error;
    }
    if (result.status >= 400) {
      std::string text = "the server answered HTTP " + std::to_string(result.status);
      if (!result.error_body.empty()) text += ": " + result.error_body;
      return text;
    }
    return "the server's response ended without an answer to the request";
  }

  // The POSTs whose threads have ended (mutex_ held), for the caller to join once unlocked.
  std::list<Post> take_finished() {
    std::list<Post> finished;
    for (auto it = posts_.begin(); it != posts_.end();) {
      const auto next = std::next(it);
      if (it->done) finished.splice(finished.end(), posts_, it);
      it = next;
    }
    return finished;
  }

  const HttpEndpoint endpoint_;
  TransportHandlers handlers_;
  net::ConnectionPool pool_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool initializing_ = false;
  bool closed_ = false;
  std::string session_id_;
  std::string protocol_version_;
  std::list<Post> posts_;
};

}  // namespace

std::unique_ptr<Transport> make_http_transport(HttpEndpoint endpoint) {
  return std::make_unique<HttpTransport>(std::move(endpoint));
}

}  // namespace nib::mcp
