#pragma once
// URLs as web_fetch takes them (absolute http and https URLs) and as pages write them (relative
// references, resolved against the page's URL), parsed by libcurl's URL API so that nib reads
// a URL exactly as the transfer will. Pure functions; thread-safe.

#include <optional>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace nib::tools {

// A URL web_fetch may ask for.
struct WebUrl {
  std::string url;     // as libcurl normalises it ("HTTP://Example.com" -> "http://Example.com/")
  std::string scheme;  // "http" or "https"
  std::string host;
};

// `text` as a URL to fetch, or a message saying what is wrong with it (not a URL, no scheme, a
// scheme other than http and https).
util::Result<WebUrl> parse_web_url(std::string_view text);

// `reference` (an href: absolute, relative, "//host/x", "?q", "#part") resolved against the
// absolute URL `base`; nothing when either cannot be parsed.
std::optional<std::string> resolve_url(const std::string& base, std::string_view reference);

}  // namespace nib::tools
