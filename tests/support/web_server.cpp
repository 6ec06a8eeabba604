#include "support/web_server.hpp"

#include <memory>
#include <optional>
#include <stdexcept>

namespace nib::testing {
namespace {

constexpr const char* kWebServerHost = "127.0.0.1";

}  // namespace

LocalWebServer::LocalWebServer() {
  server_.Get(".*", [this](const httplib::Request& request, httplib::Response& response) {
    handle(request, response);
  });
  port_ = server_.bind_to_any_port(kWebServerHost);
  if (port_ <= 0) throw std::runtime_error("web server: cannot bind a port on 127.0.0.1");
  thread_ = std::thread([this] { server_.listen_after_bind(); });
  // stop() only works once the accept loop runs; wait for it so the destructor cannot hang.
  while (!server_.is_running()) std::this_thread::yield();
}

LocalWebServer::~LocalWebServer() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  server_.stop();
  thread_.join();
}

std::string LocalWebServer::url(const std::string& path) const {
  return "http://" + std::string(kWebServerHost) + ":" + std::to_string(port_) + path;
}

void LocalWebServer::page(const std::string& path, WebPage page) {
  const std::lock_guard lock(mutex_);
  routes_[path] = Route{Kind::kPage, std::move(page), {}};
}

void LocalWebServer::redirect(const std::string& path, const std::string& location, int status) {
  page(
      path,
      WebPage{
          status, "text/html", "<a href=\"" + location + "\">moved</a>", {{"Location", location}}});
}

void LocalWebServer::endless(const std::string& path, const std::string& content_type,
                             std::string piece) {
  const std::lock_guard lock(mutex_);
  routes_[path] = Route{Kind::kEndless, WebPage{200, content_type, {}, {}}, std::move(piece)};
}

void LocalWebServer::held(const std::string& path, WebPage page) {
  const std::lock_guard lock(mutex_);
  routes_[path] = Route{Kind::kHeld, std::move(page), {}};
}

void LocalWebServer::release() {
  {
    const std::lock_guard lock(mutex_);
    released_ = true;
  }
  changed_.notify_all();
}

void LocalWebServer::wait_for_request(const std::string& path) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return stopping_ || requests_[path] > 0; });
}

std::size_t LocalWebServer::requests(const std::string& path) const {
  const std::lock_guard lock(mutex_);
  const auto found = requests_.find(path);
  return found == requests_.end() ? 0 : found->second;
}

bool LocalWebServer::wait_for_release() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return released_ || stopping_; });
  return released_ && !stopping_;
}

void LocalWebServer::handle(const httplib::Request& request, httplib::Response& response) {
  std::optional<Route> route;
  {
    const std::lock_guard lock(mutex_);
    ++requests_[request.path];
    if (const auto found = routes_.find(request.path); found != routes_.end())
      route = found->second;
  }
  changed_.notify_all();
  if (!route) {
    response.status = 404;
    response.set_content("not found", "text/plain");
    return;
  }
  if (route->kind == Kind::kHeld && !wait_for_release()) return;
  response.status = route->page.status;
  for (const auto& [name, value] : route->page.headers) response.set_header(name, value);
  if (route->kind != Kind::kEndless) {
    response.set_content(route->page.body, route->page.content_type.c_str());
    return;
  }
  auto piece = std::make_shared<std::string>(route->piece);
  response.set_chunked_content_provider(route->page.content_type,
                                        [this, piece](std::size_t, httplib::DataSink& sink) {
                                          while (true) {
                                            {
                                              const std::lock_guard lock(mutex_);
                                              if (stopping_) return false;
                                            }
                                            if (!sink.write(piece->data(), piece->size()))
                                              return false;
                                          }
                                        });
}

}  // namespace nib::testing
