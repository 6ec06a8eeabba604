#include "net/http_stream.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "net/curl_library.hpp"

namespace nib::net {
namespace {

// curl_multi_poll also returns when curl's own timers are due; this only bounds one wait.
constexpr int kPollTimeoutMs = 1000;
constexpr const char* kUserAgent = "nib";
// Local model servers (Ollama, llama.cpp) must never be reached through a proxy configured
// for the outside world; these hosts are added to the user's own NO_PROXY list.
constexpr const char* kLocalHosts = "localhost,127.0.0.1,::1";

struct EasyDeleter {
  void operator()(CURL* easy) const { loaded_curl().easy_cleanup(easy); }
};
struct MultiDeleter {
  void operator()(CURLM* multi) const { loaded_curl().multi_cleanup(multi); }
};
struct SlistDeleter {
  void operator()(curl_slist* list) const { loaded_curl().slist_free_all(list); }
};
using EasyPtr = std::unique_ptr<CURL, EasyDeleter>;
using MultiPtr = std::unique_ptr<CURLM, MultiDeleter>;
using SlistPtr = std::unique_ptr<curl_slist, SlistDeleter>;

using Clock = std::chrono::steady_clock;

// The sockets of one multi handle's connections. curl reports a transfer's socket only once the
// transfer has ended (CURLINFO_ACTIVESOCKET), so nib opens and closes them itself to know them.
// Touched only by the thread that drives the handle.
struct Sockets {
  std::vector<curl_socket_t> open;
};

int close_socket(void* user, curl_socket_t socket) {
  std::erase(static_cast<Sockets*>(user)->open, socket);
  return ::close(socket);
}

// Sends the ACK for what has arrived now instead of up to 40 ms later. Linux delays ACKs on a
// connection that looks interactive (nib sends each request within milliseconds of the last
// reply), and a server with Nagle's algorithm on holds every further small write until the
// previous one is ACKed: without this, a reply on a reused connection stalls ~40 ms after its
// first segment. TCP_QUICKACK sends a pending ACK and leaves delayed-ACK mode until nib sends
// again; it is best effort (a failure changes nothing else).
void acknowledge_promptly(const Sockets& sockets) {
  const int on = 1;
  for (const curl_socket_t socket : sockets.open) {
    ::setsockopt(socket, IPPROTO_TCP, TCP_QUICKACK, &on, sizeof(on));
  }
}

// One transfer's easy handle and everything curl points into while it runs, kept together on
// the heap so that a transfer whose reply was complete can outlive its call (see Multi).
// curl's POSTFIELDS points into the caller's request body, so a transfer outlives its call
// only once the whole body has been sent.
struct Transfer {
  const BodyCallback* on_body = nullptr;
  Sockets* sockets = nullptr;                   // of the multi handle that drives it
  const AddressCheck* check_address = nullptr;  // asked before each connection when set
  std::string address_refusal;                  // the first address it refused
  HttpStreamResult result;
  std::exception_ptr callback_exception;  // rethrown once curl has let go of the transfer
  // The callback returned kComplete: the caller goes on, and later bytes are ignored.
  bool complete = false;
  char error_buffer[CURL_ERROR_SIZE] = {};
  SlistPtr headers;
  EasyPtr easy;  // last: cleaned up before the buffers it points into
};

// Opens the socket for a connection of `user` (a Transfer) unless its address check refuses
// the address: curl then tries the host's next address, or fails with "couldn't connect".
curl_socket_t open_socket(void* user, curlsocktype /*purpose*/, curl_sockaddr* address) {
  auto* transfer = static_cast<Transfer*>(user);
  if (transfer->check_address != nullptr) {
    // curl's sockaddr is followed by the rest of the address (addrlen bytes in all).
    sockaddr_storage copy{};
    std::memcpy(&copy, &address->addr, std::min<std::size_t>(address->addrlen, sizeof(copy)));
    std::string refusal = (*transfer->check_address)(*reinterpret_cast<const sockaddr*>(&copy));
    if (!refusal.empty()) {
      if (transfer->address_refusal.empty()) transfer->address_refusal = std::move(refusal);
      return CURL_SOCKET_BAD;
    }
  }
  // Close-on-exec: tools' child processes must not inherit the connections.
  const curl_socket_t socket =
      ::socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
  if (socket != CURL_SOCKET_BAD) transfer->sockets->open.push_back(socket);
  return socket;
}

// A multi handle, the sockets of its connections, and the transfers still ending on them
// (complete replies whose responses had not ended when their callers went on). Whoever drives
// the handle next finishes those or, past their deadline, cuts them (closing their
// connections). One connection per host at a time (CURLMOPT_MAX_HOST_CONNECTIONS): a request
// behind an ending transfer waits for its connection instead of opening another; HTTP/2 runs
// both on it at once. Used by one thread at a time.
class Multi {
 public:
  Multi() : handle_(loaded_curl().multi_init()) {
    if (handle_) loaded_curl().multi_setopt(handle_.get(), CURLMOPT_MAX_HOST_CONNECTIONS, 1L);
  }
  ~Multi() {
    // curl wants its easy handles removed before they or the multi handle are cleaned up;
    // removing an unfinished one closes its connection. The multi handle's cleanup then closes
    // the idle connections through close_socket, so `sockets_` goes last.
    for (const Ending& ending : ending_) remove(*ending.transfer);
    ending_.clear();
    handle_.reset();
  }
  Multi(const Multi&) = delete;
  Multi& operator=(const Multi&) = delete;

