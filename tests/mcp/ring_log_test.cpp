#include "mcp/ring_log.hpp"

#include <gtest/gtest.h>

namespace nib::mcp {
namespace {

TEST(RingLog, KeepsTheEndWithinItsCapacity) {
  RingLog log(100);
  for (int i = 0; i < 1000; ++i) log.append("line " + std::to_string(i) + "\n");
  EXPECT_TRUE(log.truncated());
  const std::string all = log.tail(1000);
  EXPECT_LE(all.size(), 100u);
  EXPECT_TRUE(all.ends_with("line 999\n"));
}

TEST(RingLog, TailStartsAtALine) {
  RingLog log(1000);
  log.append("first line\nsecond\nthird\n");
  EXPECT_EQ(log.tail(12), "third\n");
  EXPECT_FALSE(log.truncated());
  RingLog big(10);
  big.append(std::string(50, 'a'));
  EXPECT_EQ(big.tail(100), std::string(10, 'a'));
}

TEST(RingLog, KeepsWholeCharacters) {
  // "é" is two bytes: the 9 bytes that fit would start with the second byte of one.
  std::string text = "x";
  for (int i = 0; i < 60; ++i) text += "é";
  RingLog log(9);
  log.append(text);
  EXPECT_EQ(log.tail(100), "éééé");
  EXPECT_EQ(log.tail(5), "éé");
  // Forgetting the oldest half does not split one either.
  RingLog halves(10);
  halves.append("abéééé");
  halves.append("é");
  EXPECT_TRUE(halves.truncated());
  EXPECT_EQ(halves.tail(100), "éé");
}

}  // namespace
}  // namespace nib::mcp
