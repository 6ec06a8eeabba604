#pragma once
// Turns an image file's bytes into an attachment the model services accept: decoded with
// libvips, turned upright by its EXIF orientation, scaled to fit an edge limit and encoded as
// PNG or JPEG within a size limit. The work is done by the image module (image_module.hpp),
// loaded on the first call. Thread-safe: the module and libvips are started once and are safe
// to use from several threads after that.

#include <stop_token>
#include <string>
#include <string_view>

#include "tools/file_type.hpp"
#include "tools/prepared_image.hpp"

namespace nib::tools {

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
