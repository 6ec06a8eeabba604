// Tests of image preparation (tools/image) and of images read through the read tool.

#include "tools/image.hpp"

#include <glib.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <vips/vips8>

#include "support/temp_dir.hpp"
#include "tools/read.hpp"
#include "util/base64.hpp"

namespace nib::tools {
namespace {

using vips::VImage;

class ImageTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_EQ(VIPS_INIT("nib-tests"), 0); }
};

// A flat grey image with `bands` bands (4 = RGBA).
VImage solid(int width, int height, int bands = 3) {
  return (VImage::black(width, height, VImage::option()->set("bands", bands)) + 128)
      .cast(VIPS_FORMAT_UCHAR);
}

// RGB noise: compresses badly, in PNG and JPEG alike.
VImage noise(int width, int height) {
  const auto channel = [&] { return VImage::gaussnoise(width, height); };
  return channel().bandjoin({channel(), channel()}).cast(VIPS_FORMAT_UCHAR);
}

// `image` encoded in the format of `suffix` (".png", ".jpg", ".gif", ".webp").
std::string encode(const VImage& image, const char* suffix) {
  void* data = nullptr;
  std::size_t size = 0;
  image.write_to_buffer(suffix, &data, &size);
  std::string bytes(static_cast<const char*>(data), size);
  g_free(data);
  return bytes;
}

// A JPEG (or, through it, a PNG carrying the same EXIF block) whose orientation tag is 6: stored
// as width x height, to be shown turned a quarter to the right, i.e. height x width.
std::string rotated_image(int width, int height, const char* suffix) {
  VImage image = solid(width, height).copy();
  image.set(VIPS_META_ORIENTATION, 6);
  const std::string jpeg = encode(image, ".jpg");
  if (std::string_view(suffix) == ".jpg") return jpeg;
  // pngsave writes an EXIF block only when the image has one, as a loaded JPEG does.
  return encode(VImage::new_from_buffer(jpeg.data(), jpeg.size(), "").copy_memory(), suffix);
}

struct Decoded {
  int width = 0;
  int height = 0;
  int orientation = 1;
  bool alpha = false;
};

Decoded decode(const std::string& bytes) {
  const VImage image = VImage::new_from_buffer(bytes.data(), bytes.size(), "").copy_memory();
  const int orientation =
      image.get_typeof(VIPS_META_ORIENTATION) != 0 ? image.get_int(VIPS_META_ORIENTATION) : 1;
  return {image.width(), image.height(), orientation, image.has_alpha()};
}

PreparedImage prepare(const std::string& bytes, ImageFormat format, ImageLimits limits = {}) {
  ImageOutcome outcome = prepare_image(bytes, format, limits, {});
  EXPECT_TRUE(outcome.image.has_value()) << outcome.failure;
  return outcome.image.value_or(PreparedImage{});
}

TEST_F(ImageTest, PassesAPngWithinTheLimitsThroughUnchanged) {
  const std::string png = encode(solid(64, 32), ".png");
  const PreparedImage image = prepare(png, ImageFormat::kPng);
  EXPECT_EQ(image.data, png);
  EXPECT_EQ(image.mime_type, "image/png");
  EXPECT_FALSE(image.reencoded);
  EXPECT_FALSE(image.rotated);
  EXPECT_EQ(describe_prepared_image(image), "(64x32)");
}

TEST_F(ImageTest, PassesAJpegWithinTheLimitsThroughUnchanged) {
  const std::string jpeg = encode(solid(64, 32), ".jpg");
  const PreparedImage image = prepare(jpeg, ImageFormat::kJpeg);
  EXPECT_EQ(image.data, jpeg);
  EXPECT_EQ(image.mime_type, "image/jpeg");
  EXPECT_EQ(image.width, 64);
  EXPECT_EQ(image.height, 32);
}

TEST_F(ImageTest, TurnsAJpegUprightByItsExifOrientation) {
  const std::string jpeg = rotated_image(40, 20, ".jpg");
  ASSERT_EQ(decode(jpeg).orientation, 6);
  const PreparedImage image = prepare(jpeg, ImageFormat::kJpeg);
  EXPECT_TRUE(image.rotated);
  EXPECT_EQ(image.mime_type, "image/jpeg");
  EXPECT_EQ(image.width, 20);
  EXPECT_EQ(image.height, 40);
  const Decoded result = decode(image.data);
  EXPECT_EQ(result.width, 20);
  EXPECT_EQ(result.height, 40);
  EXPECT_EQ(result.orientation, 1);  // not turned a second time by whoever shows it
  EXPECT_EQ(describe_prepared_image(image), "(20x40; rotated upright by its EXIF orientation)");
}

TEST_F(ImageTest, TurnsAPngUprightByItsExifOrientation) {
  const std::string png = rotated_image(40, 20, ".png");
  ASSERT_EQ(decode(png).orientation, 6);
  const PreparedImage image = prepare(png, ImageFormat::kPng);
  EXPECT_TRUE(image.rotated);
  EXPECT_EQ(image.mime_type, "image/png");
  const Decoded result = decode(image.data);
  EXPECT_EQ(result.width, 20);
  EXPECT_EQ(result.height, 40);
}

