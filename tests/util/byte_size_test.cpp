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

}  // namespace
}  // namespace nib::util
