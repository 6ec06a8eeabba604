// web_content: what a fetched body becomes for the model, by its declared or sniffed type and
// character set; PDFs through the PDF module (poppler).

#include "tools/web_content.hpp"

#include <gtest/gtest.h>

#include "sample_pdf.hpp"

namespace nib::tools {
namespace {

const std::string kUrl = "https://example.com/dir/page";

WebContent convert(std::string_view bytes, std::string_view content_type, bool cut = false) {
  return web_content({bytes, content_type, kUrl, cut}, {});
}

TEST(WebContentTest, HtmlIsConvertedWithItsTitleAndLinks) {
  const WebContent content = convert("<title>T</title><h1>Head</h1><p><a href=\"x\">x link</a></p>",
                                     "text/html; charset=utf-8");
  EXPECT_EQ(content.kind, WebContentKind::kHtml);
  EXPECT_EQ(content.mime, "text/html");
  EXPECT_EQ(content.title, "T");
  EXPECT_EQ(content.text, "# Head\n\n[x link](https://example.com/dir/x)");
  EXPECT_TRUE(content.notes.empty());
}

TEST(WebContentTest, JsonAndTextComeAsTheyAre) {
  const std::string json = "{\n  \"a\": [1, 2],\n  \"<b>\": \"not html\"\n}";
  EXPECT_EQ(convert(json, "application/json").text, json);
  EXPECT_EQ(convert(json, "application/problem+json").kind, WebContentKind::kJson);
  EXPECT_EQ(convert("  <b>kept</b>\n", "text/plain").text, "  <b>kept</b>\n");
  EXPECT_EQ(convert("a,b\n1,2\n", "text/csv").kind, WebContentKind::kText);
  EXPECT_EQ(convert("<x/>", "application/atom+xml").text, "<x/>");
}

TEST(WebContentTest, TheDeclaredCharsetIsDecoded) {
  EXPECT_EQ(convert("caf\xE9", "text/plain; charset=iso-8859-1").text, "caf\xC3\xA9");
  // An HTML page may declare its charset in a <meta> instead.
  EXPECT_EQ(convert("<meta charset=\"windows-1252\"><p>caf\xE9</p>", "text/html").text,
            "caf\xC3\xA9");
  EXPECT_EQ(convert("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=shift_jis\">"
                    "<p>\x93\xFA\x96\x7B</p>",
                    "text/html")
                .text,
            "\xE6\x97\xA5\xE6\x9C\xAC");
  // The header wins over the <meta>.
  EXPECT_EQ(
      convert("<meta charset=\"shift_jis\"><p>caf\xC3\xA9</p>", "text/html; charset=utf-8").text,
      "caf\xC3\xA9");
}

TEST(WebContentTest, InvalidBytesAreReplacedAndAnUnknownCharsetIsNoted) {
  EXPECT_EQ(convert("bad \xFF byte", "text/plain").text, "bad \xEF\xBF\xBD byte");
  const WebContent unknown = convert("text", "text/plain; charset=x-martian");
  EXPECT_EQ(unknown.text, "text");
  ASSERT_EQ(unknown.notes.size(), 1u);
  EXPECT_NE(unknown.notes[0].find("\"x-martian\" is unknown"), std::string::npos);
}

TEST(WebContentTest, ABinaryIsANoticeNamingItsTypeAndSize) {
  const std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
  const WebContent content = convert(png, "image/png");
  EXPECT_EQ(content.kind, WebContentKind::kBinary);
  EXPECT_EQ(content.text,
            "[The response is image/png (16 bytes), not text: web_fetch shows HTML, text, JSON and "
            "PDF only.]");
}

TEST(WebContentTest, AMissingOrGenericTypeIsSniffed) {
  EXPECT_EQ(convert("<!DOCTYPE html><p>hi</p>", "").kind, WebContentKind::kHtml);
  EXPECT_EQ(convert("{\"a\":1}", "application/octet-stream").kind, WebContentKind::kJson);
  EXPECT_EQ(convert("just words", "").kind, WebContentKind::kText);
  EXPECT_EQ(convert(std::string("\x7f"
                                "ELF\0\0",
                                6),
                    "")
                .kind,
            WebContentKind::kBinary);
  EXPECT_EQ(convert(testing::sample_pdf({"x"}), "application/octet-stream").kind,
            WebContentKind::kPdf);
}

TEST(WebContentTest, APdfIsItsTextPageByPage) {
  const WebContent content =
      convert(testing::sample_pdf({"First page text", "Second page text"}), "application/pdf");
  EXPECT_EQ(content.kind, WebContentKind::kPdf);
  EXPECT_EQ(content.text,
            "--- Page 1 of 2 ---\nFirst page text\n\n--- Page 2 of 2 ---\nSecond page text");
}

TEST(WebContentTest, ADamagedOrCutPdfIsANotice) {
  EXPECT_EQ(convert("%PDF-1.4 garbage", "application/pdf").text,
            "[The PDF (16 bytes) could not be read: it is damaged or not a PDF]");
  EXPECT_NE(convert(testing::sample_pdf({"x"}), "application/pdf", /*cut=*/true)
                .text.find("more than web_fetch downloads"),
            std::string::npos);
}

}  // namespace
}  // namespace nib::tools
