#include "tools/image.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <vector>

#include "tools/image_module.hpp"

namespace nib::tools {
namespace {

namespace fs = std::filesystem;

// Where the image module may be: only $NIB_IMAGE_MODULE when set (for packagers); otherwise
// beside the running binary (a build tree), in ../lib/nib from it (an installed nib), and in
// the build directory (test binaries live in a subdirectory).
std::vector<fs::path> module_candidates() {
  if (const char* chosen = std::getenv("NIB_IMAGE_MODULE"); chosen != nullptr && *chosen != 0) {
    return {fs::path(chosen)};
  }
  std::vector<fs::path> candidates;
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (!error) {
    candidates.push_back(self.parent_path() / kImageModuleFile);
    candidates.push_back(self.parent_path().parent_path() / "lib" / "nib" / kImageModuleFile);
  }
  candidates.push_back(fs::path(NIB_IMAGE_MODULE_DIR) / kImageModuleFile);
  return candidates;
}

struct LoadedModule {
  ImagePrepareFunction prepare = nullptr;
  std::string failure;  // why it could not be loaded
};

// Loads the module once per process (it stays loaded: libvips cannot be shut down and restarted).
const LoadedModule& image_module() {
  static std::once_flag once;
  static LoadedModule loaded;
  std::call_once(once, [] {
    std::string tried;
    for (const fs::path& candidate : module_candidates()) {
      if (access(candidate.c_str(), R_OK) != 0) {
        tried += (tried.empty() ? "" : ", ") + candidate.string();
        continue;
      }
      void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle == nullptr) {
        loaded.failure = dlerror();
        return;
      }
      loaded.prepare = reinterpret_cast<ImagePrepareFunction>(dlsym(handle, kImagePrepareSymbol));
      if (loaded.prepare == nullptr) loaded.failure = dlerror();
      return;
    }
    loaded.failure = std::string(kImageModuleFile) + " was not found (looked at " + tried + ")";
  });
  return loaded;
}

}  // namespace

ImageOutcome prepare_image(std::string_view bytes, ImageFormat format, const ImageLimits& limits,
                           std::stop_token stop) {
  const LoadedModule& module = image_module();
  if (module.prepare == nullptr) {
    return {std::nullopt, "nib's image support is not installed: " + module.failure, false};
  }
  ImageOutcome outcome;
  module.prepare(ImageJob{bytes, format, limits, std::move(stop)}, outcome);
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