  CURLM* handle() const { return handle_.get(); }
  Sockets& sockets() { return sockets_; }
  bool has_ending() const { return !ending_.empty(); }

  void add(Transfer& transfer) {
    loaded_curl().multi_add_handle(handle_.get(), transfer.easy.get());
  }
  void remove(Transfer& transfer) {
    loaded_curl().multi_remove_handle(handle_.get(), transfer.easy.get());
  }
  // Leaves `transfer` (still added, its reply complete) to end by `deadline`.
  void keep_ending(std::unique_ptr<Transfer> transfer, Clock::time_point deadline) {
    ending_.push_back({std::move(transfer), deadline});
  }
  // curl reported that `easy`, not the driven transfer, ended: well (its connection stays for
  // the next transfer) or not (curl closed the connection).
  void ended(CURL* easy) {
    std::erase_if(ending_, [&](const Ending& ending) {
      if (ending.transfer->easy.get() != easy) return false;
      remove(*ending.transfer);
      return true;
    });
  }
  // Cuts the ending transfers whose deadline has passed.
  void cut_overdue(Clock::time_point now) {
    std::erase_if(ending_, [&](const Ending& ending) {
      if (ending.deadline > now) return false;
      remove(*ending.transfer);
      return true;
    });
  }
  // How long a poll may wait: at most `limit_ms`, and not past the next deadline.
  int poll_timeout_ms(int limit_ms, Clock::time_point now) const {
    for (const Ending& ending : ending_) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(ending.deadline - now);
      limit_ms = std::clamp(static_cast<int>(left.count()), 0, limit_ms);
    }
    return limit_ms;
  }

