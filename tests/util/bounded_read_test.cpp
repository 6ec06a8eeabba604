#include "util/bounded_read.hpp"

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

namespace nib::util {
namespace {

TEST(BoundedReadTest, ReadsASmallFileWholeAndABigOneOnePastTheLimit) {
  testing::TempDir dir;
  dir.write("small.txt", "hello");
  dir.write("big.txt", std::string(100'000, 'x'));
  const auto small = read_at_most(dir.path() / "small.txt", 10);
  ASSERT_TRUE(small.ok()) << small.error();
  EXPECT_EQ(small.value(), "hello");
  EXPECT_EQ(read_at_most(dir.path() / "small.txt", 5).value(), "hello");
  EXPECT_EQ(read_at_most(dir.path() / "small.txt", 4).value(), "hello");
  EXPECT_EQ(read_at_most(dir.path() / "small.txt", 2).value(), "hel");
  EXPECT_EQ(read_at_most(dir.path() / "big.txt", 50'000).value().size(), 50'001u);
  EXPECT_EQ(read_at_most(dir.path() / "big.txt", 200'000).value().size(), 100'000u);
  EXPECT_EQ(read_at_most(dir.path() / "empty", 10).error().rfind("cannot be read: ", 0), 0u);
}

}  // namespace
}  // namespace nib::util
