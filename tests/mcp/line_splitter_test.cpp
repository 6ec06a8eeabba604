#include "mcp/line_splitter.hpp"

#include <gtest/gtest.h>

namespace nib::mcp {
namespace {

TEST(LineSplitter, JoinsPiecesSplitAnywhereAndDropsCarriageReturns) {
  LineSplitter lines(100);
  EXPECT_TRUE(lines.feed("{\"a\"").empty());
  EXPECT_EQ(lines.feed(":1}\r\n{\"b\":2}\n\n{\"c"),
            (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}"}));
  EXPECT_EQ(lines.feed("\":3}\n"), (std::vector<std::string>{"{\"c\":3}"}));
}

TEST(LineSplitter, DropsALineOverTheLimitWithoutKeepingItAndGoesOn) {
  LineSplitter lines(8);
  EXPECT_TRUE(lines.feed("0123456789").empty());
  EXPECT_TRUE(lines.feed(std::string(1000, 'x')).empty());
  EXPECT_EQ(lines.feed("tail\nok\n"), (std::vector<std::string>{"ok"}));
  EXPECT_EQ(lines.dropped(), 1u);
}

}  // namespace
}  // namespace nib::mcp
