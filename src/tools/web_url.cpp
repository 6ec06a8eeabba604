#include "tools/web_url.hpp"

#include <memory>

#include "net/curl_library.hpp"

namespace nib::tools {
namespace {

struct UrlDeleter {
  void operator()(CURLU* url) const { net::loaded_curl().url_cleanup(url); }
};
using UrlPtr = std::unique_ptr<CURLU, UrlDeleter>;

// One part of `url`, or "" when it has none.
std::string url_part(CURLU* url, CURLUPart part) {
  char* text = nullptr;
  if (net::loaded_curl().url_get(url, part, &text, 0) != CURLUE_OK || text == nullptr) return "";
  std::string copy(text);
  net::loaded_curl().free(text);
  return copy;
}

// Parsing, for URLs from the model and from pages: any scheme (so a wrong one can be named),
// and spaces and other bytes a URL may not hold percent-encoded rather than refused.
constexpr unsigned kParseFlags = CURLU_NON_SUPPORT_SCHEME | CURLU_URLENCODE;

}  // namespace

util::Result<WebUrl> parse_web_url(std::string_view text) {
  using Result = util::Result<WebUrl>;
  const std::string given(text);
  if (net::curl_library() == nullptr) return Result::failure(net::curl_failure());
  UrlPtr url(net::loaded_curl().url());
  if (!url) return Result::failure("could not parse the URL (out of memory)");
  if (given.find("://") == std::string::npos) {
    return Result::failure(
        "\"" + given + "\" is not an absolute URL: give the whole URL, starting with https:// " +
        "or http://.");
  }
  if (const CURLUcode code =
          net::loaded_curl().url_set(url.get(), CURLUPART_URL, given.c_str(), kParseFlags);
      code != CURLUE_OK) {
    return Result::failure("\"" + given + "\" is not a valid URL (" +
                           net::loaded_curl().url_strerror(code) + ").");
  }
  WebUrl parsed{url_part(url.get(), CURLUPART_URL), url_part(url.get(), CURLUPART_SCHEME),
                url_part(url.get(), CURLUPART_HOST)};
  if (parsed.scheme != "http" && parsed.scheme != "https") {
    return Result::failure(parsed.scheme +
                           ":// URLs are not fetched: web_fetch reads http and https URLs only." +
                           (parsed.scheme == "file" ? " Read local files with read." : ""));
  }
  if (parsed.host.empty()) return Result::failure("\"" + given + "\" names no host.");
  return parsed;
}

std::optional<std::string> resolve_url(const std::string& base, std::string_view reference) {
  if (net::curl_library() == nullptr) return std::nullopt;
  UrlPtr url(net::loaded_curl().url());
  if (!url || net::loaded_curl().url_set(url.get(), CURLUPART_URL, base.c_str(), kParseFlags) !=
                  CURLUE_OK) {
    return std::nullopt;
  }
  // Setting a URL on a handle that holds one resolves it as a reference against it.
  const std::string href(reference);
  if (net::loaded_curl().url_set(url.get(), CURLUPART_URL, href.c_str(), kParseFlags) !=
      CURLUE_OK) {
    return std::nullopt;
  }
  std::string resolved = url_part(url.get(), CURLUPART_URL);
  if (resolved.empty()) return std::nullopt;
  return resolved;
}

}  // namespace nib::tools
