#include "util/json_depth.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include <nlohmann/json.hpp>

namespace nib::util {
namespace {

// The oracle: nlohmann's SAX parser, which keeps its own stack (no recursion) and reports every
// array and object it opens. Valid JSON only.
class DepthOracle : public nlohmann::json_sax<nlohmann::json> {
 public:
  std::size_t deepest = 0;

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return open(); }
  bool key(string_t&) override { return true; }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  bool open() {
    deepest = std::max(deepest, ++depth_);
    return true;
  }
  bool close() {
    --depth_;
    return true;
  }
  std::size_t depth_ = 0;
};

std::size_t oracle_depth(const std::string& text) {
  DepthOracle oracle;
  EXPECT_TRUE(nlohmann::json::sax_parse(text, &oracle)) << text;
  return oracle.deepest;
}

// A random JSON value whose strings are full of brackets, quotes and backslashes.
std::string random_json(std::mt19937& random, int depth_left) {
  const auto pick = [&random](int n) { return static_cast<int>(random() % n); };
  static const char* const kStrings[] = {
      R"("plain")", R"("[{")",           R"("}]")", R"("quote \" [ inside")", R"("backslash \\")",
      R"("\\\"[")", R"("\u005b\u007b")", R"("")",   R"("日本語 ] }")"};
  const int kind = depth_left > 0 ? pick(6) : pick(3);
  switch (kind) {
    case 0:
      return kStrings[pick(std::size(kStrings))];
    case 1:
      return std::to_string(pick(1000) - 500);
    case 2:
      return pick(2) ? "true" : "null";
    case 3:
    case 4: {
      std::string out = "[";
      const int items = pick(4);
      for (int i = 0; i < items; ++i) out += (i ? "," : "") + random_json(random, depth_left - 1);
      return out + "]";
    }
    default: {
      std::string out = "{";
      const int members = pick(4);
      for (int i = 0; i < members; ++i) {
        out += (i ? "," : "") + std::string(kStrings[pick(std::size(kStrings))]) + ":" +
               random_json(random, depth_left - 1);
      }
      return out + "}";
    }
  }
}

TEST(JsonNestingDepthTest, CountsArraysAndObjects) {
  EXPECT_EQ(json_nesting_depth(""), 0u);
  EXPECT_EQ(json_nesting_depth("7"), 0u);
  EXPECT_EQ(json_nesting_depth("[]"), 1u);
  EXPECT_EQ(json_nesting_depth("{}"), 1u);
  EXPECT_EQ(json_nesting_depth("[[]]"), 2u);
  EXPECT_EQ(json_nesting_depth(R"({"a":{"b":[1,{"c":2}]},"d":[]})"), 4u);
  EXPECT_EQ(json_nesting_depth("[[],[[]],[]]"), 3u);  // the deepest branch counts
}

TEST(JsonNestingDepthTest, BracketsInsideStringsDoNotCount) {
  EXPECT_EQ(json_nesting_depth(R"("[[[{{{")"), 0u);
  EXPECT_EQ(json_nesting_depth(R"(["a \" [[[ b"])"), 1u);     // an escaped quote stays inside
  EXPECT_EQ(json_nesting_depth(R"(["a \\", [[1]]])"), 3u);    // an escaped backslash ends it
  EXPECT_EQ(json_nesting_depth(R"({"[": {"]": "{"}})"), 2u);  // keys are strings too
}

TEST(JsonNestingDepthTest, ToleratesTextThatIsNotJson) {
  EXPECT_EQ(json_nesting_depth("]]]}}["), 1u);                 // unopened closers are ignored
  EXPECT_EQ(json_nesting_depth(R"(["unterminated [[[)"), 1u);  // the open string hides the rest
  EXPECT_EQ(json_nesting_depth(std::string(10, '[')), 10u);
}

TEST(JsonNestingDepthTest, AgreesWithNlohmannOnRandomDocuments) {
  std::mt19937 random(12345);
  for (int round = 0; round < 2000; ++round) {
    const std::string text = random_json(random, static_cast<int>(random() % 8));
    EXPECT_EQ(json_nesting_depth(text), oracle_depth(text)) << text;
  }
}

TEST(JsonNestsDeeperThanTest, IsTrueOnlyPastTheLimit) {
  const std::string deep = std::string(256, '[') + std::string(256, ']');
  EXPECT_FALSE(json_nests_deeper_than(deep, 256));
  EXPECT_TRUE(json_nests_deeper_than(deep, 255));
  EXPECT_FALSE(json_nests_deeper_than("{}", 1));
  EXPECT_TRUE(json_nests_deeper_than("{}", 0));
  EXPECT_FALSE(json_nests_deeper_than("42", 0));
}

TEST(JsonNestsDeeperThanTest, MillionsOfLevelsAreRefusedWithoutRecursion) {
  // Deep enough that any recursive walk would overflow the stack.
  const std::string hostile = std::string(4'000'000, '[') + std::string(4'000'000, ']');
  EXPECT_TRUE(json_nests_deeper_than(hostile, 256));
  EXPECT_EQ(json_nesting_depth(hostile), 4'000'000u);
}

}  // namespace
}  // namespace nib::util
