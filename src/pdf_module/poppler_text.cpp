// The PDF module (libnib_pdf.so): a PDF's text page by page with poppler-cpp, behind the one
// entry point tools/pdf_text.hpp declares. Thread-safe: each call reads its own document, and
// poppler's error printing is switched off once (it would write to nib's terminal).

#include <poppler-document.h>
#include <poppler-global.h>
#include <poppler-page.h>

#include <climits>
#include <memory>
#include <mutex>

#include "tools/pdf_text.hpp"

namespace {

void ignore_poppler_message(const std::string& /*message*/, void* /*closure*/) {}

}  // namespace

extern "C" void nib_pdf_text_v1(const nib::tools::PdfJob& job, nib::tools::PdfText& result) {
  static std::once_flag quiet;
  std::call_once(quiet, [] { poppler::set_debug_error_function(ignore_poppler_message, nullptr); });
  if (job.bytes.size() > static_cast<std::size_t>(INT_MAX)) {
    result.error = "it is too large";
    return;
  }
  const std::unique_ptr<poppler::document> document(
      poppler::document::load_from_raw_data(job.bytes.data(), static_cast<int>(job.bytes.size())));
  if (!document) {
    result.error = "it is damaged or not a PDF";
    return;
  }
  if (document->is_locked()) {
    result.error = "it is encrypted with a password";
    return;
  }
  const int pages = document->pages();
  result.pages = static_cast<std::size_t>(pages);
  for (int index = 0; index < pages; ++index) {
    if (job.stop.stop_requested()) {
      result.error = "aborted";
      return;
    }
    if (!result.text.empty()) result.text += "\n\n";
    result.text +=
        "--- Page " + std::to_string(index + 1) + " of " + std::to_string(pages) + " ---\n";
    const std::unique_ptr<poppler::page> page(document->create_page(index));
    if (!page) continue;
    const poppler::byte_array utf8 =
        page->text(poppler::rectf(), poppler::page::non_raw_non_physical_layout).to_utf8();
    std::string text(utf8.begin(), utf8.end());
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\f')) {
      text.pop_back();
    }
    result.text += text;
  }
}
