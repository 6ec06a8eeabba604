#include "tools/web_content.hpp"

#include <algorithm>
#include <cctype>

#include "tools/html_text.hpp"
#include "tools/pdf_text.hpp"
#include "util/ascii.hpp"
#include "util/byte_size.hpp"
#include "util/charset.hpp"
#include "util/utf8.hpp"

namespace nib::tools {
namespace {

// How far into an HTML page a <meta charset> is looked for (the HTML standard's prescan
// reads 1024 bytes).
constexpr std::size_t kMetaPrescanBytes = 1024;
// How much of a body of no declared type is sniffed.
constexpr std::size_t kSniffBytes = 8 * 1024;

// "text/html" from "Text/HTML; charset=utf-8".
std::string mime_type(std::string_view content_type) {
  return util::ascii_lower(util::ascii_trim(content_type.substr(0, content_type.find(';'))));
}

bool is_textual(const std::string& mime) {
  static constexpr std::string_view kTextual[] = {
      "application/xml",          "application/javascript", "application/ecmascript",
      "application/x-javascript", "application/yaml",       "application/x-yaml",
      "application/toml",         "application/x-sh",       "application/sql",
      "application/graphql",      "application/x-tex",      "application/rtf",
  };
  return mime.starts_with("text/") || mime.ends_with("+xml") ||
         std::find(std::begin(kTextual), std::end(kTextual), mime) != std::end(kTextual);
}

// The kind a body of no useful declared type is, from its first bytes.
WebContentKind sniff(std::string_view bytes) {
  const std::string_view start = bytes.substr(0, kSniffBytes);
  if (start.starts_with("%PDF-")) return WebContentKind::kPdf;
  if (start.find('\0') != std::string_view::npos) return WebContentKind::kBinary;
  const std::string head = util::ascii_lower(start.substr(0, kMetaPrescanBytes));
  if (head.find("<!doctype html") != std::string::npos || head.find("<html") != std::string::npos) {
    return WebContentKind::kHtml;
  }
  // A body cut inside its last character is still text.
  const std::size_t whole = util::utf8_prefix_length(start, start.size());
  if (!util::is_valid_utf8(start.substr(0, whole))) return WebContentKind::kBinary;
  const char first = start.empty() ? ' ' : start.front();
  return first == '{' || first == '[' ? WebContentKind::kJson : WebContentKind::kText;
}

WebContentKind kind_of(const std::string& mime, std::string_view bytes) {
  if (mime == "text/html" || mime == "application/xhtml+xml") return WebContentKind::kHtml;
  if (mime == "application/json" || mime == "text/json" || mime.ends_with("+json") ||
      mime == "application/x-ndjson") {
    return WebContentKind::kJson;
  }
  if (mime == "application/pdf") return WebContentKind::kPdf;
  if (is_textual(mime)) return WebContentKind::kText;
  if (mime.empty() || mime == "application/octet-stream" || mime == "binary/octet-stream") {
    return sniff(bytes);
  }
  return WebContentKind::kBinary;
}

// The charset a <meta> in the page's first bytes declares: <meta charset="x"> or
// <meta http-equiv="Content-Type" content="text/html; charset=x">.
std::string meta_charset(std::string_view html) {
  const std::string head = util::ascii_lower(html.substr(0, kMetaPrescanBytes));
  for (std::size_t pos = head.find("<meta"); pos != std::string::npos;
       pos = head.find("<meta", pos + 1)) {
    const std::string_view tag = std::string_view(head).substr(pos, head.find('>', pos) - pos);
    std::size_t at = tag.find("charset");
    if (at == std::string_view::npos) continue;
    at += 7;
    while (at < tag.size() &&
           (tag[at] == ' ' || tag[at] == '=' || tag[at] == '"' || tag[at] == '\'')) {
      ++at;
    }
    std::size_t end = at;
    while (end < tag.size() &&
           (std::isalnum(static_cast<unsigned char>(tag[end])) ||
            std::string_view("-_:.").find(tag[end]) != std::string_view::npos)) {
      ++end;
    }
    if (end > at) return std::string(tag.substr(at, end - at));
  }
  return "";
}

std::string decode(const FetchedBody& body, const std::string& charset, WebContent& content) {
  util::DecodedText decoded = util::decode_to_utf8(body.bytes, charset);
  if (!decoded.known) {
    content.notes.push_back("The page's character set \"" + charset +
                            "\" is unknown to nib; it was read as UTF-8.");
  }
  return std::move(decoded.text);
}

std::string size_text(const FetchedBody& body) {
  return (body.cut ? "more than " : "") + util::format_byte_size(body.bytes.size());
}

}  // namespace

WebContent web_content(const FetchedBody& body, std::stop_token stop) {
  WebContent content;
  content.mime = mime_type(body.content_type);
  content.kind = kind_of(content.mime, body.bytes);
  std::string charset = util::charset_parameter(body.content_type);
  switch (content.kind) {
    case WebContentKind::kHtml: {
      if (charset.empty()) charset = meta_charset(body.bytes);
      HtmlText html = html_to_text(decode(body, charset, content), body.url);
      content.title = std::move(html.title);
      content.text = std::move(html.text);
      break;
    }
    case WebContentKind::kJson:
    case WebContentKind::kText:
      content.text = decode(body, charset, content);
      break;
    case WebContentKind::kPdf: {
      if (body.cut) {
        content.text = "[The PDF is " + size_text(body) +
                       " long, more than web_fetch downloads, so its text cannot be read. "
                       "Download it with bash (curl -o) if it is needed.]";
        break;
      }
      PdfText pdf = pdf_to_text(body.bytes, stop);
      if (!pdf.error.empty()) {
        content.text = "[The PDF (" + size_text(body) + ") could not be read: " + pdf.error + "]";
      } else {
        content.text = std::move(pdf.text);
      }
      break;
    }
    case WebContentKind::kBinary:
      content.text = "[The response is " + (content.mime.empty() ? "binary data" : content.mime) +
                     " (" + size_text(body) +
                     "), not text: web_fetch shows HTML, text, JSON and PDF only.]";
      break;
  }
  if (content.mime.empty()) {
    content.mime = content.kind == WebContentKind::kHtml   ? "text/html"
                   : content.kind == WebContentKind::kJson ? "application/json"
                   : content.kind == WebContentKind::kPdf  ? "application/pdf"
                   : content.kind == WebContentKind::kText ? "text/plain"
                                                           : "";
  }
  return content;
}

}  // namespace nib::tools