 private:
  struct Ending {
    std::unique_ptr<Transfer> transfer;
    Clock::time_point deadline;
  };
  Sockets sockets_;
  MultiPtr handle_;
  std::vector<Ending> ending_;
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
  if (transfer->complete) return length;  // trailers of a response the caller has left
  const std::string_view line(buffer, length);
  if (line.starts_with("HTTP/")) {
    acknowledge_promptly(*transfer->sockets);  // the server may hold the rest until then
    transfer->result.headers.clear();          // a new response begins (after a "100 Continue")
    return length;
  }
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return length;
  std::string name(trim(line.substr(0, colon)));
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  transfer->result.headers[name] = std::string(trim(line.substr(colon + 1)));
  return length;
}

std::size_t on_body_bytes(char* data, std::size_t size, std::size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const std::size_t length = size * count;
  if (transfer->complete) return length;  // the caller has gone on
  acknowledge_promptly(*transfer->sockets);
  long status = 0;
  loaded_curl().easy_getinfo(transfer->easy.get(), CURLINFO_RESPONSE_CODE, &status);
  if (status >= 400) {
    std::string& excerpt = transfer->result.error_body;
    const std::size_t room =
        kErrorBodyExcerptBytes - std::min(excerpt.size(), kErrorBodyExcerptBytes);
    excerpt.append(data, std::min(room, length));
    return length;
  }
  try {
    switch ((*transfer->on_body)(std::string_view(data, length))) {
      case BodyAction::kContinue:
        return length;
      case BodyAction::kComplete:
        transfer->complete = true;
        return length;
      case BodyAction::kStop:
        break;
    }
  } catch (...) {
    transfer->callback_exception = std::current_exception();
  }
  transfer->result.stopped_by_callback = true;
  return 0;  // any count other than `length` makes curl end the transfer
}

std::string no_proxy_list() {
  const char* user = std::getenv("NO_PROXY");
  if (user == nullptr || *user == '\0') user = std::getenv("no_proxy");
  if (user == nullptr || *user == '\0') return kLocalHosts;
  return std::string(user) + "," + kLocalHosts;
}

SlistPtr header_list(const std::vector<std::string>& lines) {
  curl_slist* list = nullptr;
  for (const std::string& line : lines) {
    if (curl_slist* grown = loaded_curl().slist_append(list, line.c_str())) list = grown;
  }
  return SlistPtr(list);
}

SlistPtr build_headers(const HttpRequest& request) {
  std::vector<std::string> lines = {
      "Content-Type: application/json", "Accept: " + request.accept,
      "Expect:",  // no "100 Continue" round trip before large request bodies
  };
  if (!request.bearer_token.empty())
    lines.push_back("Authorization: Bearer " + request.bearer_token);
  for (const auto& [name, value] : request.headers) lines.push_back(name + ": " + value);
  return header_list(lines);
}

long milliseconds(std::chrono::milliseconds duration) {
  return static_cast<long>(duration.count());
}

// What every transfer sets: the URL, the callbacks, the socket bookkeeping and the errors.
void configure_common(Transfer& transfer, const std::string& url, Sockets& sockets) {
  CURL* easy = transfer.easy.get();
  loaded_curl().easy_setopt(easy, CURLOPT_URL, url.c_str());
  loaded_curl().easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
  loaded_curl().easy_setopt(easy, CURLOPT_HTTPHEADER, transfer.headers.get());
  loaded_curl().easy_setopt(easy, CURLOPT_USERAGENT, kUserAgent);
  loaded_curl().easy_setopt(easy, CURLOPT_NOSIGNAL,
                            1L);  // signals cannot be used from worker threads
  loaded_curl().easy_setopt(easy, CURLOPT_ERRORBUFFER, transfer.error_buffer);
  loaded_curl().easy_setopt(easy, CURLOPT_HEADERFUNCTION, on_header);
  loaded_curl().easy_setopt(easy, CURLOPT_HEADERDATA, &transfer);
  loaded_curl().easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body_bytes);
  loaded_curl().easy_setopt(easy, CURLOPT_WRITEDATA, &transfer);
  loaded_curl().easy_setopt(easy, CURLOPT_OPENSOCKETFUNCTION, open_socket);
  loaded_curl().easy_setopt(easy, CURLOPT_OPENSOCKETDATA, &transfer);
  loaded_curl().easy_setopt(easy, CURLOPT_CLOSESOCKETFUNCTION, close_socket);
  loaded_curl().easy_setopt(easy, CURLOPT_CLOSESOCKETDATA, &sockets);
  transfer.sockets = &sockets;
}

void configure_post(Transfer& transfer, const HttpRequest& request, Sockets& sockets) {
  transfer.headers = build_headers(request);
  configure_common(transfer, request.url, sockets);
  CURL* easy = transfer.easy.get();
  loaded_curl().easy_setopt(easy, CURLOPT_POST, 1L);
  loaded_curl().easy_setopt(easy, CURLOPT_POSTFIELDS, request.body.data());
  loaded_curl().easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE,
                            static_cast<curl_off_t>(request.body.size()));
  loaded_curl().easy_setopt(easy, CURLOPT_NOPROXY, no_proxy_list().c_str());  // curl copies strings
  loaded_curl().easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(kConnectTimeout));
  loaded_curl().easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT, 1L);  // bytes per second
  loaded_curl().easy_setopt(easy, CURLOPT_LOW_SPEED_TIME, static_cast<long>(kIdleTimeout.count()));
  loaded_curl().easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
}

