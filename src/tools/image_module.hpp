#pragma once
// The boundary between nib and its image module (libnib_image.so, built from src/image_module):
// libvips and the ~70 shared libraries it pulls in cost ~13 ms of start-up and ~10 MB of
// memory, which every run would pay for the few that read an image. So the module is loaded with
// dlopen on the first image read (loadable_module.hpp).

#include <stop_token>
#include <string_view>

#include "tools/file_type.hpp"
#include "tools/prepared_image.hpp"

namespace nib::tools {

// The module's file name, looked for beside the nib binary, in ../lib/nib from it, and in the
// build directory it was built in; $NIB_IMAGE_MODULE names the file instead.
inline constexpr const char* kImageModuleFile = "libnib_image.so";
// The entry point's name; the suffix changes whenever ImageJob or ImageOutcome change.
inline constexpr const char* kImagePrepareSymbol = "nib_image_prepare_v1";

// One image to prepare; see prepare_image() for the meaning.
struct ImageJob {
  std::string_view bytes;
  ImageFormat format;
  ImageLimits limits;
  std::stop_token stop;
};

using ImagePrepareFunction = void (*)(const ImageJob& job, ImageOutcome& outcome);

}  // namespace nib::tools

// Defined by the module.
extern "C" void nib_image_prepare_v1(const nib::tools::ImageJob& job,
                                     nib::tools::ImageOutcome& outcome);
