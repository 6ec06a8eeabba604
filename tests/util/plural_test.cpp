#include "util/plural.hpp"

#include <gtest/gtest.h>

namespace nib::util {
namespace {

TEST(PluralTest, AddsAnSOrUsesTheIrregularForm) {
  EXPECT_EQ(plural(1, "file"), "1 file");
  EXPECT_EQ(plural(0, "file"), "0 files");
  EXPECT_EQ(plural(2, "binary file"), "2 binary files");
  EXPECT_EQ(plural(1, "directory", "directories"), "1 directory");
  EXPECT_EQ(plural(3, "directory", "directories"), "3 directories");
}

}  // namespace
}  // namespace nib::util
