#pragma once
// The text of a PDF, page by page, for web_fetch. poppler (through poppler-cpp) does the
// reading in the PDF module, libnib_pdf.so (built from src/pdf_module), which is loaded on the
// first PDF (loadable_module.hpp): poppler and the ~30 libraries it pulls in would otherwise
// cost every run start-up time. Thread-safe: every call reads its own document.

#include <cstddef>
#include <stop_token>
#include <string>
#include <string_view>

namespace nib::tools {

struct PdfText {
  // "--- Page 1 of 3 ---" and the page's text in reading order, for each page.
  std::string text;
  std::size_t pages = 0;
  std::string error;  // why the PDF could not be read (damaged, encrypted, no module); "" if read
};

// The text of the PDF `bytes`. Stops between pages once `stop` fires (error "aborted").
PdfText pdf_to_text(std::string_view bytes, std::stop_token stop);

// The module's file name and entry point (the suffix changes whenever PdfJob or PdfText do).
inline constexpr const char* kPdfModuleFile = "libnib_pdf.so";
inline constexpr const char* kPdfTextSymbol = "nib_pdf_text_v1";

struct PdfJob {
  std::string_view bytes;
  std::stop_token stop;
};

using PdfTextFunction = void (*)(const PdfJob& job, PdfText& result);

}  // namespace nib::tools

// Defined by the module.
extern "C" void nib_pdf_text_v1(const nib::tools::PdfJob& job, nib::tools::PdfText& result);
