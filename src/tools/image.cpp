#include "tools/image.hpp"

#include <vector>

#include "process/loadable_module.hpp"
#include "tools/image_module.hpp"

namespace nib::tools {
namespace {

// Loaded once per process (it stays loaded: libvips cannot be shut down and restarted).
const process::LoadedModule& image_module() {
  static const process::LoadedModule loaded =
      process::load_module({kImageModuleFile, "NIB_IMAGE_MODULE", kImagePrepareSymbol});
  return loaded;
}

}  // namespace

ImageOutcome prepare_image(std::string_view bytes, ImageFormat format, const ImageLimits& limits,
                           std::stop_token stop) {
  const process::LoadedModule& module = image_module();
  if (module.entry == nullptr) {
    return {std::nullopt, "nib's image support is not installed: " + module.failure, false};
  }
  ImageOutcome outcome;
  reinterpret_cast<ImagePrepareFunction>(module.entry)(
      ImageJob{bytes, format, limits, std::move(stop)}, outcome);
  return outcome;
}

std::string describe_prepared_image(const PreparedImage& image) {
  std::vector<std::string> notes;
  const auto size = [](int width, int height) {
    return std::to_string(width) + "x" + std::to_string(height);
  };
  if (image.width != image.source_width || image.height != image.source_height) {
    notes.push_back("resized from " + size(image.source_width, image.source_height) + " to " +
                    size(image.width, image.height));
  } else {
    notes.push_back(size(image.width, image.height));
  }
  if (image.rotated) notes.push_back("rotated upright by its EXIF orientation");
  if (image.mime_type != image.source_mime_type) {
    notes.push_back("converted from " + image.source_mime_type);
  }
  if (image.frame_count > 1) {
    notes.push_back("first frame of " + std::to_string(image.frame_count));
  }
  std::string text = "(";
  for (std::size_t i = 0; i < notes.size(); ++i) text += (i > 0 ? "; " : "") + notes[i];
  return text + ")";
}

}  // namespace nib::tools
