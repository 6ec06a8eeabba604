// The web_fetch tool against a local web server (loopback, allowed through the tool's
// options): pages of each kind, redirect chains, refused schemes and addresses, the size cap,
// the character limit with the full text saved, a server too slow for the timeout, and abort.
// Waits are on the server's gates, never on sleeps.

#include "tools/web_fetch.hpp"

#include <gtest/gtest.h>

#include <thread>

#include "sample_pdf.hpp"
#include "support/temp_dir.hpp"
#include "support/text_match.hpp"
#include "support/web_server.hpp"
#include "tools/limits.hpp"

namespace nib::tools {
namespace {

using testing::contains;
using testing::WebPage;

class WebFetchTest : public ::testing::Test {
 protected:
  // The test's server is on 127.0.0.1: that address is allowed, every other non-public one is
  // still refused.
  core::ToolPtr tool(FetchPolicy policy = {.allowed_addresses = {"127.0.0.1"}}) {
    WebFetchOptions options;
    options.fetch = std::move(policy);
    options.create_log = process::private_logs_in(logs_.path() / "logs");
    return make_web_fetch_tool(std::move(options));
  }

  core::ToolOutput fetch(const nlohmann::json& args, std::stop_token stop = {}) {
    return tool()->execute(args, std::move(stop), {"call-1", logs_.path()});
  }
  core::ToolOutput fetch_path(const std::string& path) {
    return fetch({{"url", server_.url(path)}});
  }