void configure_get(Transfer& transfer, const HttpGetRequest& request, Sockets& sockets) {
  transfer.headers = header_list({"Accept: " + request.accept});
  configure_common(transfer, request.url, sockets);
  if (request.check_address) transfer.check_address = &request.check_address;
  CURL* easy = transfer.easy.get();
  loaded_curl().easy_setopt(easy, CURLOPT_HTTPGET, 1L);
  loaded_curl().easy_setopt(easy, CURLOPT_PROXY, "");  // no proxy, not even from the environment
  loaded_curl().easy_setopt(easy, CURLOPT_ACCEPT_ENCODING,
                            "");  // every encoding libcurl can decode
  loaded_curl().easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(request.connect_timeout));
  loaded_curl().easy_setopt(easy, CURLOPT_TIMEOUT_MS, milliseconds(request.total_timeout));
}

// The result of `transfer`, which curl ended with `code`, taken out of it (the callbacks no
// longer touch it).
HttpStreamResult take_result(Transfer& transfer, CURLcode code) {
  HttpStreamResult result = std::move(transfer.result);
  CURL* easy = transfer.easy.get();
  loaded_curl().easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &result.status);
  if (code != CURLE_OK && !result.stopped_by_callback && result.transport_error.empty()) {
    if (code == CURLE_COULDNT_CONNECT && !transfer.address_refusal.empty()) {
      result.transport_error = transfer.address_refusal;
    } else {
      result.transport_error = transfer.error_buffer[0] != '\0' ? transfer.error_buffer
                                                                : loaded_curl().easy_strerror(code);
    }
  }
  result.timed_out = code == CURLE_OPERATION_TIMEDOUT;
  const char* redirect = nullptr;
  if (result.status >= 300 && result.status < 400 &&
      loaded_curl().easy_getinfo(easy, CURLINFO_REDIRECT_URL, &redirect) == CURLE_OK &&
      redirect != nullptr) {
    result.redirect_url = redirect;
  }
  return result;
}

// Drives `multi` until `transfer` ends, its reply is complete, or `stop` fires, finishing the
// handle's ending transfers on the way (or cutting them at their deadline). Returns curl's
// result for `transfer`.
CURLcode run_transfer(Multi& multi, std::stop_token stop, Transfer& transfer) {
  CURLM* handle = multi.handle();
  HttpStreamResult& result = transfer.result;
  // Wakes curl_multi_poll from whichever thread requests the stop.
  const std::stop_callback wake(stop, [handle] { loaded_curl().multi_wakeup(handle); });
  while (true) {
    if (stop.stop_requested()) {
      result.aborted = true;
      return CURLE_OK;
    }
    multi.cut_overdue(Clock::now());
    int running = 0;
    if (const CURLMcode code = loaded_curl().multi_perform(handle, &running); code != CURLM_OK) {
      result.transport_error = loaded_curl().multi_strerror(code);
      return CURLE_OK;
    }
    std::optional<CURLcode> done;
    int queued = 0;
    while (const CURLMsg* message = loaded_curl().multi_info_read(handle, &queued)) {
      if (message->msg != CURLMSG_DONE) continue;
      if (message->easy_handle == transfer.easy.get()) {
        done = message->data.result;
      } else {
        multi.ended(message->easy_handle);
      }
    }
    if (done) return *done;
    if (transfer.complete || running == 0) return CURLE_OK;
    const int timeout_ms = multi.poll_timeout_ms(kPollTimeoutMs, Clock::now());
    if (const CURLMcode code = loaded_curl().multi_poll(handle, nullptr, 0, timeout_ms, nullptr);
        code != CURLM_OK) {
      result.transport_error = loaded_curl().multi_strerror(code);
      return CURLE_OK;
    }
  }
}

HttpStreamResult transport_failure(std::string why) {
  HttpStreamResult failed;
  failed.transport_error = std::move(why);
  return failed;
}

// True once curl has sent the whole request body, so that it never reads POSTFIELDS again.
bool request_sent(const Transfer& transfer, const HttpRequest& request) {
  curl_off_t sent = 0;
  return loaded_curl().easy_getinfo(transfer.easy.get(), CURLINFO_SIZE_UPLOAD_T, &sent) ==
             CURLE_OK &&
         sent >= static_cast<curl_off_t>(request.body.size());
}

}  // namespace

