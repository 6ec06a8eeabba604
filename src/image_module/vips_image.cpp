// The image module: libvips behind one C entry point, loaded by tools/image.cpp on the first
// image read so that nib itself starts without libvips and its ~70 shared libraries.

#include "tools/image_module.hpp"

#include <vips/vips8>

#include <algorithm>
#include <array>
#include <mutex>
#include <vector>

#include "util/byte_size.hpp"
#include "util/result.hpp"

namespace nib::tools {
namespace {

using vips::VImage;

// JPEG qualities tried in turn before the image is shrunk further.
constexpr std::array kJpegQualities{85, 70, 55, 40};
// Each shrink round scales the image by this factor; the rounds are bounded so that a limit
// that cannot be met ends in a clear failure instead of a thumbnail of a few pixels.
constexpr double kShrinkFactor = 0.75;
constexpr int kMaxShrinkRounds = 6;

// Decoder warnings of the image being prepared on this thread. libvips reports some failures
// (a damaged PNG chunk, data cut short) only as warnings and then raises an error with an empty
// message; these are that failure's reason. Warnings from libvips's own worker threads land in
// theirs and are lost, which the fallback reason covers.
thread_local std::vector<std::string> decoder_warnings;
// Warnings kept per image: the first few name the cause; the rest repeat it.
constexpr std::size_t kMaxKeptWarnings = 3;

void keep_warning(const gchar*, GLogLevelFlags, const gchar* message, gpointer) {
  if (message == nullptr || decoder_warnings.size() >= kMaxKeptWarnings) return;
  if (std::find(decoder_warnings.begin(), decoder_warnings.end(), message) !=
      decoder_warnings.end()) {
    return;
  }
  decoder_warnings.emplace_back(message);
}

// Starts libvips once per process; the same status for every call.
const util::Status& start_vips() {
  static std::once_flag once;
  static util::Status started = util::Status::success();
  std::call_once(once, [] {
    if (VIPS_INIT("nib") != 0) {
      started = util::Status::failure(vips_error_buffer());
      vips_error_clear();
      return;
    }
    // The operation cache keys buffers by address: a later image at the address of a freed
    // one could be served stale pixels. Every image here is decoded once, so nothing is lost.
    vips_cache_set_max(0);
    // Only the loaders for the formats detect_image_format() admits are ever wanted.
    vips_block_untrusted_set(TRUE);
    // Decoder warnings (a truncated file, odd metadata) would land on the terminal; they are
    // kept for the reason of a failure instead.
    g_log_set_handler("VIPS",
                      static_cast<GLogLevelFlags>(G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE),
                      keep_warning, nullptr);
  });
  return started;
}

// Owns a reference to a VipsBlob.
class Blob {
 public:
  explicit Blob(VipsBlob* blob) : blob_(blob) {}
  ~Blob() {
    if (blob_ != nullptr) vips_area_unref(VIPS_AREA(blob_));
  }
  Blob(const Blob&) = delete;
  Blob& operator=(const Blob&) = delete;

  VipsBlob* get() const { return blob_; }
  std::string bytes() const {
    std::size_t size = 0;
    const void* data = vips_blob_get(blob_, &size);
    return {static_cast<const char*>(data), size};
  }

