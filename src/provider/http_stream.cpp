#include "provider/http_stream.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace nib::provider {
namespace {

// curl_multi_poll also returns when curl's own timers are due; this only bounds one wait.
constexpr int kPollTimeoutMs = 1000;
constexpr const char* kUserAgent = "nib";
// Local model servers (Ollama, llama.cpp) must never be reached through a proxy configured
// for the outside world; these hosts are added to the user's own NO_PROXY list.
constexpr const char* kLocalHosts = "localhost,127.0.0.1,::1";

void global_init_once() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct EasyDeleter {
  void operator()(CURL* easy) const { curl_easy_cleanup(easy); }
};
struct MultiDeleter {
  void operator()(CURLM* multi) const { curl_multi_cleanup(multi); }
};
struct SlistDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
using EasyPtr = std::unique_ptr<CURL, EasyDeleter>;
using MultiPtr = std::unique_ptr<CURLM, MultiDeleter>;
using SlistPtr = std::unique_ptr<curl_slist, SlistDeleter>;

// State shared with curl's callbacks for one transfer.
struct Transfer {
  CURL* easy = nullptr;
  const BodyCallback* on_body = nullptr;
  HttpStreamResult* result = nullptr;
  std::exception_ptr callback_exception;  // rethrown once curl has let go of the transfer
  // Set when the callback returned kComplete: the end of the response is awaited until then.
  std::optional<std::chrono::steady_clock::time_point> complete_deadline;
};

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

std::size_t on_header(char* buffer, std::size_t size, std::size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const std::size_t length = size * count;
  const std::string_view line(buffer, length);
  if (line.starts_with("HTTP/")) {
    transfer->result->headers.clear();  // a new response begins (after a "100 Continue")
    return length;
  }
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return length;
  std::string name(trim(line.substr(0, colon)));
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  transfer->result->headers[name] = std::string(trim(line.substr(colon + 1)));
  return length;
}

std::size_t on_body_bytes(char* data, std::size_t size, std::size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const std::size_t length = size * count;
  long status = 0;
  curl_easy_getinfo(transfer->easy, CURLINFO_RESPONSE_CODE, &status);
  if (status >= 400) {
    std::string& excerpt = transfer->result->error_body;
    const std::size_t room =
        kErrorBodyExcerptBytes - std::min(excerpt.size(), kErrorBodyExcerptBytes);
    excerpt.append(data, std::min(room, length));
    return length;
  }
  if (transfer->complete_deadline) return length;  // the caller needs nothing more
  try {
    switch ((*transfer->on_body)(std::string_view(data, length))) {
      case BodyAction::kContinue:
        return length;
      case BodyAction::kComplete:
        transfer->complete_deadline = std::chrono::steady_clock::now() + kCompletionGrace;
        return length;
      case BodyAction::kStop:
        break;
    }
  } catch (...) {
    transfer->callback_exception = std::current_exception();
  }
  transfer->result->stopped_by_callback = true;
  return 0;  // any count other than `length` makes curl end the transfer
}

std::string no_proxy_list() {
  const char* user = std::getenv("NO_PROXY");
  if (user == nullptr || *user == '\0') user = std::getenv("no_proxy");
  if (user == nullptr || *user == '\0') return kLocalHosts;
  return std::string(user) + "," + kLocalHosts;
}

SlistPtr build_headers(const HttpRequest& request) {
  curl_slist* list = nullptr;
  const auto add = [&list](const std::string& line) {
    if (curl_slist* grown = curl_slist_append(list, line.c_str())) list = grown;
  };
  add("Content-Type: application/json");
  add("Accept: text/event-stream");
  add("Expect:");  // no "100 Continue" round trip before large request bodies
  if (!request.bearer_token.empty()) add("Authorization: Bearer " + request.bearer_token);
  for (const auto& [name, value] : request.headers) add(name + ": " + value);
  return SlistPtr(list);
}

void configure(CURL* easy, const HttpRequest& request, curl_slist* headers, Transfer& transfer,
               char* error_buffer, const std::string& no_proxy) {
  curl_easy_setopt(easy, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(easy, CURLOPT_POST, 1L);
  curl_easy_setopt(easy, CURLOPT_POSTFIELDS, request.body.data());
  curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(easy, CURLOPT_USERAGENT, kUserAgent);
  curl_easy_setopt(easy, CURLOPT_NOPROXY, no_proxy.c_str());
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);  // signals cannot be used from worker threads
  curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(std::chrono::milliseconds(kConnectTimeout).count()));
  curl_easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT, 1L);  // bytes per second
  curl_easy_setopt(easy, CURLOPT_LOW_SPEED_TIME, static_cast<long>(kIdleTimeout.count()));
  curl_easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(easy, CURLOPT_HEADERDATA, &transfer);
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body_bytes);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, &transfer);
}

