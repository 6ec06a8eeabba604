#include "util/byte_size.hpp"

#include <gtest/gtest.h>

namespace nib::util {
namespace {

TEST(FormatByteSizeTest, UsesTheLargestUnitWithOneDecimal) {
  EXPECT_EQ(format_byte_size(0), "0 bytes");
  EXPECT_EQ(format_byte_size(1), "1 byte");
  EXPECT_EQ(format_byte_size(1023), "1023 bytes");
  EXPECT_EQ(format_byte_size(1024), "1 KB");
  EXPECT_EQ(format_byte_size(50 * 1024), "50 KB");
  EXPECT_EQ(format_byte_size(1536), "1.5 KB");
  EXPECT_EQ(format_byte_size(4 * 1024 * 1024 + 512 * 1024), "4.5 MB");
  EXPECT_EQ(format_byte_size(3ULL << 30), "3 GB");
}

TEST(FormatCountTest, GroupsDigitsInThrees) {
  EXPECT_EQ(format_count(0), "0");
  EXPECT_EQ(format_count(999), "999");
  EXPECT_EQ(format_count(1000), "1,000");
  EXPECT_EQ(format_count(12345), "12,345");
  EXPECT_EQ(format_count(1000000000), "1,000,000,000");
  EXPECT_EQ(format_count(18446744073709551615ULL), "18,446,744,073,709,551,615");
}

}  // namespace
}  // namespace nib::util
