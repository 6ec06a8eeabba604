#include "tools/web_fetcher.hpp"

#include <algorithm>

#include "net/http_stream.hpp"
#include "tools/web_address.hpp"
#include "tools/web_url.hpp"

namespace nib::tools {
namespace {

using Clock = std::chrono::steady_clock;

// What web_fetch asks for: readable kinds first, anything else (a notice is better than an
// HTTP 406) last.
constexpr const char* kAccept =
    "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,application/json;q=0.9,"
    "application/pdf;q=0.8,*/*;q=0.5";

std::string seconds_text(std::chrono::milliseconds duration) {
  const auto count = duration.count();
  if (count % 1000 == 0) return std::to_string(count / 1000) + " s";
  return std::to_string(count) + " ms";
}

// The check of the addresses `url` (a hop of the chain) connects to.
net::AddressCheck address_check(const FetchPolicy& policy, const std::string& url) {
  if (policy.allow_private_addresses) return {};
  auto parsed = parse_web_url(url);
  const std::string host = parsed.ok() ? parsed.value().host : std::string();
  if (policy.private_host_allowed && !host.empty() && policy.private_host_allowed(host)) return {};
  return [allowed = policy.allowed_addresses, host](const sockaddr& address) {
    std::string refusal = non_public_address_refusal(address);
    if (refusal.empty()) return refusal;
    const std::string text = address_text(address);
    if (std::find(allowed.begin(), allowed.end(), text) != allowed.end()) return std::string();
    return "its address " + refusal +
           ", and web_fetch connects only to public addresses: a model must not reach into "
           "this machine or its network (the user can open this host with the permission rule "
           "WebFetch(domain:" +
           host + ") in permissions.allow)";
  };
}

// "a → b → c".
std::string chain_text(const std::vector<std::string>& chain) {
  std::string text;
  for (const std::string& url : chain) text += (text.empty() ? "" : " → ") + url;
  return text;
}

}  // namespace

FetchOutcome fetch_web_page(const std::string& url, const FetchPolicy& policy,
                            std::stop_token stop) {
  FetchOutcome outcome;
  const Clock::time_point deadline = Clock::now() + policy.timeout;
  std::string next = url;
  for (std::size_t redirects = 0;; ++redirects) {
    outcome.chain.push_back(next);
    outcome.body.clear();
    outcome.cut = false;
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      outcome.error = "Timed out: the fetch did not finish within " + seconds_text(policy.timeout) +
                      " (redirects: " + chain_text(outcome.chain) + ").";
      return outcome;
    }
    net::HttpGetRequest request{.url = next,
                                .accept = kAccept,
                                .connect_timeout = std::min(policy.connect_timeout, left),
                                .total_timeout = left,
                                .check_address = address_check(policy, next)};
    const net::HttpStreamResult result =
        net::http_get_stream(request, stop, [&](std::string_view bytes) {
          const std::size_t room = policy.max_bytes - outcome.body.size();
          outcome.body.append(bytes.substr(0, room));
          if (bytes.size() <= room) return net::BodyAction::kContinue;
          outcome.cut = true;
          return net::BodyAction::kStop;
        });
    outcome.status = result.status;
    outcome.content_type = result.header("content-type");
    if (result.aborted) {
      outcome.aborted = true;
      outcome.error = "Aborted: fetching " + next + " was stopped.";
      return outcome;
    }
    if (!result.transport_error.empty()) {
      if (result.timed_out) {
        const bool connecting = result.status == 0 && policy.connect_timeout < left;
        outcome.error = connecting ? "Timed out: no connection to " + next + " within " +
                                         seconds_text(policy.connect_timeout) + "."
                                   : "Timed out: the fetch did not finish within " +
                                         seconds_text(policy.timeout) + " (" + next + ").";
      } else {
        outcome.error = "Cannot fetch " + next + ": " + result.transport_error + ".";
      }
      return outcome;
    }
    if (result.status >= 400) {
      outcome.body = result.error_body;
      outcome.error = "HTTP " + std::to_string(result.status) + " from " + next + ".";
      return outcome;
    }
    if (result.status < 300) return outcome;
    if (result.redirect_url.empty()) {
      outcome.error = "HTTP " + std::to_string(result.status) + " from " + next +
                      " without a Location to go to.";
      return outcome;
    }
    if (redirects == kWebFetchMaxRedirects) {
      outcome.error = "Too many redirects: web_fetch follows at most " +
                      std::to_string(kWebFetchMaxRedirects) + ", and " + next +
                      " redirects again, to " + result.redirect_url +
                      " (redirects: " + chain_text(outcome.chain) + ").";
      return outcome;
    }
    auto parsed = parse_web_url(result.redirect_url);
    if (!parsed.ok()) {
      outcome.error = next + " redirects to " + result.redirect_url +
                      ", which is not followed: " + parsed.error();
      return outcome;
    }
    if (policy.check_redirect) {
      if (auto refusal = policy.check_redirect(parsed.value().url)) {
        outcome.error =
            next + " redirects to " + parsed.value().url + ", which is not followed: " + *refusal;
        return outcome;
      }
    }
    next = parsed.value().url;
  }
}

}  // namespace nib::tools
