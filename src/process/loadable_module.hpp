#pragma once
// nib's optional modules (libnib_image.so for images, libnib_pdf.so for PDFs): shared
// libraries built with nib that wrap a heavy library (libvips, poppler and the dozens of
// libraries each pulls in, which would cost every run start-up time and memory), loaded with
// dlopen on first use. Both sides are built together by the same compiler, so C++ types cross
// the boundary; only the entry point has C linkage, to be found by name. Thread-safe.

#include <string>

namespace nib::process {

struct ModuleSpec {
  const char* file;          // "libnib_image.so"
  const char* env_variable;  // "NIB_IMAGE_MODULE": when set, the module's only place
  const char* symbol;        // the entry point's name
};

struct LoadedModule {
  void* entry = nullptr;  // the entry point, or nullptr when the module could not be loaded
  std::string failure;    // why it could not be loaded
};

// Loads `spec.file` (from $<env_variable> when set; otherwise beside the running binary, in
// ../lib/nib from it, or in the build directory it was built in) and finds its entry point.
// The module stays loaded; callers keep the result (a function-local static) so that a module
// is looked for once per process.
LoadedModule load_module(const ModuleSpec& spec);

}  // namespace nib::process