// Idle multi handles, each holding the connections (and TLS sessions) of its earlier transfers
// and perhaps transfers still ending on them. libcurl does not support sharing one connection
// cache between concurrent threads, so a request borrows a whole handle and returns it when
// done.
struct ConnectionPool::Impl {
  explicit Impl(std::chrono::milliseconds grace) : completion_grace(grace) {}

  const std::chrono::milliseconds completion_grace;
  std::mutex mutex;
  std::vector<std::unique_ptr<Multi>> idle;  // guarded by `mutex`; the last returned at the back

  std::unique_ptr<Multi> take() {
    {
      std::lock_guard lock(mutex);
      if (!idle.empty()) {
        // A handle with nothing ending is ready at once, and the last returned is the warmest;
        // otherwise the one returned first has had the longest for its last bytes to arrive.
        auto ready = std::find_if(idle.rbegin(), idle.rend(),
                                  [](const auto& multi) { return !multi->has_ending(); });
        const auto chosen = ready != idle.rend() ? std::prev(ready.base()) : idle.begin();
        std::unique_ptr<Multi> multi = std::move(*chosen);
        idle.erase(chosen);
        return multi;
      }
    }
    return std::make_unique<Multi>();
  }
  void give_back(std::unique_ptr<Multi> multi) {
    std::lock_guard lock(mutex);
    idle.push_back(std::move(multi));
  }
};

ConnectionPool::ConnectionPool(std::chrono::milliseconds completion_grace)
    : impl_(std::make_unique<Impl>(completion_grace)) {}
ConnectionPool::~ConnectionPool() = default;

std::string HttpStreamResult::header(const std::string& lower_name) const {
  const auto found = headers.find(lower_name);
  return found == headers.end() ? std::string() : found->second;
}

HttpStreamResult http_post_stream(const HttpRequest& request, std::stop_token stop,
                                  const BodyCallback& on_body, ConnectionPool* pool) {
  if (curl_library() == nullptr) return transport_failure(curl_failure());
  std::unique_ptr<Multi> multi = pool ? pool->impl_->take() : std::make_unique<Multi>();
  auto transfer = std::make_unique<Transfer>();
  transfer->easy.reset(loaded_curl().easy_init());
  if (!transfer->easy || !multi->handle()) {
    if (pool) pool->impl_->give_back(std::move(multi));
    return transport_failure("could not initialise libcurl");
  }
  transfer->on_body = &on_body;
  configure_post(*transfer, request, multi->sockets());

  multi->add(*transfer);
  const CURLcode code = run_transfer(*multi, stop, *transfer);
  HttpStreamResult result = take_result(*transfer, code);
  const std::exception_ptr callback_exception = transfer->callback_exception;
  if (pool && transfer->complete && request_sent(*transfer, request)) {
    multi->keep_ending(std::move(transfer), Clock::now() + pool->impl_->completion_grace);
  } else {
    // An aborted, failed or cut transfer's connection is closed by curl; the handle is still
    // reusable.
    multi->remove(*transfer);
  }
  if (pool) pool->impl_->give_back(std::move(multi));

  if (callback_exception) std::rethrow_exception(callback_exception);
  return result;
}

HttpStreamResult http_get_stream(const HttpGetRequest& request, std::stop_token stop,
                                 const BodyCallback& on_body) {
  if (curl_library() == nullptr) return transport_failure(curl_failure());
  Multi multi;
  Transfer transfer;
  transfer.easy.reset(loaded_curl().easy_init());
  if (!transfer.easy || !multi.handle()) return transport_failure("could not initialise libcurl");
  transfer.on_body = &on_body;
  configure_get(transfer, request, multi.sockets());
  multi.add(transfer);
  const CURLcode code = run_transfer(multi, stop, transfer);
  HttpStreamResult result = take_result(transfer, code);
  multi.remove(transfer);  // closes the connection unless the response had ended
  if (transfer.callback_exception) std::rethrow_exception(transfer.callback_exception);
  return result;
}

}  // namespace nib::net
