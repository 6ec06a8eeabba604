// Tests of refusing tool arguments that hold a NUL byte.

#include "tools/os_argument.hpp"

#include <gtest/gtest.h>

namespace nib::tools {
namespace {

using nlohmann::json;

TEST(NulRefusalTest, NamesTheFieldThePlaceAndWhatWouldBeLeft) {
  const json args = {{"path", std::string("imp.txt\0.bak", 12)}};
  const auto refusal = nul_refusal(args, {"path"});
  ASSERT_TRUE(refusal);
  EXPECT_EQ(*refusal,
            "path holds a NUL character (\\u0000) at byte 7. File names, paths and commands end "
            "at a NUL for the operating system, so it would stand for only \"imp.txt\". Nothing "
            "was done; remove the NUL and retry.");
}

TEST(NulRefusalTest, ChecksOnlyTheNamedStringFields) {
  const json args = {{"path", "a.txt"},
                     {"content", std::string("data\0more", 9)},
                     {"limit", 3},
                     {"glob", std::string("*\0", 2)}};
  EXPECT_FALSE(nul_refusal(args, {"path", "content_is_data_not_named", "limit", "missing"}));
  const auto refusal = nul_refusal(args, {"path", "glob"});
  ASSERT_TRUE(refusal);
  EXPECT_TRUE(refusal->starts_with("glob holds a NUL character (\\u0000) at byte 1.")) << *refusal;
}

TEST(NulRefusalTest, ShortensALongPrefix) {
  const json args = {{"command", std::string(500, 'x') + std::string("\0", 1)}};
  const auto refusal = nul_refusal(args, {"command"});
  ASSERT_TRUE(refusal);
  EXPECT_NE(refusal->find("only \"" + std::string(200, 'x') + "\"… [300 more bytes]."),
            std::string::npos)
      << *refusal;
}

TEST(NulRefusalTest, QuotesWholeCharactersAndNoInvalidBytes) {
  // The cut at 200 bytes falls inside "ż" (C5 BC): the quote stops before it.
  const json cut = {{"path", std::string(199, 'x') + "żz" + std::string("\0", 1)}};
  const auto shortened = nul_refusal(cut, {"path"});
  ASSERT_TRUE(shortened);
  EXPECT_NE(shortened->find("only \"" + std::string(199, 'x') + "\"… [3 more bytes]."),
            std::string::npos)
      << *shortened;
  // A byte that is not UTF-8 is quoted as U+FFFD.
  const json invalid = {{"path", std::string("a\xFF\0", 3)}};
  const auto quoted = nul_refusal(invalid, {"path"});
  ASSERT_TRUE(quoted);
  EXPECT_NE(quoted->find("only \"a\xEF\xBF\xBD\". "), std::string::npos) << *quoted;
}

}  // namespace
}  // namespace nib::tools