TEST_F(ImageTest, ScalesAnOversizedImageToFitTheEdgeLimit) {
  const PreparedImage image = prepare(encode(solid(5000, 300), ".png"), ImageFormat::kPng);
  EXPECT_EQ(image.width, kMaxImageEdgePx);
  EXPECT_EQ(image.height, 120);
  EXPECT_EQ(image.mime_type, "image/png");  // a lossless source stays lossless
  EXPECT_EQ(decode(image.data).width, kMaxImageEdgePx);
  EXPECT_EQ(describe_prepared_image(image), "(resized from 5000x300 to 2000x120)");
}

TEST_F(ImageTest, KeepsTransparencyWhenResizing) {
  const PreparedImage image = prepare(encode(solid(100, 3000, 4), ".webp"), ImageFormat::kWebp);
  EXPECT_EQ(image.mime_type, "image/png");
  EXPECT_TRUE(decode(image.data).alpha);
  EXPECT_EQ(image.height, kMaxImageEdgePx);
}

TEST_F(ImageTest, ConvertsGifToPng) {
  const PreparedImage image = prepare(encode(solid(30, 10), ".gif"), ImageFormat::kGif);
  EXPECT_EQ(image.mime_type, "image/png");
  EXPECT_EQ(image.width, 30);
  EXPECT_EQ(describe_prepared_image(image), "(30x10; converted from image/gif)");
}

TEST_F(ImageTest, AttachesTheFirstFrameOfAnAnimation) {
  VImage frames = solid(20, 60).copy();
  frames.set("page-height", 20);
  const PreparedImage image = prepare(encode(frames, ".gif"), ImageFormat::kGif);
  EXPECT_EQ(image.frame_count, 3);
  EXPECT_EQ(image.height, 20);
  EXPECT_NE(describe_prepared_image(image).find("first frame of 3"), std::string::npos);
}

TEST_F(ImageTest, ConvertsAnOpaqueWebpToJpeg) {
  const PreparedImage image = prepare(encode(solid(30, 10), ".webp"), ImageFormat::kWebp);
  EXPECT_EQ(image.mime_type, "image/jpeg");
  EXPECT_EQ(decode(image.data).width, 30);
}

TEST_F(ImageTest, FallsBackToJpegWhenPngExceedsTheSizeLimit) {
  const std::string png = encode(noise(600, 600), ".png");
  const PreparedImage image = prepare(png, ImageFormat::kPng, {.max_bytes = png.size() * 3 / 4});
  EXPECT_EQ(image.mime_type, "image/jpeg");
  EXPECT_LE(image.data.size(), png.size() * 3 / 4);
  EXPECT_EQ(image.width, 600);
}

TEST_F(ImageTest, ShrinksTheImageWhenNoEncodingFits) {
  const std::size_t limit = 40 * 1024;
  const PreparedImage image =
      prepare(encode(noise(600, 600), ".png"), ImageFormat::kPng, {.max_bytes = limit});
  EXPECT_LE(image.data.size(), limit);
  EXPECT_LT(image.width, 600);
  EXPECT_EQ(decode(image.data).width, image.width);
}

TEST_F(ImageTest, FailsWhenTheSizeLimitCannotBeMet) {
  const ImageOutcome outcome =
      prepare_image(encode(noise(200, 200), ".png"), ImageFormat::kPng, {.max_bytes = 100}, {});
  EXPECT_FALSE(outcome.image);
  EXPECT_FALSE(outcome.aborted);
  EXPECT_NE(outcome.failure.find("could not be encoded within the 100 bytes limit"),
            std::string::npos)
      << outcome.failure;
}

TEST_F(ImageTest, ReportsDataThatDoesNotDecode) {
  const ImageOutcome outcome =
      prepare_image("\x89PNG\r\n\x1a\n this is not a png", ImageFormat::kPng, {}, {});
  EXPECT_FALSE(outcome.image);
  EXPECT_NE(outcome.failure.find("could not be decoded"), std::string::npos) << outcome.failure;
}

// A valid PNG signature and header chunk followed by garbage: libvips raises an error with an
// empty message for it and names the problem only in warnings.
std::string damaged_png() {
  std::string bytes(
      "\x89PNG\r\n\x1a\n"
      "\0\0\0\rIHDR"
      "\0\0\0\x10"
      "\0\0\0\x10"
      "\x08\x02\0\0\0"
      "\x90\x91h6",
      33);
  for (int i = 0; i < 10; ++i) bytes += "garbage";
  return bytes;
}

TEST_F(ImageTest, ADecodeFailureAlwaysHasAReason) {
  const ImageOutcome outcome = prepare_image(damaged_png(), ImageFormat::kPng, {}, {});
  EXPECT_FALSE(outcome.image);
  const std::string prefix = "it could not be decoded: ";
  ASSERT_TRUE(outcome.failure.starts_with(prefix)) << outcome.failure;
  EXPECT_GT(outcome.failure.size(), prefix.size() + 5) << outcome.failure;
}

