#pragma once
// What preparing an image gives (image.hpp): the limits it works within and the image ready to
// attach, or why there is none. A header of its own because the image module's entry point
// (image_module.hpp) takes and fills these as they are, and image.cpp, which loads the module,
// includes that boundary.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "tools/limits.hpp"

namespace nib::tools {

struct ImageLimits {
  int max_edge_px = kMaxImageEdgePx;          // longest side of the attached image
  std::size_t max_bytes = kMaxImageBytes;     // encoded size of the attached image
  std::int64_t max_pixels = kMaxImagePixels;  // of the source; larger ones are not decoded
};

// An image ready to attach, and what was done to it on the way.
struct PreparedImage {
  std::string data;       // the encoded image (not base64)
  std::string mime_type;  // "image/png" or "image/jpeg"
  int width = 0;          // of `data`
  int height = 0;
  int source_width = 0;  // upright, i.e. after the EXIF rotation
  int source_height = 0;
  std::string source_mime_type;
  bool rotated = false;    // an EXIF orientation was applied
  bool reencoded = false;  // `data` is not the file's own bytes
  int jpeg_quality = 0;    // when re-encoded as JPEG
  int frame_count = 1;     // frames in the source; only the first is attached
};

// Either an image or why there is none.
struct ImageOutcome {
  std::optional<PreparedImage> image;
  std::string failure;   // when there is no image: a reason written for the model
  bool aborted = false;  // `stop` was requested
};

}  // namespace nib::tools
