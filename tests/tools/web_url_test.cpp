// parse_web_url and resolve_url: which URLs web_fetch takes, and links made absolute as a
// browser makes them (RFC 3986's examples where they apply).

#include "tools/web_url.hpp"

#include <gtest/gtest.h>

namespace nib::tools {
namespace {

std::string refusal(const std::string& text) {
  const auto parsed = parse_web_url(text);
  return parsed.ok() ? "" : parsed.error();
}

TEST(WebUrlTest, HttpAndHttpsUrlsAreTakenNormalised) {
  const auto parsed = parse_web_url("HTTPS://Docs.Example.com");
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  const WebUrl& url = parsed.value();
  EXPECT_EQ(url.url, "https://Docs.Example.com/");
  EXPECT_EQ(url.scheme, "https");
  EXPECT_EQ(url.host, "Docs.Example.com");
  EXPECT_EQ(parse_web_url("http://a.example/x y").value().url, "http://a.example/x%20y");
}

TEST(WebUrlTest, OtherSchemesAndRelativeUrlsAreRefusedSayingWhy) {
  EXPECT_EQ(refusal("file:///etc/passwd"),
            "file:// URLs are not fetched: web_fetch reads http and https URLs only. Read local "
            "files with read.");
  EXPECT_EQ(refusal("ftp://ftp.example.com/file"),
            "ftp:// URLs are not fetched: web_fetch reads http and https URLs only.");
  EXPECT_NE(refusal("gopher://x.example/").find("gopher://"), std::string::npos);
  EXPECT_EQ(refusal("example.com/page"),
            "\"example.com/page\" is not an absolute URL: give the whole URL, starting with "
            "https:// or http://.");
  EXPECT_NE(refusal("http://exa mple.com:99999/"), "");
}

TEST(WebUrlTest, ReferencesResolveAsRfc3986Says) {
  const std::string base = "http://a/b/c/d;p?q";
  const std::pair<const char*, const char*> examples[] = {
      {"g", "http://a/b/c/g"},
      {"./g", "http://a/b/c/g"},
      {"g/", "http://a/b/c/g/"},
      {"/g", "http://a/g"},
      {"//g", "http://g/"},
      {"?y", "http://a/b/c/d;p?y"},
      // ("#s" is left out: libcurl 7.88 resolves it against the directory; html_to_text shows
      // no links to parts of the same page anyway.)
      {"g?y", "http://a/b/c/g?y"},
      {"../g", "http://a/b/g"},
      {"../../g", "http://a/g"},
      {"https://b/x", "https://b/x"},
  };
  for (const auto& [reference, expected] : examples) {
    EXPECT_EQ(resolve_url(base, reference), std::optional<std::string>(expected)) << reference;
  }
  EXPECT_EQ(resolve_url("not a url", "g"), std::nullopt);
}

}  // namespace
}  // namespace nib::tools