TEST_F(ImageTest, RefusesImagesWithTooManyPixels) {
  const ImageOutcome outcome =
      prepare_image(encode(solid(64, 32), ".png"), ImageFormat::kPng, {.max_pixels = 1000}, {});
  EXPECT_FALSE(outcome.image);
  EXPECT_NE(outcome.failure.find("64x32 pixels"), std::string::npos) << outcome.failure;
}

TEST_F(ImageTest, StopsWhenAsked) {
  std::stop_source stop;
  stop.request_stop();
  const ImageOutcome outcome =
      prepare_image(encode(solid(3000, 100), ".png"), ImageFormat::kPng, {}, stop.get_token());
  EXPECT_TRUE(outcome.aborted);
  EXPECT_FALSE(outcome.image);
}

// Images read through the read tool: recognised by content, attached as base64.
class ReadImageTest : public ImageTest {
 protected:
  core::ToolOutput read(const std::string& path) {
    return tool_->execute({{"path", path}}, {}, {"call-1", dir_.path()});
  }

  // The attached image, decoded; fails the test when the result has none.
  Decoded attached(const core::ToolOutput& output, const std::string& mime) {
    EXPECT_FALSE(output.is_error) << output.output;
    if (!output.content || output.content->size() != 2) {
      ADD_FAILURE() << "no image attached: " << output.output;
      return {};
    }
    const auto& text = std::get<core::TextBlock>(output.content->at(0)).text;
    EXPECT_EQ(text, output.output);
    EXPECT_TRUE(text.starts_with("Read image file [" + mime + "]")) << text;
    const auto& image = std::get<core::ImageBlock>(output.content->at(1));
    EXPECT_EQ(image.mime_type, mime);
    const auto bytes = util::base64_decode(image.data_base64);
    if (!bytes) {
      ADD_FAILURE() << "attachment is not base64";
      return {};
    }
    return decode(*bytes);
  }

  testing::TempDir dir_;
  std::shared_ptr<FileTracker> files_ = std::make_shared<FileTracker>();
  core::ToolPtr tool_ = make_read_tool(files_);
};

TEST_F(ReadImageTest, RecognisesAPngByItsBytesNotItsName) {
  dir_.write("screenshot.txt", encode(solid(64, 32), ".png"));
  const auto output = read("screenshot.txt");
  const Decoded image = attached(output, "image/png");
  EXPECT_EQ(image.width, 64);
  EXPECT_EQ(output.output, "Read image file [image/png] (64x32)");
}

TEST_F(ReadImageTest, RecordsTheStateOfAShownImage) {
  const std::string bytes = encode(solid(8, 8), ".png");
  const auto path = dir_.write("tiny.png", bytes);
  attached(read("tiny.png"), "image/png");
  struct stat info {};
  ASSERT_EQ(stat(path.c_str(), &info), 0);
  EXPECT_EQ(files_->last_seen(resolve_file(path)), file_state(info, bytes));
}

TEST_F(ReadImageTest, ConvertsAGifNamedLikeAJpeg) {
  dir_.write("photo.jpg", encode(solid(30, 10), ".gif"));
  EXPECT_EQ(attached(read("photo.jpg"), "image/png").width, 30);
}

TEST_F(ReadImageTest, ConvertsAWebpNamedLikeAPng) {
  dir_.write("icon.png", encode(solid(30, 10), ".webp"));
  EXPECT_EQ(attached(read("icon.png"), "image/jpeg").height, 10);
}

TEST_F(ReadImageTest, TurnsAJpegUpright) {
  dir_.write("camera.jpg", rotated_image(40, 20, ".jpg"));
  const auto output = read("camera.jpg");
  const Decoded image = attached(output, "image/jpeg");
  EXPECT_EQ(image.width, 20);
  EXPECT_EQ(image.height, 40);
  EXPECT_NE(output.output.find("rotated upright"), std::string::npos);
}

TEST_F(ReadImageTest, ResizesAnOversizedImageAndSaysSo) {
  dir_.write("wide.png", encode(solid(5000, 300), ".png"));
  const auto output = read("wide.png");
  EXPECT_EQ(attached(output, "image/png").width, kMaxImageEdgePx);
  EXPECT_EQ(output.output, "Read image file [image/png] (resized from 5000x300 to 2000x120)");
}

TEST_F(ReadImageTest, OmitsAnImageThatDoesNotDecode) {
  dir_.write("broken.png", "\x89PNG\r\n\x1a\n truncated");
  const auto output = read("broken.png");
  EXPECT_TRUE(output.is_error);
  EXPECT_FALSE(output.content);
  EXPECT_TRUE(
      output.output.starts_with("Image file broken.png [image/png, 18 bytes] omitted: it "
                                "could not be decoded"))
      << output.output;
}

TEST_F(ReadImageTest, ADamagedImageIsOmittedWithAReason) {
  dir_.write("damaged.png", damaged_png());
  const auto output = read("damaged.png");
  EXPECT_TRUE(output.is_error);
  EXPECT_FALSE(output.output.ends_with("decoded: .")) << output.output;
}

}  // namespace
}  // namespace nib::tools
