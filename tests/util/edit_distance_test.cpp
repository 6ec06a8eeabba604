// Tests of bounded_edit_distance, against a plain full-table computation as the oracle.

#include "util/edit_distance.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace nib::util {
namespace {

// Optimal string alignment distance over the whole table, with no band and no early exit.
std::size_t full_table_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

TEST(BoundedEditDistanceTest, CountsTypingMistakes) {
  EXPECT_EQ(bounded_edit_distance("read.cpp", "read.cpp", 3), 0u);
  EXPECT_EQ(bounded_edit_distance("raed.cpp", "read.cpp", 3), 1u);  // a swap
  EXPECT_EQ(bounded_edit_distance("confg", "config", 3), 1u);
  EXPECT_EQ(bounded_edit_distance("", "abc", 3), 3u);
  EXPECT_EQ(bounded_edit_distance("kitten", "sitting", 3), 3u);
}

TEST(BoundedEditDistanceTest, StopsAtTheLimit) {
  EXPECT_EQ(bounded_edit_distance("kitten", "sitting", 2), 3u);
  EXPECT_EQ(bounded_edit_distance("a", "abcdef", 2), 3u);
  EXPECT_EQ(bounded_edit_distance("abc", "xyz", 0), 1u);
}

TEST(BoundedEditDistanceTest, AgreesWithTheFullTable) {
  std::mt19937 random(12345);
  const auto word = [&] {
    std::string text(random() % 9, 'a');
    for (char& c : text) c = static_cast<char>('a' + random() % 3);  // few letters: many swaps
    return text;
  };
  for (int round = 0; round < 5000; ++round) {
    const std::string a = word();
    const std::string b = word();
    const std::size_t limit = random() % 5;
    const std::size_t expected = std::min(full_table_distance(a, b), limit + 1);
    ASSERT_EQ(bounded_edit_distance(a, b, limit), expected) << a << " / " << b << " / " << limit;
  }
}

}  // namespace
}  // namespace nib::util

namespace nib::util {
namespace {

TEST(ClosestNameTest, TheNearestWithinTheLimitIgnoringCase) {
  const std::vector<std::string> names{"explore", "general", "Write"};
  EXPECT_EQ(closest_name("explor", names, 2), "explore");
  EXPECT_EQ(closest_name("wirte", names, 2), "Write");
  EXPECT_EQ(closest_name("planner", names, 2), "");
  EXPECT_EQ(closest_name("x", {}, 2), "");
}

}  // namespace
}  // namespace nib::util
