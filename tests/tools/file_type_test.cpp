#include "tools/file_type.hpp"

#include <gtest/gtest.h>

namespace nib::tools {
namespace {

using namespace std::string_literals;

TEST(DetectImageFormatTest, RecognisesSignaturesOnly) {
  EXPECT_EQ(detect_image_format("\x89PNG\r\n\x1a\n rest"s), ImageFormat::kPng);
  EXPECT_EQ(detect_image_format("\xff\xd8\xff\xe0"s), ImageFormat::kJpeg);
  EXPECT_EQ(detect_image_format("GIF89a..."s), ImageFormat::kGif);
  EXPECT_EQ(detect_image_format("GIF87a..."s), ImageFormat::kGif);
  EXPECT_EQ(detect_image_format("RIFF\x10\0\0\0WEBPVP8 "s), ImageFormat::kWebp);
  EXPECT_EQ(detect_image_format("RIFF\x10\0\0\0WAVEfmt "s), std::nullopt);
  EXPECT_EQ(detect_image_format("\x89PNG"s), std::nullopt);  // cut short
  EXPECT_EQ(detect_image_format("just text"), std::nullopt);
  EXPECT_EQ(detect_image_format(""), std::nullopt);
  EXPECT_STREQ(image_mime_type(ImageFormat::kWebp), "image/webp");
}

TEST(GuessFileTypeTest, NamesCommonFormatsWithAHint) {
  EXPECT_EQ(guess_file_type("\x7f"
                            "ELF\x02\x01\x01\0"s,
                            "a.out")
                .description,
            "ELF executable or shared library");
  const auto zip = guess_file_type("PK\x03\x04\x14\0"s, "'my file.zip'");
  EXPECT_EQ(zip.hint, "unzip -l 'my file.zip'");
  EXPECT_EQ(guess_file_type("\x1f\x8b\x08\0"s, "x.gz").hint, "gzip -dc x.gz | head -n 200");
  EXPECT_EQ(guess_file_type("%PDF-1.7\n"s, "d.pdf").description, "PDF document");
  std::string tar(512, '\0');
  tar.replace(257, 5, "ustar");
  EXPECT_EQ(guess_file_type(tar, "t.tar").description, "tar archive");
  EXPECT_EQ(guess_file_type("\xff\xfeh\0i\0"s, "u.txt").description, "UTF-16 (little-endian) text");
}

TEST(GuessFileTypeTest, FallsBackToBinaryDataOrAnotherEncoding) {
  EXPECT_EQ(guess_file_type("\x01\x02\0\x03"s, "blob").description, "binary data");
  EXPECT_EQ(guess_file_type("\x01\x02\0\x03"s, "blob").hint, "xxd blob | head -n 32");
  EXPECT_NE(guess_file_type("caf\xe9 au lait"s, "l1.txt").hint.find("iconv -f LATIN1"),
            std::string::npos);
}

TEST(LooksBinaryTest, TextIsNotBinary) {
  EXPECT_FALSE(looks_binary("", false));
  EXPECT_FALSE(looks_binary("plain ascii\n", false));
  EXPECT_FALSE(looks_binary("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\n"s, false));
}

TEST(LooksBinaryTest, NulOrInvalidUtf8IsBinary) {
  EXPECT_TRUE(looks_binary("abc\0def"s, true));
  EXPECT_TRUE(looks_binary("caf\xe9 au lait"s, true));
  EXPECT_TRUE(looks_binary("\xc0\xaf"s, false));  // overlong
  EXPECT_TRUE(looks_binary("ab\xff"s, true));     // never a valid lead byte
}

TEST(LooksBinaryTest, ForgivesOnlyASequenceCutByTheEndOfTheBlock) {
  EXPECT_FALSE(looks_binary("abc\xe2\x82"s, true));      // "€" cut after two bytes
  EXPECT_FALSE(looks_binary("abc\xe0"s, true));          // E0 needs A0..BF next
  EXPECT_FALSE(looks_binary("abc\xf0\x9f\x98"s, true));  // an emoji cut after three
  EXPECT_TRUE(looks_binary("abc\xe2\x82"s, false));      // the file really ends there
  EXPECT_TRUE(looks_binary("abc\xe2\x41"s, true));       // not a continuation
  EXPECT_TRUE(looks_binary("abc\xed\xa0"s, true));       // a surrogate, however it goes on
}

}  // namespace
}  // namespace nib::tools
