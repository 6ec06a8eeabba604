#pragma once
// The network half of web_fetch: GETs a URL over libcurl (provider::http_get_stream), following
// redirects itself one at a time (at most kWebFetchMaxRedirects, each target checked for its
// scheme before it is asked for), connecting only to public addresses unless allowed
// (web_address.hpp; the check is made on the address curl connects to, so DNS cannot change
// between check and connection), within one deadline for the whole chain, and keeping at most
// kWebFetchMaxBytes of the body. Thread-safe: calls share nothing.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "tools/limits.hpp"

namespace nib::tools {

struct FetchPolicy {
  // Connect to private, loopback, link-local, unique-local and other non-public addresses too.
  bool allow_private_addresses = false;
  // ...or only to these of them, written as refusals name them ("127.0.0.1", "::1").
  std::vector<std::string> allowed_addresses;
  // ...or to any address of a host this says yes to (as parse_web_url gives it: "localhost",
  // "intranet.example", "[::1]"): the hosts a WebFetch(domain:...) allow rule names. Each hop
  // of a redirect chain is asked about its own host.
  std::function<bool(std::string_view host)> private_host_allowed;
  // Asked before each redirect is followed, with the target (as parse_web_url gives it): the
  // checks a call fetching it would pass (hooks, rules, the mode's questions). Nothing: go on;
  // else why not, which ends the fetch. Empty: every redirect is followed.
  std::function<std::optional<std::string>(const std::string& url)> check_redirect;
  std::chrono::milliseconds connect_timeout = kWebFetchConnectTimeout;
  std::chrono::milliseconds timeout = kWebFetchTimeout;  // for the whole chain of redirects
  std::size_t max_bytes = kWebFetchMaxBytes;
};

struct FetchOutcome {
  // Set when the fetch failed (the model-facing sentence, without "Error:"); the rest then
  // says how far it got.
  std::string error;
  bool aborted = false;
  std::vector<std::string> chain;  // the URLs asked for, the first as given (normalised)
  long status = 0;
  std::string content_type;
  std::string body;  // the body of the last response (an excerpt of it for an HTTP error)
  bool cut = false;  // the body was longer than max_bytes; `body` is its start
};

// Fetches `url` (an absolute http or https URL, see parse_web_url).
FetchOutcome fetch_web_page(const std::string& url, const FetchPolicy& policy,
                            std::stop_token stop);

}  // namespace nib::tools
