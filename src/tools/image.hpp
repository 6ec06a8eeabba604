#pragma once
// Turns an image file's bytes into an attachment the model services accept: decoded with
// libvips, turned upright by its EXIF orientation, scaled to fit an edge limit and encoded as
// PNG or JPEG within a size limit. The work is done by the image module (image_module.hpp),
// loaded on the first call. Thread-safe: the module and libvips are started once and are safe
// to use from several threads after that.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

#include "tools/file_type.hpp"
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

// Decodes `bytes` (which start with `format`'s signature) and prepares it within `limits`. PNG
// and JPEG files already upright and within the limits are passed through unchanged; others
// are re-encoded: PNG for images with transparency or from lossless sources (PNG, GIF),
// otherwise JPEG at decreasing quality, shrinking further until the size limit is met. `stop`
// is checked between steps. Without the image module, the outcome is a failure saying so.
ImageOutcome prepare_image(std::string_view bytes, ImageFormat format, const ImageLimits& limits,
                           std::stop_token stop);

// What happened to the image, for the model: "(800x600)" or "(resized from 4000x3000 to
// 2000x1500; rotated upright by its EXIF orientation)".
std::string describe_prepared_image(const PreparedImage& image);

}  // namespace nib::tools
