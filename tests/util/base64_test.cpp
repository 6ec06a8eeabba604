#include "util/base64.hpp"

#include <gtest/gtest.h>

namespace nib::util {
namespace {

TEST(Base64Test, EncodesTheRfc4648Vectors) {
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode("foob"), "Zm9vYg==");
  EXPECT_EQ(base64_encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
}

TEST(Base64Test, EncodesEveryByteValueAndDecodesItBack) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes += static_cast<char>(i);
  for (std::size_t length = 0; length <= bytes.size(); length += 37) {
    const std::string part = bytes.substr(0, length);
    const std::string encoded = base64_encode(part);
    EXPECT_EQ(encoded.find_first_not_of(
                  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="),
              std::string::npos);
    EXPECT_EQ(base64_decode(encoded), part);
  }
  EXPECT_EQ(base64_encode("\xfb\xff"), "+/8=");
}

TEST(Base64Test, RejectsMalformedText) {
  EXPECT_EQ(base64_decode("Zg="), std::nullopt);       // not a multiple of 4
  EXPECT_EQ(base64_decode("Zg=a"), std::nullopt);      // padding before data
  EXPECT_EQ(base64_decode("Zg==Zm9v"), std::nullopt);  // padding before the end
  EXPECT_EQ(base64_decode("Zm9*"), std::nullopt);      // outside the alphabet
  EXPECT_EQ(base64_decode("Zm9v\n"), std::nullopt);    // no whitespace
  EXPECT_EQ(base64_decode(""), std::string());
}

}  // namespace
}  // namespace nib::util
