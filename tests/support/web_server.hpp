#pragma once
// A local web server for tests of fetching pages (the web_fetch tool, GETs over libcurl): it
// answers GETs on 127.0.0.1 (an ephemeral port) from pages, redirects, endless bodies and held
// responses that the test sets up, before or while it serves. It serves from its own threads;
// all public methods are thread-safe.

#include <condition_variable>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <httplib.h>

namespace nib::testing {

struct WebPage {
  int status = 200;
  std::string content_type = "text/html; charset=utf-8";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // extra response headers
};

class LocalWebServer {
 public:
  // Starts listening and serving; throws std::runtime_error if no port can be bound.
  LocalWebServer();
  // Releases held responses, stops the server and joins its threads.
  ~LocalWebServer();
  LocalWebServer(const LocalWebServer&) = delete;
  LocalWebServer& operator=(const LocalWebServer&) = delete;

  // "http://127.0.0.1:<port><path>".
  std::string url(const std::string& path) const;

  // Serves `page` at `path` (an unknown path gets 404 "not found").
  void page(const std::string& path, WebPage page);
  // Answers `path` with a redirect to `location` (written as given, so it may be relative).
  void redirect(const std::string& path, const std::string& location, int status = 302);
  // Serves a body of `content_type` at `path` that never ends: `piece` again and again until
  // the client goes away or the server stops.
  void endless(const std::string& path, const std::string& content_type, std::string piece);
  // Holds the answer to `path` (nothing is sent, not even headers) until release(); then
  // serves `page`.
  void held(const std::string& path, WebPage page);
  // Lets every held answer (now and later) go.
  void release();
  // Waits until a request for `path` has arrived (a held one included).
  void wait_for_request(const std::string& path);

  // Requests received for `path` so far.
  std::size_t requests(const std::string& path) const;

 private:
  enum class Kind { kPage, kEndless, kHeld };
  struct Route {
    Kind kind = Kind::kPage;
    WebPage page;
    std::string piece;  // kEndless
  };
  void handle(const httplib::Request& request, httplib::Response& response);
  // Waits until release() or shutdown; true when released.
  bool wait_for_release();

  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, Route> routes_;
  std::map<std::string, std::size_t> requests_;
  bool released_ = false;
  bool stopping_ = false;
};

}  // namespace nib::testing
