#include "tools/pdf_text.hpp"

#include "process/loadable_module.hpp"

namespace nib::tools {

PdfText pdf_to_text(std::string_view bytes, std::stop_token stop) {
  static const process::LoadedModule module =
      process::load_module({kPdfModuleFile, "NIB_PDF_MODULE", kPdfTextSymbol});
  PdfText result;
  if (module.entry == nullptr) {
    result.error = "nib's PDF support is not installed: " + module.failure;
    return result;
  }
  reinterpret_cast<PdfTextFunction>(module.entry)(PdfJob{bytes, std::move(stop)}, result);
  return result;
}

}  // namespace nib::tools
