#pragma once
// An HTML page as readable, Markdown-like text for the model (web_fetch): headings as "#",
// paragraphs separated by blank lines, lists as "-" and "1.", blockquotes as ">", <pre> as
// fenced code blocks (with the language a class="language-x" names), inline code in
// backticks, bold and italics as ** and *, links as [text](absolute URL), images with an alt
// text as ![alt](URL), tables as "| a | b |" rows (layout tables, which hold blocks, as their
// blocks). Scripts, styles, navigation, forms' controls, embedded media and hidden elements are
// left out. libgumbo parses the HTML as browsers do (HTML5); the rendering is nib's.
//
// Pure; thread-safe.

#include <string>
#include <string_view>

namespace nib::tools {

struct HtmlText {
  std::string title;  // the <title>, whitespace collapsed; "" when there is none
  std::string text;   // the body as text, ending without a newline
};

// The text of `html` (UTF-8; invalid bytes should have been replaced already). Relative links
// are resolved against the page's <base href>, else `page_url`.
HtmlText html_to_text(std::string_view html, const std::string& page_url);

}  // namespace nib::tools
