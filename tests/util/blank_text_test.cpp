#include "util/blank_text.hpp"

#include <gtest/gtest.h>

namespace nib::util {
namespace {

TEST(BlankTextTest, BlanksAreSpacesTabsAndLineEnds) {
  for (char c : {' ', '\t', '\n', '\r'}) EXPECT_TRUE(is_blank(c)) << int(c);
  for (char c : {'a', '\v', '\f', '\0', '_'}) EXPECT_FALSE(is_blank(c)) << int(c);
}

TEST(BlankTextTest, TrimsBothEnds) {
  EXPECT_EQ(trim_blanks(" \t a b \r\n"), "a b");
  EXPECT_EQ(trim_blanks("x"), "x");
  EXPECT_EQ(trim_blanks(" \n "), "");
  EXPECT_EQ(trim_blanks(""), "");
}

}  // namespace
}  // namespace nib::util
