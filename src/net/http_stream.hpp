#pragma once
// A streaming HTTP POST over libcurl: the response body is handed to a callback as it arrives,
// and a std::stop_token aborts the transfer promptly (within one poll wake-up) even while the
// server sends nothing.
//
// http_get_stream fetches a resource from the open web the same way, with the guards such a
// fetch needs (an overall deadline, a check of every address it connects to).
//
// Thread-safety: http_post_stream and http_get_stream may be called from several threads at
// once; each call owns its own curl handles (see ConnectionPool for those it borrows). The body
// callback and the address check run on the calling thread.

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct sockaddr;

namespace nib::net {

// Time allowed to establish the connection (TCP and TLS).
inline constexpr std::chrono::seconds kConnectTimeout{30};
// A reply may legitimately stream for a long time, so there is no overall timeout; a server
// that sends no byte at all for this long is treated as gone.
inline constexpr std::chrono::seconds kIdleTimeout{300};
// How much of an error reply's body is kept for the error message.
inline constexpr std::size_t kErrorBodyExcerptBytes = 2048;

struct HttpRequest {
  std::string url;
  std::string body;                                          // sent as application/json
  std::string bearer_token;                                  // "Authorization: Bearer" if set
  std::vector<std::pair<std::string, std::string>> headers;  // extra headers (name, value)
  // The Accept header: model services stream events; an MCP server may answer either way.
  std::string accept = "text/event-stream";
};

struct HttpStreamResult {
  long status = 0;  // the HTTP status of the final response; 0 when none arrived
  // Response headers, names lower-cased; the last value wins for repeated names.
  std::map<std::string, std::string> headers;
  // The first kErrorBodyExcerptBytes of the body when status >= 400 (such a body is not passed
  // to the callback).
  std::string error_body;
  // A redirect's target (an absolute URL) when the final response is one; nib follows none
  // itself.
  std::string redirect_url;
  std::string transport_error;       // curl's description when the transfer failed; empty otherwise
  bool timed_out = false;            // the transfer failed because a timeout expired
  bool aborted = false;              // the stop token fired before the transfer ended
  bool stopped_by_callback = false;  // the body callback returned kStop

  // The value of a response header (name in lower case), or "" when absent.
  std::string header(const std::string& lower_name) const;
};

// What the body callback wants after a piece of the body.
enum class BodyAction {
  kContinue,  // keep reading
  kStop,      // end the transfer now (the connection is closed)
  // Everything needed has arrived: http_post_stream returns at once and no further byte reaches
  // the callback. With a pool, the response is left to end on its own so that its connection
  // can be reused (see ConnectionPool); without one, the connection is closed.
  kComplete,
};
// How long a response may take to end after its reply was complete before its connection is
// closed: a server with Nagle's algorithm on sends its last bytes only once nib has ACKed the
// ones before (one round trip), while a server that never ends its response would hold the
// connection forever. Also the longest a request through the pool waits for such a connection.
inline constexpr std::chrono::milliseconds kCompletionGrace{200};

// Receives one piece of the response body.
using BodyCallback = std::function<BodyAction(std::string_view bytes)>;

// Keeps connections and TLS sessions between requests to a service, so every turn after the
// first skips the TCP and TLS handshakes (100 ms or more to a remote service).
//
// A reply that is complete before its response ends (kComplete) leaves its connection in the
// pool still "ending". No thread watches it: the kernel receives the last bytes meanwhile, and
// the next request that takes the connection reads them first. A request takes an idle
// connection when there is one; otherwise it waits for an ending one, until that one's
// completion grace runs out (then the connection is closed and a new one opened): its last
// bytes are at most a round trip away, while a new connection costs a round trip for TCP and
// more for TLS.
//
// Thread-safe: requests on several threads may share one pool; each borrows connections of its
// own. The pool must outlive the requests that use it. The destructor closes connections still
// ending without waiting for them.
class ConnectionPool {
 public:
  // `completion_grace`: see kCompletionGrace (tests lengthen it to make waits deterministic).
  explicit ConnectionPool(std::chrono::milliseconds completion_grace = kCompletionGrace);
  ~ConnectionPool();
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;

  struct Impl;

 private:
  friend HttpStreamResult http_post_stream(const HttpRequest&, std::stop_token, const BodyCallback&,
                                           ConnectionPool*);
  std::unique_ptr<Impl> impl_;
};

// Posts `request` and streams the response body of a successful (< 400) reply to `on_body`.
// Blocks until the transfer ends, fails, is stopped or completed by the callback, or `stop`
// fires. Never throws for network or HTTP failures; they are reported in the result. With a
// `pool`, the connection is taken from and returned to it. Acknowledges received data at once
// (TCP_QUICKACK), so that a server with Nagle's algorithm on does not hold the rest of the reply
// until the kernel's delayed ACK, about 40 ms later.
HttpStreamResult http_post_stream(const HttpRequest& request, std::stop_token stop,
                                  const BodyCallback& on_body, ConnectionPool* pool = nullptr);

// Says whether a connection to `address` may be made: empty to allow it, otherwise why not (a
// sentence naming the address).
using AddressCheck = std::function<std::string(const sockaddr& address)>;

// A GET of a resource on the open web (the web_fetch tool). Unlike a model request it has an
// overall deadline, follows no redirect (the caller checks each target before asking for it),
// uses no proxy (so that the address checked is the server's own, not a proxy's), and hands
// the body on decoded from the compressions libcurl supports.
struct HttpGetRequest {
  std::string url;
  std::string accept;  // the Accept header's value
  std::chrono::milliseconds connect_timeout = kConnectTimeout;
  std::chrono::milliseconds total_timeout{0};  // for the whole transfer; 0: none
  // Asked before every connection with the address it is about to be made to (after DNS, so
  // the address checked is the one connected to). A refused address is not connected to; curl
  // tries the host's other addresses, and when none is allowed the first refusal is the
  // result's transport_error. Empty: every address is allowed.
  AddressCheck check_address;
};

// GETs `request.url` and streams the body of a successful (< 400) response to `on_body` as
// http_post_stream does (kComplete ends it like kStop, the connection being closed). A redirect
// (3xx) is returned as it is, with redirect_url set.
HttpStreamResult http_get_stream(const HttpGetRequest& request, std::stop_token stop,
                                 const BodyCallback& on_body);

}  // namespace nib::net