 private:
  VipsBlob* blob_;
};

int int_field(const VImage& image, const char* name, int fallback) {
  return image.get_typeof(name) != 0 ? image.get_int(name) : fallback;
}

// 8-bit sRGB or greyscale, which every PNG and JPEG consumer understands.
VImage to_8bit_display(VImage image) {
  const auto space = image.interpretation();
  if (space != VIPS_INTERPRETATION_sRGB && space != VIPS_INTERPRETATION_B_W) {
    image = image.colourspace(space == VIPS_INTERPRETATION_GREY16 ? VIPS_INTERPRETATION_B_W
                                                                  : VIPS_INTERPRETATION_sRGB);
  }
  if (image.format() != VIPS_FORMAT_UCHAR) image = image.cast(VIPS_FORMAT_UCHAR);
  return image;
}

std::string encode_png(const VImage& image) {
  return Blob(image.pngsave_buffer(VImage::option()->set("strip", true))).bytes();
}

std::string encode_jpeg(const VImage& image, int quality) {
  return Blob(image.jpegsave_buffer(VImage::option()
                                        ->set("Q", quality)
                                        ->set("optimize_coding", true)
                                        ->set("strip", true)))
      .bytes();
}

// Encodes `image` within limits.max_bytes, shrinking it when no encoding fits. Fills data,
// mime_type, width, height and jpeg_quality of `result`; false when the limit cannot be met or
// `stop` was requested.
bool encode_within(VImage image, bool prefer_png, const ImageLimits& limits, std::stop_token stop,
                   PreparedImage& result) {
  for (int round = 0; round <= kMaxShrinkRounds; ++round) {
    if (stop.stop_requested()) return false;
    const bool alpha = image.has_alpha();
    if (prefer_png || alpha) {
      std::string png = encode_png(image);
      if (png.size() <= limits.max_bytes) {
        result.data = std::move(png);
        result.mime_type = "image/png";
        break;
      }
    }
    // JPEG has no transparency: show transparent parts as white, as most viewers do.
    const VImage opaque =
        alpha ? image.flatten(VImage::option()->set("background", std::vector<double>{255}))
              : image;
    for (const int quality : kJpegQualities) {
      if (stop.stop_requested()) return false;
      std::string jpeg = encode_jpeg(opaque, quality);
      if (jpeg.size() <= limits.max_bytes) {
        result.data = std::move(jpeg);
        result.mime_type = "image/jpeg";
        result.jpeg_quality = quality;
        break;
      }
    }
    if (!result.data.empty()) break;
    image = image.resize(kShrinkFactor).copy_memory();
  }
  if (result.data.empty()) return false;
  result.width = image.width();
  result.height = image.height();
  return true;
}

ImageOutcome failed(std::string reason) {
  return {std::nullopt, std::move(reason), false};
}
ImageOutcome aborted() {
  return {std::nullopt, "aborted", true};
}

std::string first_line(std::string_view text) {
  text = text.substr(0, text.find('\n'));
  return std::string(text);
}

// Why decoding failed: libvips's error text, else the decoder's warnings, else a fallback (an
// empty reason would tell the model nothing).
std::string decode_failure(const vips::VError& error) {
  std::string reason = first_line(error.what());
  if (reason.empty()) {
    for (const auto& warning : decoder_warnings) {
      reason += (reason.empty() ? "" : "; ") + first_line(warning);
    }
  }
  if (reason.empty()) reason = "libvips gave no reason; the file is probably damaged or truncated";
  return "it could not be decoded: " + reason;
}

ImageOutcome prepare(std::string_view bytes, ImageFormat format, const ImageLimits& limits,
                     std::stop_token stop) {
  if (const util::Status& started = start_vips(); !started.ok()) {
    return failed("the image library could not start: " + first_line(started.error()));
  }
  PreparedImage result;
  result.source_mime_type = image_mime_type(format);
  decoder_warnings.clear();
  try {
    // The loaders read only the header here; pixels are decoded when something needs them.
    const VImage header = VImage::new_from_buffer(bytes.data(), bytes.size(), "");
    const int orientation = int_field(header, VIPS_META_ORIENTATION, 1);
    result.rotated = orientation >= 2 && orientation <= 8;
    const bool swapped = orientation >= 5 && orientation <= 8;  // the quarter turns
    result.source_width = swapped ? header.height() : header.width();
    result.source_height = swapped ? header.width() : header.height();
    result.frame_count = std::max(1, int_field(header, VIPS_META_N_PAGES, 1));
    if (static_cast<std::int64_t>(header.width()) * header.height() > limits.max_pixels) {
      return failed("it has " + std::to_string(header.width()) + "x" +
                    std::to_string(header.height()) + " pixels, more than the " +
                    std::to_string(limits.max_pixels) + " this tool decodes");
    }
    const bool within_edge =
        std::max(result.source_width, result.source_height) <= limits.max_edge_px;
    const bool passes_through = (format == ImageFormat::kPng || format == ImageFormat::kJpeg) &&
                                !result.rotated && within_edge &&
                                bytes.size() <= limits.max_bytes &&
                                header.interpretation() != VIPS_INTERPRETATION_CMYK;
    if (passes_through) {
      result.data = std::string(bytes);
      result.mime_type = result.source_mime_type;
      result.width = result.source_width;
      result.height = result.source_height;
      return {std::move(result), "", false};
    }
    if (stop.stop_requested()) return aborted();

    // thumbnail applies the EXIF orientation and, for JPEG, decodes at a reduced size directly.
    const Blob source(vips_blob_new(nullptr, bytes.data(), bytes.size()));
    VImage image = VImage::thumbnail_buffer(
        source.get(), limits.max_edge_px,
        VImage::option()->set("height", limits.max_edge_px)->set("size", VIPS_SIZE_DOWN));
    image = to_8bit_display(image).copy_memory();  // encoded up to a dozen times below
    result.reencoded = true;
    const bool lossless_source = format == ImageFormat::kPng || format == ImageFormat::kGif;
    if (!encode_within(image, lossless_source, limits, stop, result)) {
      if (stop.stop_requested()) return aborted();
      return failed("it could not be encoded within the " +
                    util::format_byte_size(limits.max_bytes) + " limit, even when shrunk");
    }
    return {std::move(result), "", false};
  } catch (const vips::VError& error) {
    vips_error_clear();
    return failed(decode_failure(error));
  }
}

}  // namespace

}  // namespace nib::tools

extern "C" void nib_image_prepare_v1(const nib::tools::ImageJob& job,
                                     nib::tools::ImageOutcome& outcome) {
  outcome = nib::tools::prepare(job.bytes, job.format, job.limits, job.stop);
}
