// decode_to_utf8 against iconv's tables and the WHATWG labels, and charset_parameter.

#include "util/charset.hpp"

#include <gtest/gtest.h>

namespace nib::util {
namespace {

TEST(CharsetTest, UtfEightIsKeptAndItsInvalidBytesReplaced) {
  EXPECT_EQ(decode_to_utf8("caf\xC3\xA9", "UTF-8").text, "caf\xC3\xA9");
  EXPECT_EQ(decode_to_utf8("a\xFF"
                           "b\xC3",
                           "")
                .text,
            "a\xEF\xBF\xBD"
            "b\xEF\xBF\xBD");
}

TEST(CharsetTest, LatinOneIsReadAsWindows1252AsBrowsersDo) {
  // 0xE9 is é in both; 0x80 is € only in windows-1252 (a C1 control in ISO-8859-1).
  EXPECT_EQ(decode_to_utf8("caf\xE9 \x80", "ISO-8859-1").text, "caf\xC3\xA9 \xE2\x82\xAC");
  EXPECT_EQ(decode_to_utf8("\x80", "us-ascii").text, "\xE2\x82\xAC");
}

TEST(CharsetTest, OtherCharsetsGoThroughIconvAndInvalidSequencesAreReplaced) {
  // 日本 in Shift_JIS.
  EXPECT_EQ(decode_to_utf8("\x93\xFA\x96\x7B", "Shift_JIS").text, "\xE6\x97\xA5\xE6\x9C\xAC");
  // A lead byte followed by a byte that cannot follow it, then a lead byte cut off at the end.
  const DecodedText broken = decode_to_utf8("a\x81\x20z\x93", "shift_jis");
  EXPECT_TRUE(broken.known);
  EXPECT_EQ(broken.text, "a\xEF\xBF\xBD z\xEF\xBF\xBD");
}

TEST(CharsetTest, AByteOrderMarkDecidesAndIsDropped) {
  EXPECT_EQ(decode_to_utf8("\xEF\xBB\xBFhi", "windows-1251").text, "hi");
  EXPECT_EQ(decode_to_utf8(std::string("\xFF\xFEh\0i\0", 6), "").text, "hi");
  EXPECT_EQ(decode_to_utf8(std::string("\xFE\xFF\0h\0i", 6), "utf-8").text, "hi");
}

TEST(CharsetTest, AnUnknownCharsetIsReadAsUtf8AndSaidSo) {
  const DecodedText decoded = decode_to_utf8("plain \xC3\xA9", "x-no-such-charset");
  EXPECT_FALSE(decoded.known);
  EXPECT_EQ(decoded.text, "plain \xC3\xA9");
}

TEST(CharsetTest, TheCharsetParameterOfAContentType) {
  EXPECT_EQ(charset_parameter("text/html; charset=UTF-8"), "UTF-8");
  EXPECT_EQ(charset_parameter("text/html;Charset=\"iso-8859-1\" ; q=1"), "iso-8859-1");
  EXPECT_EQ(charset_parameter("text/plain; format=flowed"), "");
  EXPECT_EQ(charset_parameter("text/plain"), "");
}

}  // namespace
}  // namespace nib::util
