#pragma once
// A fetched body as text for the model (web_fetch): HTML converted to Markdown-like text
// (html_text.hpp), JSON and plain text as they are, PDFs as their text page by page
// (pdf_text.hpp), and for any other type a notice naming it and its size. The body's declared
// character set (the Content-Type's charset, else for HTML a <meta charset>) is decoded to
// UTF-8, invalid bytes replaced. A missing or generic type (application/octet-stream) is
// sniffed from the first bytes. Pure apart from loading the PDF module; thread-safe.

#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace nib::tools {

enum class WebContentKind { kHtml, kJson, kText, kPdf, kBinary };

struct WebContent {
  WebContentKind kind = WebContentKind::kText;
  std::string mime;   // the type as declared ("text/html"), or as sniffed when none was
  std::string title;  // HTML only
  // The text; for a binary (and a PDF that could not be read) the notice.
  std::string text;
  std::vector<std::string> notes;  // what the model should know about the conversion
};

struct FetchedBody {
  std::string_view bytes;
  std::string_view content_type;  // the Content-Type header, "" when none
  const std::string& url;         // the URL it came from (links are resolved against it)
  bool cut = false;               // only the body's first bytes were downloaded
};

WebContent web_content(const FetchedBody& body, std::stop_token stop);

}  // namespace nib::tools