  testing::TempDir logs_;
  testing::LocalWebServer server_;
};

TEST_F(WebFetchTest, AnHtmlPageIsReadableTextWithAbsoluteLinks) {
  server_.page("/docs/page.html",
               WebPage{200,
                       "text/html; charset=utf-8",
                       "<html><head><title>Guide</title><script>x()</script></head><body>"
                       "<nav><a href=\"/\">Home</a></nav><h1>Guide</h1>"
                       "<p>See <a href=\"api.html\">the API</a>.</p>"
                       "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>"
                       "<pre class=\"language-sh\">make test</pre></body></html>",
                       {}});
  const core::ToolOutput result = fetch_path("/docs/page.html");
  ASSERT_FALSE(result.is_error) << result.output;
  EXPECT_EQ(result.output,
            "URL: " + server_.url("/docs/page.html") +
                "\nType: text/html, 279 bytes\nTitle: Guide\n\n# Guide\n\nSee [the API](" +
                server_.url("/docs/api.html") +
                ").\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n```sh\nmake test\n```");
}

TEST_F(WebFetchTest, JsonAndPlainTextComeAsTheyAre) {
  server_.page("/data.json", WebPage{200, "application/json", "{\"ok\": true}\n", {}});
  server_.page("/notes.txt", WebPage{200, "text/plain", "line 1\n  <b>line 2</b>", {}});
  EXPECT_TRUE(fetch_path("/data.json").output.ends_with("\n\n{\"ok\": true}"));
  EXPECT_TRUE(fetch_path("/notes.txt").output.ends_with("\n\nline 1\n  <b>line 2</b>"));
}

TEST_F(WebFetchTest, APdfIsItsTextAndABinaryANotice) {
  server_.page("/paper.pdf",
               WebPage{200, "application/pdf", testing::sample_pdf({"Abstract", "Results"}), {}});
  server_.page("/logo.png", WebPage{200, "image/png", std::string("\x89PNG\r\n\x1a\n", 8), {}});
  const core::ToolOutput pdf = fetch_path("/paper.pdf");
  EXPECT_TRUE(pdf.output.ends_with("--- Page 1 of 2 ---\nAbstract\n\n--- Page 2 of 2 ---\nResults"))
      << pdf.output;
  const core::ToolOutput png = fetch_path("/logo.png");
  EXPECT_FALSE(png.is_error);
  EXPECT_TRUE(
      png.output.ends_with("[The response is image/png (8 bytes), not text: web_fetch shows "
                           "HTML, text, JSON and PDF only.]"))
      << png.output;
}

TEST_F(WebFetchTest, FiveRedirectsAreFollowedEachAskedForOnce) {
  for (int i = 1; i <= 5; ++i) {
    server_.redirect("/r" + std::to_string(i),
                     i < 5 ? "/r" + std::to_string(i + 1) : server_.url("/end"), 301 + i % 2);
  }
  server_.page("/end", WebPage{200, "text/plain", "arrived", {}});
  const core::ToolOutput result = fetch_path("/r1");
  ASSERT_FALSE(result.is_error) << result.output;
  EXPECT_TRUE(result.output.starts_with("URL: " + server_.url("/end") +
                                        "\nRedirected from: " + server_.url("/r1") + "\n"));
  EXPECT_TRUE(result.output.ends_with("arrived"));
  for (int i = 1; i <= 5; ++i) EXPECT_EQ(server_.requests("/r" + std::to_string(i)), 1u);
}

TEST_F(WebFetchTest, ASixthRedirectIsRefusedAndNotFollowed) {
  for (int i = 1; i <= 6; ++i)
    server_.redirect("/r" + std::to_string(i), "/r" + std::to_string(i + 1));
  server_.page("/r7", WebPage{200, "text/plain", "never", {}});
  const core::ToolOutput result = fetch_path("/r1");
  EXPECT_TRUE(result.is_error);
  EXPECT_TRUE(
      result.output.starts_with("Error: Too many redirects: web_fetch follows at most 5, "
                                "and " +
                                server_.url("/r6") + " redirects again, to " + server_.url("/r7")))
      << result.output;
  EXPECT_EQ(server_.requests("/r6"), 1u);
  EXPECT_EQ(server_.requests("/r7"), 0u);
}

TEST_F(WebFetchTest, ARedirectToAnotherSchemeIsRefused) {
  server_.redirect("/to-file", "file:///etc/passwd");
  const core::ToolOutput result = fetch_path("/to-file");
  EXPECT_TRUE(result.is_error);
  EXPECT_EQ(result.output, "Error: " + server_.url("/to-file") +
                               " redirects to file:///etc/passwd, which is not followed: file:// "
                               "URLs are not fetched: web_fetch reads http and https URLs only. "
                               "Read local files with read.");
}

TEST_F(WebFetchTest, ARedirectToAPrivateAddressIsRefusedNamingTheAddress) {
  server_.redirect("/to-metadata", "http://169.254.169.254/latest/meta-data/");
  server_.redirect("/to-lan", "http://[::ffff:192.168.1.1]/admin");
  const core::ToolOutput metadata = fetch_path("/to-metadata");
  EXPECT_TRUE(metadata.is_error);
  EXPECT_EQ(metadata.output,
            "Error: Cannot fetch http://169.254.169.254/latest/meta-data/: its address "
            "169.254.169.254 is a link-local address, and web_fetch connects only to public "
            "addresses: a model must not reach into this machine or its network (the user can "
            "open this host with the permission rule WebFetch(domain:169.254.169.254) in "
            "permissions.allow).");
  EXPECT_TRUE(contains(fetch_path("/to-lan").output, "::ffff:192.168.1.1 is a private address"));
}

TEST_F(WebFetchTest, LoopbackIsRefusedUnlessAllowed) {
  server_.page("/secret", WebPage{200, "text/plain", "secret", {}});
  const core::ToolOutput refused =
      tool(FetchPolicy{})->execute({{"url", server_.url("/secret")}}, {}, {"c", logs_.path()});
  EXPECT_TRUE(refused.is_error);
  EXPECT_TRUE(contains(refused.output, "127.0.0.1 is a loopback address")) << refused.output;
  EXPECT_EQ(server_.requests("/secret"), 0u);
  const core::ToolOutput allowed =
      tool(FetchPolicy{.allow_private_addresses = true})
          ->execute({{"url", server_.url("/secret")}}, {}, {"c", logs_.path()});
  EXPECT_TRUE(allowed.output.ends_with("secret")) << allowed.output;
}

// A host the settings open (a WebFetch(domain:...) allow rule) may be on a loopback or private
// address; every other host of the chain, a redirect's included, is still checked.
TEST_F(WebFetchTest, AnOpenedHostMayBeOnALoopbackAddressAndOnlyThatHost) {
  server_.page("/secret", WebPage{200, "text/plain", "secret", {}});
  const std::string direct = server_.url("/secret");  // http://127.0.0.1:PORT/secret
  std::string by_name = direct;
  by_name.replace(by_name.find("127.0.0.1"), 9, "localhost");
  server_.redirect("/to-address", direct);
  std::string redirect_by_name = server_.url("/to-address");
  redirect_by_name.replace(redirect_by_name.find("127.0.0.1"), 9, "localhost");
  std::vector<std::string> asked;
  const core::ToolPtr opened =
      tool(FetchPolicy{.private_host_allowed = [&asked](std::string_view host) {
        asked.emplace_back(host);
        return host == "localhost";
      }});
  const core::ToolOutput allowed = opened->execute({{"url", by_name}}, {}, {"c", logs_.path()});
  EXPECT_TRUE(allowed.output.ends_with("secret")) << allowed.output;
  const core::ToolOutput other = opened->execute({{"url", direct}}, {}, {"c", logs_.path()});
  EXPECT_TRUE(other.is_error);
  EXPECT_TRUE(contains(other.output, "127.0.0.1 is a loopback address")) << other.output;
  EXPECT_TRUE(contains(other.output, "WebFetch(domain:127.0.0.1) in permissions.allow"))
      << other.output;
  const core::ToolOutput redirected =
      opened->execute({{"url", redirect_by_name}}, {}, {"c", logs_.path()});
  EXPECT_TRUE(redirected.is_error) << redirected.output;
  EXPECT_TRUE(contains(redirected.output, "127.0.0.1 is a loopback address")) << redirected.output;
  EXPECT_EQ(server_.requests("/to-address"), 1u);
  EXPECT_EQ(server_.requests("/secret"), 1u);  // the first call's only
  EXPECT_EQ(asked, (std::vector<std::string>{"localhost", "127.0.0.1", "localhost", "127.0.0.1"}));
}

TEST_F(WebFetchTest, OnlyHttpAndHttpsUrlsAreTaken) {
  EXPECT_EQ(fetch({{"url", "file:///etc/passwd"}}).output,
            "Error: file:// URLs are not fetched: web_fetch reads http and https URLs only. Read "
            "local files with read.");
  EXPECT_TRUE(fetch({{"url", "docs.rs/serde"}}).is_error);
}

TEST_F(WebFetchTest, ABodyOverTheCapIsCutWithANote) {
  server_.endless("/huge", "text/plain", std::string(64 * 1024, 'x') + "\n");
  const core::ToolOutput result = fetch_path("/huge");
  ASSERT_FALSE(result.is_error) << result.output.substr(0, 300);
  EXPECT_TRUE(contains(result.output, "\nType: text/plain, more than 10 MB\n"))
      << result.output.substr(0, 300);
  EXPECT_TRUE(contains(result.output,
                       "[The response is larger than 10 MB: only its first 10 MB "
                       "were downloaded and converted.]"));
}

TEST_F(WebFetchTest, MoreThanMaxCharsIsCutAndTheFullTextSaved) {
  std::string text;
  for (int i = 0; i < 100; ++i) text += "line " + std::to_string(i) + " é\n";
  server_.page("/long.txt", WebPage{200, "text/plain; charset=utf-8", text, {}});
  const core::ToolOutput result = fetch({{"url", server_.url("/long.txt")}, {"max_chars", 95}});
  ASSERT_FALSE(result.is_error) << result.output;
  // 95 characters end inside line 10; the cut goes back to the end of line 9 (90 characters).
  const std::string shown = result.output.substr(result.output.find("\n\n") + 2);
  EXPECT_TRUE(shown.starts_with("line 0 é\nline 1 é\n")) << shown;
  EXPECT_TRUE(contains(shown, "line 9 é\n\n[Showing the first 90 of 990 characters. Full text: "))
      << shown;
  const std::size_t path_start = shown.find("Full text: ") + 11;
  const std::string path = shown.substr(path_start, shown.find(" (read it") - path_start);
  EXPECT_EQ(testing::file_contents(path), text);
  EXPECT_TRUE(shown.ends_with(" (read it with offset and limit, or grep it).]"));
}

TEST_F(WebFetchTest, AnHttpErrorIsAnErrorWithTheStartOfTheResponse) {
  server_.page("/gone", WebPage{410, "application/json", "{\"message\": \"repository gone\"}", {}});
  const core::ToolOutput result = fetch_path("/gone");
  EXPECT_TRUE(result.is_error);
  EXPECT_EQ(result.output, "Error: HTTP 410 from " + server_.url("/gone") +
                               ". The response began:\n\n{\"message\": \"repository gone\"}");
  EXPECT_EQ(fetch_path("/missing").output, "Error: HTTP 404 from " + server_.url("/missing") +
                                               ". The response began:\n\nnot found");
}

TEST_F(WebFetchTest, AServerTooSlowForTheTimeoutEndsTheCall) {
  server_.held("/slow", WebPage{200, "text/plain", "late", {}});
  const core::ToolOutput result =
      tool({.allowed_addresses = {"127.0.0.1"}, .timeout = std::chrono::milliseconds(200)})
          ->execute({{"url", server_.url("/slow")}}, {}, {"c", logs_.path()});
  EXPECT_TRUE(result.is_error);
  EXPECT_EQ(result.output, "Error: Timed out: the fetch did not finish within 200 ms (" +
                               server_.url("/slow") + ").");
  EXPECT_EQ(server_.requests("/slow"), 1u);
}

TEST_F(WebFetchTest, AbortEndsAFetchThatWaitsForTheServer) {
  server_.held("/slow", WebPage{200, "text/plain", "late", {}});
  std::stop_source stop;
  core::ToolOutput result;
  std::thread call([&] { result = fetch({{"url", server_.url("/slow")}}, stop.get_token()); });
  server_.wait_for_request("/slow");
  stop.request_stop();
  call.join();
  EXPECT_TRUE(result.is_error);
  EXPECT_EQ(result.output, "Error: Aborted: fetching " + server_.url("/slow") + " was stopped.");
}

TEST_F(WebFetchTest, TheSpecIsConcurrencySafeAndQuotesTheLimits) {
  const core::ToolPtr web_fetch = tool();
  EXPECT_EQ(web_fetch->name(), "web_fetch");
  EXPECT_TRUE(web_fetch->spec().concurrency_safe);
  const std::string& description = web_fetch->spec().description;
  EXPECT_TRUE(contains(description, "default 40,000, at most 100,000")) << description;
  EXPECT_TRUE(contains(description, "saved to a file"));
  EXPECT_TRUE(contains(description, "Private and local addresses are refused"));
  EXPECT_EQ(web_fetch->describe_call({{"url", "https://docs.rs/"}}), "https://docs.rs/");
}

}  // namespace
}  // namespace nib::tools
