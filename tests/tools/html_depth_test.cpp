// html_length_within_depth: the estimate of how deeply a page's elements nest, and where it
// passes the limit.

#include "tools/html_depth.hpp"

#include <gtest/gtest.h>

namespace nib::tools {
namespace {

std::string repeated(std::string_view piece, int times) {
  std::string text;
  for (int i = 0; i < times; ++i) text += piece;
  return text;
}

TEST(HtmlDepthTest, APageWithinTheLimitIsWhole) {
  const std::string page = "<html><body><div><p>a<p>b<ul><li>x<li>y</ul></div></body></html>";
  EXPECT_EQ(html_length_within_depth(page, 2), page.size());
}

TEST(HtmlDepthTest, ThePageIsCutAtTheTagThatOpensOneLevelTooMany) {
  const std::string page = "<div><section><span>text</span><b>";
  EXPECT_EQ(html_length_within_depth(page, 2), page.find("<span>"));
  EXPECT_EQ(html_length_within_depth(repeated("<div>", 100), 10), 10 * 5u);
}

TEST(HtmlDepthTest, ClosedVoidSelfClosedForeignAndNonNestingElementsDoNotAddUp) {
  EXPECT_EQ(html_length_within_depth(repeated("<div></div>", 1000), 1), 11'000u);
  EXPECT_EQ(html_length_within_depth(repeated("<br><img src=x><p>para<li>item<td>", 1000), 0),
            34'000u);
  const std::string svg = "<svg>" + repeated("<path d=\"M0 0\"/>", 1000) + "</svg>";
  EXPECT_EQ(html_length_within_depth(svg, 1), svg.size());
}

TEST(HtmlDepthTest, SelfClosingSyntaxOnAnHtmlElementStillOpensIt) {
  // "<div/>" opens a div in HTML, as parsers read it.
  EXPECT_LT(html_length_within_depth(repeated("<div/>", 100), 10), 600u);
}

TEST(HtmlDepthTest, EndTagsWithoutAnOpenElementCloseNothing) {
  const std::string page = repeated("<div></span>", 100);
  EXPECT_EQ(html_length_within_depth(page, 10), 10 * 12u);
}

TEST(HtmlDepthTest, TagsInScriptsCommentsAndAttributesAreNotTags) {
  const std::string page = "<script>" + repeated("<div>", 50) + "</script><!-- " +
                           repeated("<div>", 50) + " --><a title=\"" + repeated("<div>", 50) +
                           "\">x</a>";
  EXPECT_EQ(html_length_within_depth(page, 1), page.size());
}

}  // namespace
}  // namespace nib::tools