// Drives the transfer until it ends or `stop` fires; returns curl's result for the transfer.
CURLcode run_transfer(CURLM* multi, std::stop_token stop, const Transfer& transfer,
                      HttpStreamResult& result) {
  // Wakes curl_multi_poll from whichever thread requests the stop.
  const std::stop_callback wake(stop, [multi] { curl_multi_wakeup(multi); });
  while (true) {
    if (stop.stop_requested()) {
      result.aborted = true;
      return CURLE_OK;
    }
    int running = 0;
    if (const CURLMcode code = curl_multi_perform(multi, &running); code != CURLM_OK) {
      result.transport_error = curl_multi_strerror(code);
      return CURLE_OK;
    }
    int queued = 0;
    while (const CURLMsg* message = curl_multi_info_read(multi, &queued)) {
      if (message->msg == CURLMSG_DONE) return message->data.result;
    }
    if (running == 0) return CURLE_OK;
    int timeout_ms = kPollTimeoutMs;
    if (transfer.complete_deadline) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          *transfer.complete_deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return CURLE_OK;  // complete, but the server never ended it
      timeout_ms = std::min(timeout_ms, static_cast<int>(left.count()) + 1);
    }
    if (const CURLMcode code = curl_multi_poll(multi, nullptr, 0, timeout_ms, nullptr);
        code != CURLM_OK) {
      result.transport_error = curl_multi_strerror(code);
      return CURLE_OK;
    }
  }
}

}  // namespace

// Idle multi handles, each holding the connections (and TLS sessions) of its earlier transfers.
// libcurl does not support sharing one connection cache between concurrent threads, so a
// request borrows a whole handle and returns it when done.
struct ConnectionPool::Impl {
  std::mutex mutex;
  std::vector<MultiPtr> idle;

  MultiPtr take() {
    std::lock_guard lock(mutex);
    if (idle.empty()) return MultiPtr(curl_multi_init());
    MultiPtr multi = std::move(idle.back());
    idle.pop_back();
    return multi;
  }
  void give_back(MultiPtr multi) {
    std::lock_guard lock(mutex);
    idle.push_back(std::move(multi));
  }
};

ConnectionPool::ConnectionPool() : impl_(std::make_unique<Impl>()) {}
ConnectionPool::~ConnectionPool() = default;

std::string HttpStreamResult::header(const std::string& lower_name) const {
  const auto found = headers.find(lower_name);
  return found == headers.end() ? std::string() : found->second;
}

HttpStreamResult http_post_stream(const HttpRequest& request, std::stop_token stop,
                                  const BodyCallback& on_body, ConnectionPool* pool) {
  global_init_once();
  HttpStreamResult result;
  const EasyPtr easy(curl_easy_init());
  MultiPtr multi = pool ? pool->impl_->take() : MultiPtr(curl_multi_init());
  if (!easy || !multi) {
    result.transport_error = "could not initialise libcurl";
    return result;
  }
  const SlistPtr headers = build_headers(request);
  const std::string no_proxy = no_proxy_list();
  char error_buffer[CURL_ERROR_SIZE] = {};
  Transfer transfer{easy.get(), &on_body, &result, nullptr};
  configure(easy.get(), request, headers.get(), transfer, error_buffer, no_proxy);

  curl_multi_add_handle(multi.get(), easy.get());
  const CURLcode code = run_transfer(multi.get(), stop, transfer, result);
  curl_easy_getinfo(easy.get(), CURLINFO_RESPONSE_CODE, &result.status);
  curl_multi_remove_handle(multi.get(), easy.get());
  // An aborted or failed transfer's connection is closed by curl; the handle is still reusable.
  if (pool) pool->impl_->give_back(std::move(multi));

  if (transfer.callback_exception) std::rethrow_exception(transfer.callback_exception);
  if (code != CURLE_OK && !result.stopped_by_callback && result.transport_error.empty()) {
    result.transport_error = error_buffer[0] != '\0' ? error_buffer : curl_easy_strerror(code);
  }
  return result;
}

}  // namespace nib::provider
