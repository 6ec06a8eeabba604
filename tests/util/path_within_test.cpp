#include "util/path_within.hpp"

#include <gtest/gtest.h>

namespace nib::util {
namespace {

TEST(PathWithinTest, ComparesWholeComponents) {
  EXPECT_TRUE(is_within("/a/b", "/a/b"));
  EXPECT_TRUE(is_within("/a/b", "/a/b/c"));
  EXPECT_FALSE(is_within("/a/b", "/a/bc"));
  EXPECT_FALSE(is_within("/a/b", "/a"));
  EXPECT_TRUE(is_within("/", "/etc"));
}

TEST(PathWithinTest, StrictlyMeansBelowNotTheSame) {
  EXPECT_FALSE(is_strictly_within("/a/b", "/a/b"));
  EXPECT_TRUE(is_strictly_within("/a/b", "/a/b/c"));
  EXPECT_FALSE(is_strictly_within("/a/b", "/a/bc/d"));
}

TEST(PathWithinTest, ATrailingSlashChangesNothing) {
  EXPECT_TRUE(is_within("/a/b/", "/a/b"));
  EXPECT_TRUE(is_within("/a/b", "/a/b/"));
  EXPECT_FALSE(is_strictly_within("/a/b/", "/a/b"));
  EXPECT_FALSE(is_strictly_within("/a/b", "/a/b/"));
  EXPECT_TRUE(is_strictly_within("/a/b/", "/a/b/c/"));
}

}  // namespace
}  // namespace nib::util
