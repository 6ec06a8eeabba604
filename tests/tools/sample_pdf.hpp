#pragma once
// A small PDF written from scratch for the PDF tests: one page per string, each showing its
// string in Helvetica, with an exact cross-reference table. Thread-safe.

#include <cstdio>
#include <string>
#include <vector>

namespace nib::testing {

// A PDF of `pages` (plain ASCII text without parentheses or backslashes).
inline std::string sample_pdf(const std::vector<std::string>& pages) {
  std::vector<std::string> objects;  // object i + 1
  std::string kids;
  const std::size_t first_page = 4;  // objects 1-3: catalog, page tree, font
  for (std::size_t i = 0; i < pages.size(); ++i) {
    kids += std::to_string(first_page + 2 * i) + " 0 R ";
  }
  objects.push_back("<< /Type /Catalog /Pages 2 0 R >>");
  objects.push_back("<< /Type /Pages /Kids [" + kids + "] /Count " + std::to_string(pages.size()) +
                    " >>");
  objects.push_back("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  for (std::size_t i = 0; i < pages.size(); ++i) {
    const std::string stream = "BT /F1 18 Tf 72 720 Td (" + pages[i] + ") Tj ET";
    objects.push_back("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents " +
                      std::to_string(first_page + 2 * i + 1) +
                      " 0 R /Resources << /Font << /F1 3 0 R >> >> >>");
    objects.push_back("<< /Length " + std::to_string(stream.size()) + " >>\nstream\n" + stream +
                      "\nendstream");
  }
  std::string pdf = "%PDF-1.4\n";
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(pdf.size());
    pdf += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  const std::size_t xref = pdf.size();
  pdf += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (const std::size_t offset : offsets) {
    char entry[32];
    std::snprintf(entry, sizeof(entry), "%010zu 00000 n \n", offset);
    pdf += entry;
  }
  pdf += "trailer\n<< /Size " + std::to_string(objects.size() + 1) +
         " /Root 1 0 R >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  return pdf;
}

}  // namespace nib::testing
