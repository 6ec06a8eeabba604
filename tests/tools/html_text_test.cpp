// html_to_text: HTML pages as Markdown-like text, on fixtures (tests/tools/fixtures/html: each
// NAME.html beside the NAME.md it must become, fetched from https://docs.example.com/guide/) and
// on the cases they do not show.

#include "tools/html_text.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tools/limits.hpp"

namespace nib::tools {
namespace {

constexpr const char* kPageUrl = "https://docs.example.com/guide/index.html";

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(NIB_SOURCE_DIR) + "/tests/tools/fixtures/html/" + name,
                   std::ios::binary);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

std::string text_of(std::string_view html) {
  return html_to_text(html, kPageUrl).text;
}

class HtmlFixtureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(HtmlFixtureTest, BecomesItsMarkdown) {
  const std::string html = fixture(GetParam() + ".html");
  ASSERT_FALSE(html.empty());
  std::string expected = fixture(GetParam() + ".md");
  while (!expected.empty() && expected.back() == '\n') expected.pop_back();
  EXPECT_EQ(text_of(html), expected);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, HtmlFixtureTest, ::testing::Values("docs_page", "layout_table"));

TEST(HtmlTextTest, TheTitleIsTakenFromTheHeadWithItsWhitespaceCollapsed) {
  EXPECT_EQ(html_to_text(fixture("docs_page.html"), kPageUrl).title, "Widgets & Gadgets — Guide");
  EXPECT_EQ(html_to_text("<p>no head</p>", kPageUrl).title, "");
}

TEST(HtmlTextTest, WhitespaceAroundInlineElementsIsKeptOnce) {
  EXPECT_EQ(text_of("<p>a<b> bold </b>word and<i>tight</i>ly</p>"), "a **bold** word and*tight*ly");
  EXPECT_EQ(text_of("<p>  lots \n\t of   space  </p>"), "lots of space");
}

TEST(HtmlTextTest, LinksAreResolvedAgainstTheBaseElement) {
  EXPECT_EQ(text_of("<head><base href=\"https://cdn.example.net/v2/\"></head>"
                    "<p><a href=\"api.html\">API</a> <a href=\"/root\">root</a> "
                    "<a href=\"//other.example/x\">other</a> <a href=\"?q=1\">query</a></p>"),
            "[API](https://cdn.example.net/v2/api.html) [root](https://cdn.example.net/root) "
            "[other](https://other.example/x) [query](https://cdn.example.net/v2/?q=1)");
}

TEST(HtmlTextTest, LinksWithoutTextOrWithoutAUsefulTargetKeepOnlyTheirText) {
  EXPECT_EQ(text_of("<p><a href=\"/icon\"><i class=\"icon\"></i></a>x "
                    "<a href=\"#part\">part</a> <a>anchor</a> "
                    "<a href=\"data:text/html,hi\">data</a></p>"),
            "x part anchor data");
  // A link whose text is its URL shows the URL once.
  EXPECT_EQ(text_of("<a href=\"https://a.example/\">https://a.example/</a>"), "https://a.example/");
}

TEST(HtmlTextTest, ALinkAroundAnImageOrBlocksStaysOnOneLine) {
  EXPECT_EQ(
      text_of("<a href=\"/big.png\"><img src=\"small.png\" alt=\"chart\"></a>"),
      "[![chart](https://docs.example.com/guide/small.png)](https://docs.example.com/big.png)");
  EXPECT_EQ(text_of("<a href=\"/card\"><div><h3>Title</h3><p>Summary</p></div></a>"),
            "[Title Summary](https://docs.example.com/card)");
}

TEST(HtmlTextTest, CodeThatHoldsBackticksGetsALongerFence) {
  EXPECT_EQ(text_of("<p><code>a`b</code></p>"), "`` a`b ``");
  EXPECT_EQ(text_of("<pre>```\nfenced\n```</pre>"), "````\n```\nfenced\n```\n````");
}

TEST(HtmlTextTest, PreformattedTextKeepsItsSpacesAndLineBreaksInsideQuotesAndLists) {
  EXPECT_EQ(text_of("<ul><li>step<pre>  indented\n\ttab<br>broken</pre></li></ul>"),
            "- step\n\n  ```\n    indented\n  \ttab\n  broken\n  ```");
  EXPECT_EQ(text_of("<blockquote>quoted<blockquote>twice</blockquote></blockquote>"),
            "> quoted\n>\n> > twice");
}

TEST(HtmlTextTest, ScriptsStylesAndTemplatesAreLeftOutEvenInTheBody) {
  EXPECT_EQ(text_of("<p>a</p><script>alert(1)</script><style>p{}</style>"
                    "<template><p>t</p></template><svg><text>svg</text></svg><p>b</p>"),
            "a\n\nb");
}

TEST(HtmlTextTest, BrokenHtmlIsReadAsBrowsersReadIt) {
  EXPECT_EQ(text_of("<p>one<p>two<li>item<table><td>cell</table><b>bold <i>both</b> italic"),
            "one\n\ntwo\n\n- item\n\n  cell\n\n  **bold *both*** *italic*");
}

TEST(HtmlTextTest, ElementsNestedTooDeepAreLeftOutWithANoteAndNoCrash) {
  std::string html;
  for (int i = 0; i < 100'000; ++i) html += "<div>";
  html += "deep";
  const std::string text = text_of("<p>shallow</p>" + html);
  EXPECT_TRUE(text.starts_with("shallow")) << text.substr(0, 200);
  EXPECT_EQ(text.find("deep\n"), std::string::npos);
  EXPECT_NE(text.find("nested deeper than " + std::to_string(kHtmlMaxDepth) + " elements"),
            std::string::npos);
  // Past kHtmlMaxParseDepth, the page is not parsed at all (libgumbo would take minutes).
  EXPECT_NE(text.find("nest more than " + std::to_string(kHtmlMaxParseDepth) + " deep"),
            std::string::npos);
}

TEST(HtmlTextTest, AnEmptyDocumentIsEmptyText) {
  EXPECT_EQ(text_of(""), "");
  EXPECT_EQ(text_of("<html><body>  </body></html>"), "");
}

}  // namespace
}  // namespace nib::tools
